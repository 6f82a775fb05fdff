/**
 * Deterministic demo data for the embedded ERP: the same records on every fresh database, with dates counted
 * back from the day the seed runs (so the demo always has recent moves within the two-year rule).
 */
import type { ErpValues } from '../types';
import { demoPdf, demoPng } from './files';
import type { EmbeddedStore } from './store';

/** A small deterministic pseudo-random generator (mulberry32). */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function isoDate(day: Date): string {
  return day.toISOString().slice(0, 10);
}

export function daysBefore(today: Date, days: number): string {
  return isoDate(new Date(today.getTime() - days * 86_400_000));
}

/** The people of the app's demo accounts who are employees in the ERP (Nico Nobody is not). */
export const DEMO_EMPLOYEES = [
  { name: 'Ada Admin', email: 'admin@demo.example', company: 0, job: 'Administradora de sistemas' },
  { name: 'Marta Manager', email: 'manager@demo.example', company: 0, job: 'Responsable de administración' },
  { name: 'Sergio Staff', email: 'staff@demo.example', company: 0, job: 'Técnico de compras' },
  { name: 'Sara Sales', email: 'sales@demo.example', company: 0, job: 'Comercial' },
];

/** Employees of the other companies, with no console account (created last: the ids of everything else stay). */
const OTHER_EMPLOYEES = [
  ['Javier Molina', 'javier.molina@beta.example', 1, 'Director financiero'],
  ['Elena Castro', 'elena.castro@beta.example', 1, 'Contable'],
  ['Raúl Vidal', 'raul.vidal@cumbre.example', 2, 'Jefe de proyecto'],
  ['Irene Navarro', 'irene.navarro@cumbre.example', 2, 'Diseñadora'],
  ['Tomás Gil', 'tomas.gil@cumbre.example', 2, false],
] as const;

const COMPANIES = [
  { name: 'Acme Iberia SL', vat: 'ESB12345674', projects: ['Expansión Portugal', 'Oficina Madrid', 'Feria Alimentaria'] },
  { name: 'Beta Servicios SA', vat: 'ESA87654321', projects: ['Mantenimiento 2026', 'Proyecto Atlas'] },
  { name: 'Cumbre Digital SL', vat: 'ESB11223344', projects: ['App móvil', 'Consultoría Norte'] },
];

const PROVIDERS = [
  'Papelería Sol SL', 'Transportes Rápidos SA', 'Restaurante El Puerto', 'Hotel Plaza Mayor', 'Gasolinera Ruta 66',
  'Amazon EU SARL', 'Telefónica de España SAU', 'Renfe Viajeros SME SA', 'Iberdrola Clientes SAU', 'Copistería Centro',
];
const CUSTOMERS = ['Grupo Alimentos del Sur SA', 'Clínica Dental Sonrisa', 'Ayuntamiento de Villanueva', 'Northwind Traders Ltd', 'Ferretería López', 'Hostelería Costa SL'];
const CATEGORIES = ['Inversor', 'Cliente potencial', 'Proveedor', 'Prensa', 'Partner tecnológico', 'Evento 2026'];
const INVESTOR_TYPES: Array<[string, string | false]> = [
  ['Business angel', 'Inversor particular que aporta capital y experiencia'],
  ['Venture capital', 'Fondo de capital riesgo'],
  ['Family office', false],
  ['Corporate', 'Inversión corporativa'],
];
const PRODUCTS: Array<[string, number, number, string]> = [
  ['Consultoría (hora)', 75, 40, 'Horas'],
  ['Desarrollo a medida (hora)', 60, 35, 'Horas'],
  ['Licencia anual', 1200, 300, 'Unidades'],
  ['Soporte mensual', 250, 90, 'Unidades'],
  ['Formación (jornada)', 600, 250, 'Unidades'],
  ['Material de oficina', 12.5, 7.9, 'Unidades'],
];
const CHART: ReadonlyArray<[string, string, string]> = [
  ['400000', 'Proveedores', 'liability_payable'],
  ['410000', 'Acreedores por prestaciones de servicios', 'liability_payable'],
  ['472000', 'Hacienda Pública, IVA soportado', 'asset_current'],
  ['600000', 'Compras de mercaderías', 'expense'],
  ['607000', 'Trabajos realizados por otras empresas', 'expense'],
  ['629000', 'Otros servicios', 'expense'],
  ['629100', 'Otros servicios (proyectos)', 'expense'],
  ['700000', 'Ventas de mercaderías', 'income'],
];
const CONCEPTS = ['Comida con cliente', 'Taxi aeropuerto', 'Billete de tren', 'Material de oficina', 'Hotel 2 noches', 'Combustible', 'Suscripción software', 'Mensajería', 'Parking', 'Fotocopias'];

export interface SeedSummary {
  companies: number[];
  moves: number;
  orders: number;
}

/** What the seed's steps share: the store, the generator and its helpers, the day the dates count back from. */
interface Seeding {
  store: EmbeddedStore;
  today: Date;
  rand: () => number;
  pick: <T>(items: readonly T[]) => T;
  amount: (min: number, max: number) => number;
  create: (model: string, values: ErpValues) => Promise<number>;
}

/** The records every company shares: currencies, units, payment terms, price lists, contact categories, investor types. */
async function seedCatalogues({ create }: Seeding) {
  const eur = await create('res.currency', { name: 'EUR', symbol: '€' });
  await create('res.currency', { name: 'USD', symbol: '$' });
  const units = await create('uom.uom', { name: 'Unidades' });
  const hours = await create('uom.uom', { name: 'Horas' });
  await create('uom.uom', { name: 'kg' });
  const uoms: Record<string, number> = { Unidades: units, Horas: hours };

  // Payment terms in this order so that id 4 is the spec's default ('30 días').
  const terms: number[] = [];
  for (const name of ['Pago inmediato', '15 días', '21 días', '30 días', '60 días']) terms.push(await create('account.payment.term', { name, active: true }));
  const pricelist = await create('product.pricelist', { name: 'Tarifa pública (EUR)', currency_id: eur, active: true });
  await create('product.pricelist', { name: 'Tarifa distribuidores (EUR)', currency_id: eur, active: true });

  const categories: number[] = [];
  for (const name of CATEGORIES) categories.push(await create('res.partner.category', { name }));
  for (const [name, description] of INVESTOR_TYPES) {
    await create('x_tipo_inversor', { x_name: name, x_studio_tipo_inversor_descripcion: description });
  }
  return { eur, uoms, terms, pricelist, categories };
}

type Catalogues = Awaited<ReturnType<typeof seedCatalogues>>;

/** A company's books: a part of the Spanish chart (PGC, as l10n_es installs it), its journals and projects, taxes and payment modes. */
async function seedBooks({ store, create }: Seeding, spec: (typeof COMPANIES)[number], index: number, company: number) {
  const accounts: Record<string, number> = {};
  for (const [code, name, type] of CHART) accounts[code] = await create('account.account', { code, name, account_type: type, company_id: company, deprecated: false });
  const invoices = await create('account.journal', { name: 'Facturas de proveedores', code: `FAC${index + 1}`, type: 'purchase', company_id: company, default_account_id: accounts['600000'] });
  const expenses = await create('account.journal', { name: 'Gastos y dietas', code: `GAS${index + 1}`, type: 'purchase', company_id: company, default_account_id: accounts['629000'] });
  await create('account.journal', { name: 'Ventas', code: `VEN${index + 1}`, type: 'sale', company_id: company });
  await store.write('res.company', [company], {
    x_facturas_journal_id: invoices,
    x_facturas_account: '600000',
    x_gastos_journal_id: expenses,
    x_gastos_account: '629000',
  });
  for (const [p, name] of spec.projects.entries()) {
    await create('project.project', {
      name,
      company_id: company,
      active: true,
      // The first project of each company books to accounts of its own; the others use the company's.
      ...(p === 0 ? { x_facturas_journal_id: invoices, x_facturas_account: '607000', x_gastos_journal_id: expenses, x_gastos_account: '629100' } : {}),
    });
  }
  const tax = (name: string, amount: number, use: string, scope: string | false = false) =>
    create('account.tax', { name, amount, amount_type: 'percent', type_tax_use: use, tax_scope: scope, price_include: false, company_id: company, active: true });
  const sale21 = await tax('IVA 21% (Servicios)', 21, 'sale', 'service');
  const sale21b = await tax('IVA 21% (Bienes)', 21, 'sale', 'consu');
  const sale10 = await tax('IVA 10%', 10, 'sale');
  await tax('IVA 4%', 4, 'sale');
  await tax('IVA 0% Exento', 0, 'sale');
  const purchase21 = await tax('IVA 21% soportado', 21, 'purchase');
  const transfer = await create('account.payment.mode', { name: '[C] Transferencia', company_id: company, active: true });
  await create('account.payment.mode', { name: '[C] Recibo domiciliado', company_id: company, active: true });
  await create('account.payment.mode', { name: '[C] Tarjeta', company_id: company, active: true });
  return { accounts, invoices, expenses, taxes: { sale21, sale21b, sale10, purchase21 }, transfer };
}

/** A company's people and catalogue: its demo employees (with their ERP users), suppliers, customers and products. */
async function seedPartners({ create }: Seeding, index: number, company: number, uoms: Catalogues['uoms'], sale21: number) {
  const employees: number[] = [];
  for (const person of DEMO_EMPLOYEES.filter((one) => one.company === index)) {
    const user = await create('res.users', { name: person.name, login: person.email, company_id: company, active: true });
    employees.push(await create('hr.employee', { name: person.name, work_email: person.email, job_title: person.job, user_id: user, company_id: company, active: true }));
  }
  const providers: number[] = [];
  for (const name of PROVIDERS.slice(index, index + 7)) {
    providers.push(await create('res.partner', { name, is_company: true, supplier_rank: 1, company_id: company, vat: `ESB${String(10000000 + providers.length * 7919 + index).slice(0, 8)}` }));
  }
  const customers: number[] = [];
  for (const name of CUSTOMERS) customers.push(await create('res.partner', { name, is_company: true, customer_rank: 1, company_id: company, email: `info@${name.toLowerCase().replace(/[^a-z]/g, '').slice(0, 12)}.example` }));
  const products: Array<{ id: number; price: number; cost: number; uom: number; name: string }> = [];
  for (const [name, price, cost, uom] of PRODUCTS) {
    const id = await create('product.product', { name, list_price: price, standard_price: cost, uom_id: uoms[uom], sale_ok: true, active: true, company_id: company, taxes_id: [[6, 0, [sale21]]] });
    products.push({ id, price, cost, uom: uoms[uom], name });
  }
  return { employees, providers, customers, products };
}

type Books = Awaited<ReturnType<typeof seedBooks>>;
type Partners = Awaited<ReturnType<typeof seedPartners>>;

/** A company's moves: expenses (receipts) and supplier bills in every state, some validated or denied, some paid; each with its file. */
async function seedMoves(seeding: Seeding, spec: (typeof COMPANIES)[number], index: number, company: number, eur: number, books: Books, providers: number[]): Promise<number> {
  const { store, today, rand, pick, amount, create } = seeding;
  const { accounts, invoices, expenses } = books;
  const uploaders = ['staff@demo.example', 'manager@demo.example', 'admin@demo.example'];
  let moveCount = 0;
  for (let m = 0; m < 14; m++) {
    const isExpense = m % 2 === 0;
    const daysAgo = 2 + m * 9 + Math.floor(rand() * 5);
    const date = daysBefore(today, daysAgo);
    const price = amount(8, isExpense ? 180 : 2400);
    const state = m < 6 ? 'draft' : m === 13 ? 'cancel' : 'posted';
    const validated = state === 'posted' || (state === 'draft' && m === 4);
    const denied = state === 'draft' && m === 5;
    const paid = state === 'posted' && m % 3 !== 0;
    const concept = isExpense ? pick(CONCEPTS) : `Factura ${pick(['servicios', 'suministros', 'mantenimiento', 'transporte'])} ${m + 1}`;
    const move = await create('account.move', {
      move_type: isExpense ? 'in_receipt' : 'in_invoice',
      company_id: company,
      journal_id: isExpense ? expenses : invoices,
      partner_id: pick(providers),
      currency_id: eur,
      date,
      invoice_date: date,
      invoice_date_due: daysBefore(today, daysAgo - 30),
      ref: isExpense ? concept : `F-${2026}-${String(100 + m * 7 + index).padStart(4, '0')}`,
      narration: m % 3 === 0 ? `<p>${concept}</p>` : false,
      x_payment_method: isExpense ? pick(['corporate_card', 'personal_card', 'direct_debit']) : false,
      x_uploaded_by: uploaders[m % uploaders.length],
      pnt_account_move_team_manager_validate: validated,
      pnt_account_move_team_manager_deny: denied,
      payment_state: paid ? 'paid' : 'not_paid',
      x_payment_status: paid ? 'paid' : 'unpaid',
      invoice_line_ids: [[0, 0, { name: concept, display_type: 'product', quantity: 1, price_unit: price, account_id: accounts[isExpense ? '629000' : '600000'], tax_ids: isExpense ? [] : [[6, 0, [books.taxes.purchase21]]] }]],
    });
    if (state !== 'draft') await store.call('account.move', 'action_post', [move]);
    if (state === 'cancel') await store.write('account.move', [move], { state: 'cancel' });
    const file = m % 4 === 1 ? { name: `factura-${m + 1}.png`, mimetype: 'image/png', data: demoPng(120, 160, [245, 244, 238]) } : {
      name: `${isExpense ? 'ticket' : 'factura'}-${m + 1}.pdf`,
      mimetype: 'application/pdf',
      data: demoPdf([spec.name, concept, `Fecha: ${date}`, `Importe: ${price.toFixed(2)} EUR`]),
    };
    const attachment = await create('ir.attachment', { name: file.name, datas: file.data.toString('base64'), mimetype: file.mimetype, file_size: file.data.length, res_model: 'account.move', res_id: move });
    await store.write('account.move', [move], { message_main_attachment_id: attachment });
    if (m % 3 === 1) await store.call('account.move', 'message_post', [move], [], { body: `Adjunto el justificante de ${concept.toLowerCase()}.`, email_from: 'Sergio Staff <staff@demo.example>' });
    if (denied) await store.call('account.move', 'message_post', [move], [], { body: 'Falta el ticket original; por favor, súbelo de nuevo.', email_from: 'Marta Manager <manager@demo.example>' });
    if (paid) {
      const [{ amount_total: total }] = await store.read('account.move', [move], ['amount_total']);
      await create('account.payment', { name: `PAGO/${index + 1}/${m + 1}`, date: daysBefore(today, Math.max(0, daysAgo - 20 - Math.floor(rand() * 25))), amount: total as number, payment_type: 'outbound', partner_id: providers[0], company_id: company, currency_id: eur, state: 'posted', move_id: move });
    }
    moveCount++;
  }
  return moveCount;
}

/** A company's sales orders in every state, with lines and chatter. */
async function seedOrders({ store, today, create }: Seeding, index: number, company: number, catalogues: Catalogues, books: Books, partners: Partners): Promise<number> {
  const { products, customers } = partners;
  const { sale21, sale21b, sale10 } = books.taxes;
  let orderCount = 0;
  for (const [o, state] of ['draft', 'draft', 'sent', 'sale', 'sale', 'cancel'].entries()) {
    const lines = [0, 1, 2].slice(0, 1 + (o % 3)).map((l) => {
      const product = products[(o + l) % products.length];
      return [0, 0, { name: product.name, product_id: product.id, product_uom_qty: 1 + ((o + l) % 4), product_uom: product.uom, price_unit: product.price, purchase_price: product.cost, tax_id: [[6, 0, [l === 2 ? sale10 : o % 2 ? sale21b : sale21]]] }];
    });
    const order = await create('sale.order', {
      partner_id: customers[(o + index) % customers.length],
      company_id: company,
      client_order_ref: `PED-${index + 1}${String(o + 1).padStart(3, '0')}`,
      date_order: `${daysBefore(today, 3 + o * 11)} 09:30:00`,
      currency_id: catalogues.eur,
      pricelist_id: catalogues.pricelist,
      payment_term_id: catalogues.terms[3],
      payment_mode_id: books.transfer,
      note: o % 2 ? '<p>Entrega en 15 días laborables.</p>' : false,
      x_uploaded_by: 'sales@demo.example',
      order_line: lines,
    });
    if (state === 'sent') await store.write('sale.order', [order], { state: 'sent' });
    if (state === 'sale') await store.call('sale.order', 'action_confirm', [order]);
    if (state === 'cancel') await store.call('sale.order', 'action_cancel', [order]);
    await store.call('sale.order', 'message_post', [order], [], { body: 'Presupuesto creado desde el backoffice.', email_from: 'Sara Sales <sales@demo.example>' });
    if (state === 'sale') await store.call('sale.order', 'message_post', [order], [], { body: '<p>Pedido <b>confirmado</b> por el cliente.</p>', body_is_html: true });
    orderCount++;
  }
  return orderCount;
}

/** Contacts owned by employees, with categories and investor types; events tagged with categories; the other companies' employees. */
async function seedContacts({ create }: Seeding, companies: number[], employees: number[], categories: number[]) {
  const southSummit = await create('event.event', { name: 'South Summit 2026', date_begin: '2026-06-04 08:00:00', company_id: companies[0] });
  const mwc = await create('event.event', { name: 'Mobile World Congress 2026', date_begin: '2026-03-02 08:00:00', company_id: companies[0] });
  const summitList = await create('x_evento_contactos', { x_name: 'South Summit 2026', event_id: southSummit, x_tag_ids: [[6, 0, [categories[0], categories[5]]]] });
  await create('x_evento_contactos', { x_name: 'Mobile World Congress 2026', event_id: mwc, x_tag_ids: [[6, 0, [categories[1], categories[4]]]] });
  const people = [
    ['Lucía Fernández', 'Directora de inversiones', 'Capital Norte SCR'],
    ['James Whitfield', 'Partner', 'Whitfield Ventures'],
    ['Carmen Ruiz', 'Periodista', 'Diario Económico'],
    ['Pablo Ortega', 'CTO', 'Ortega Tech SL'],
    ['Ana Martín', 'Responsable de compras', 'Grupo Alimentos del Sur SA'],
    ['Miguel Sanz', 'Business angel', false],
  ] as const;
  for (const [p, [name, position, companyName]] of people.entries()) {
    await create('res.partner', {
      name,
      function: position,
      company_name: companyName,
      email: `${name.toLowerCase().normalize('NFD').replace(/[^a-z ]/g, '').replace(/ /g, '.')}@example.com`,
      phone: `+34 6${String(10000000 + p * 1234567).slice(0, 8)}`,
      website: p % 2 ? `https://www.linkedin.com/in/${name.toLowerCase().normalize('NFD').replace(/[^a-z]/g, '')}` : false,
      company_id: companies[p % 2],
      x_studio_owner_employee: employees[p % employees.length],
      category_id: [[6, 0, [categories[p % categories.length]]]],
      x_studio_tipo_inversor: p < 2 || p === 5 ? [[6, 0, [(p % 4) + 1]]] : [],
      from_event_assistant: p === 0 ? summitList : false,
      comment: p === 0 ? '<p>Interesada en la ronda semilla.</p>' : false,
    });
  }
  for (const [name, email, company, job] of OTHER_EMPLOYEES) {
    await create('hr.employee', { name, work_email: email, job_title: job, company_id: companies[company], active: true });
  }
}

/** Fills an empty embedded ERP. Runs in one transaction: a failure leaves the database empty. */
export async function seedErp(root: EmbeddedStore, today = new Date()): Promise<SeedSummary> {
  return root.atomic(async (store) => {
    const rand = random(20261122);
    const seeding: Seeding = {
      store,
      today,
      rand,
      pick: (items) => items[Math.floor(rand() * items.length)],
      amount: (min, max) => Math.round((min + rand() * (max - min)) * 100) / 100,
      create: (model, values) => store.create(model, values),
    };
    const catalogues = await seedCatalogues(seeding);
    const companies: number[] = [];
    const employees: number[] = [];
    let moves = 0;
    let orders = 0;
    for (const [index, spec] of COMPANIES.entries()) {
      const company = await seeding.create('res.company', { name: spec.name, vat: spec.vat, currency_id: catalogues.eur, tax_calculation_rounding_method: 'round_per_line' });
      companies.push(company);
      const books = await seedBooks(seeding, spec, index, company);
      const partners = await seedPartners(seeding, index, company, catalogues.uoms, books.taxes.sale21);
      employees.push(...partners.employees);
      moves += await seedMoves(seeding, spec, index, company, catalogues.eur, books, partners.providers);
      orders += await seedOrders(seeding, index, company, catalogues, books, partners);
    }
    await seedContacts(seeding, companies, employees, catalogues.categories);
    return { companies, moves, orders };
  });
}
