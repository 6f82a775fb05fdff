/**
 * The API flows of the Odoo contract suite, written once and run on every back end: live against a real Odoo
 * (recording its exchanges), replayed from that recording in CI, and on the embedded store. Each step goes through
 * the product's HTTP API as the console would; what it sees is asserted, and the values a company would read
 * (amounts, states, account codes, what a search finds) are kept as observations, so that the embedded store is
 * compared with what the real Odoo answered.
 *
 * The flows create their own records, marked with the run's tag, and find everything else through the API, so they
 * run on the demo data of either back end. They cover the ten parity items of issue 13.
 */
import { expect } from 'vitest';
import { defaultSaleTax, lineSubtotal, orderTotals, type TaxRounding } from '../../shared/domain/orders';
import type { ErpClient, ErpRecord } from '../../server/erp/types';

export interface FlowContext {
  /** One API call as the console makes it (the admin's token, the console's language). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- API answers are read field by field, as a client does.
  api: (method: string, path: string, body?: unknown, lang?: 'es' | 'en', headers?: Record<string, string>) => Promise<{ status: number; body: any }>;
  /** The subject of the last mail the server sent, once its background reports are done. */
  lastMailSubject: () => Promise<string | undefined>;
  /** The ERP itself, for what an Odoo user would do on Odoo's own screens, and to look at what the API left there. */
  erp: ErpClient;
  /** The company the flows work in. */
  companyId: number;
  /** The run's day (YYYY-MM-DD) and mark. */
  today: string;
  tag: string;
  /** The console user the flows act as. */
  email: string;
  /** Keeps a value a company would read; `odooOnly` for what only a real Odoo does (translations). */
  observe: (key: string, value: unknown, options?: { odooOnly?: boolean }) => void;
}

const PDF = `data:application/pdf;base64,${Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
).toString('base64')}`;

const pairId = (value: unknown) => (Array.isArray(value) ? Number(value[0]) : Number(value));

function daysBefore(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

/** What a company must have for the flows, set as its Odoo administrator would (idempotent). */
export async function prepare(ctx: Pick<FlowContext, 'erp' | 'companyId' | 'email'>): Promise<void> {
  const { erp, companyId, email } = ctx;
  const [journal] = await erp.searchRead('account.journal', [['type', '=', 'purchase'], ['company_id', '=', companyId]], { fields: ['id'], order: 'id', limit: 1 });
  await erp.write('res.company', [companyId], { x_facturas_journal_id: journal.id, x_facturas_account: '600000', x_gastos_journal_id: journal.id, x_gastos_account: '629000' });
  const employees = await erp.searchRead('hr.employee', [['work_email', '=ilike', email]], { fields: ['id'], limit: 1 });
  if (!employees.length) await erp.create('hr.employee', { name: 'Ada Admin', work_email: email, company_id: companyId });
  const partners = await erp.searchRead('res.partner', [['email', '=ilike', email]], { fields: ['id'], limit: 1 });
  if (!partners.length) await erp.create('res.partner', { name: 'Ada Admin', email });
}

/** The codes of a move's lines' accounts as the company reads them (Odoo 18: each company has its own codes). */
async function lineAccountCodes(erp: ErpClient, moveId: number, companyId: number): Promise<string[]> {
  const lines = await erp.searchRead('account.move.line', [['move_id', '=', moveId], ['display_type', '=', 'product']], { fields: ['account_id'] });
  const accounts = await erp.read('account.account', lines.map((line) => pairId(line.account_id)), ['code'], { allowed_company_ids: [companyId] });
  return accounts.map((account) => String(account.code));
}

export async function moveFlows(ctx: FlowContext): Promise<void> {
  const { api, erp, companyId, today, tag, observe } = ctx;

  // Item 10: a partner with no posted bill (supplier_rank 0, no company: Odoo's defaults) is offered as a provider.
  const supplier = await erp.create('res.partner', { name: `Proveedor ${tag}`, is_company: true });
  const found = await api('POST', '/odoo/providers/search', { companyId, name: `Proveedor ${tag}` });
  expect(found.status).toBe(200);
  observe('providers: a partner without bills is offered', found.body.map((one: { id: number }) => one.id).includes(supplier));
  // Issue 17: a supplier read from a document and not stored, created from the Move page for the company, once.
  const vendor = await api('POST', '/odoo/providers/create', { companyId, name: `Nuevo proveedor ${tag}` });
  expect(vendor.status).toBe(201);
  const [stored] = await erp.read('res.partner', [vendor.body.id], ['is_company', 'supplier_rank', 'company_id']);
  observe('providers: created from a document', { is_company: stored.is_company, supplier_rank: stored.supplier_rank, company: pairId(stored.company_id) === companyId });
  observe('providers: created once', (await api('POST', '/odoo/providers/create', { companyId, name: `NUEVO PROVEEDOR ${tag}` })).status);

  // An invoice declared paid, with a comment for the manager.
  const invoice = await api('POST', '/odoo/moves/create', {
    type: 'invoice', company_id: companyId, partner_id: supplier, date: today, amount: 121, concept: `Factura ${tag}`,
    comment: `Comentario ${tag}`, paymentStatus: 'paid', file: { name: 'factura.pdf', data: PDF },
  });
  expect(invoice.status).toBe(201);
  const moveId = invoice.body.id as number;
  observe('moves: created invoice', { type: invoice.body.type, state: invoice.body.state, amount_total: invoice.body.amount_total, amount_total_signed: invoice.body.amount_total_signed, paymentStatus: invoice.body.paymentStatus });
  // Item 1: the configured account (600000 for invoices) is on the line, found by its code in the company's chart.
  observe('moves: invoice line account', await lineAccountCodes(erp, moveId, companyId));
  const files = await api('GET', `/odoo/moves/attachments?attachmentIds=${invoice.body.attachment_ids.join(',')}`);
  observe('moves: attachments', { status: files.status, files: files.body.map((one: { name: string; mimetype: string; datas: string }) => [one.name, one.mimetype, Buffer.from(one.datas, 'base64').subarray(0, 5).toString()]) });

  // Item 3: the declared status is kept and shown by the list, whatever Odoo computes as payment_state.
  const listed = await api('POST', '/odoo/moves/search', { reference: `Factura ${tag}` });
  expect(listed.status).toBe(200);
  observe('moves: list row', listed.body.moves.map((row: Record<string, unknown>) => ({ paymentStatus: row.paymentStatus, amount_total: row.amount_total, uploadedBy: row.uploadedBy })));
  observe('moves: a total below the bound is exact', listed.body.totalIsLowerBound);

  // Issue 18: paging forward after the previous page's last row (its `next`) gives the page paging by offset gives.
  const ids = (response: { body: { moves: Array<{ id: number }> } }) => response.body.moves.map((row) => row.id);
  const firstPage = await api('POST', '/odoo/moves/search', { numberOfRecords: 2 });
  const byOffset = await api('POST', '/odoo/moves/search', { numberOfRecords: 2, pageNumber: 2 });
  const byCursor = await api('POST', '/odoo/moves/search', { numberOfRecords: 2, pageNumber: 2, after: firstPage.body.next });
  expect(byCursor.status).toBe(200);
  observe('moves: the page after a cursor is the page by offset', { rows: ids(byCursor).length, same: JSON.stringify(ids(byCursor)) === JSON.stringify(ids(byOffset)) });

  // Item 7: the invoice-date filter searches the document's date, not the accounting date.
  const accounting = daysBefore(today, 40);
  await erp.write('account.move', [moveId], { date: accounting });
  const byInvoiceDate = await api('POST', '/odoo/moves/search', { reference: `Factura ${tag}`, dateFrom: today, dateTo: today });
  const byAccountingDate = await api('POST', '/odoo/moves/search', { reference: `Factura ${tag}`, dateFrom: accounting, dateTo: accounting });
  observe('moves: invoice-date filter finds by invoice date', [byInvoiceDate.body.total, byAccountingDate.body.total]);

  // Item 2: changing the amount goes through the invoice line; Odoo recomputes its tax and payment-term lines.
  const edited = await api('PUT', `/odoo/moves/${moveId}`, { amount: 60.5, ref: `Factura ${tag}`, date: today });
  expect(edited.status).toBe(200);
  observe('moves: amount changed', { amount_total: edited.body.amount_total, amount_total_signed: edited.body.amount_total_signed });

  // Issue 29: an edit sends the version it read (If-Match); a second edit with that same version is refused, naming
  // who changed the move, and stores nothing.
  expect(edited.body.version).toEqual(expect.any(String));
  const current = await api('PUT', `/odoo/moves/${moveId}`, { ref: `Factura ${tag} bis` }, 'es', { 'if-match': edited.body.version });
  const stale = await api('PUT', `/odoo/moves/${moveId}`, { ref: `Factura ${tag} ter` }, 'es', { 'if-match': edited.body.version });
  const [afterStale] = await erp.read('account.move', [moveId], ['ref']);
  observe('moves: a stale version is refused', { current: current.status, stale: stale.status, code: stale.body.code, stored: afterStale.ref === `Factura ${tag} bis` });
  await api('PUT', `/odoo/moves/${moveId}`, { ref: `Factura ${tag}` });

  // Item 8: chatter notes are the console user's; the uploader's comment opens the conversation; Odoo's own
  // notes ("Vendor Bill Created") stay out of the comments.
  const comment = await api('POST', `/odoo/moves/${moveId}/validation-comment`, { comment: `Revisado ${tag}` });
  expect(comment.status).toBe(201);
  const journal = pairId(invoice.body.journal_id);
  const queue = await api('GET', `/odoo/journals/${journal}/moves?filter=to_validate`);
  expect(queue.status).toBe(200);
  const queued = queue.body.find((row: { id: number }) => row.id === moveId);
  observe('validation: comments shown for the move', queued.messages.map((message: { body: string; email_from: string }) => [message.body.replace(/<[^>]+>/g, ''), message.email_from]));
  const notes = await erp.searchRead('mail.message', [['model', '=', 'account.move'], ['res_id', '=', moveId], ['message_type', '=', 'comment']], { fields: ['author_id', 'email_from'], order: 'id' });
  const [author] = await erp.searchRead('res.partner', [['email', '=ilike', ctx.email]], { fields: ['id'], order: 'id', limit: 1 });
  observe('chatter: notes authored by the console user', notes.map((note: ErpRecord) => pairId(note.author_id) === author.id));

  const validated = await api('PUT', `/odoo/moves/${moveId}/validate`, { validate: true });
  expect(validated.status).toBe(200);
  observe('validation: validated flags', [validated.body.pnt_account_move_team_manager_validate, validated.body.pnt_account_move_team_manager_deny]);
  expect((await api('DELETE', `/odoo/moves/${moveId}`)).status).toBe(204);

  // An expense, paid by card: the expenses account (629000) on the line, the amount as typed.
  const expense = await api('POST', '/odoo/moves/create', {
    type: 'expense', company_id: companyId, date: today, amount: 23.4, concept: `Taxi ${tag}`, paymentMethod: 'corporate_card', file: { name: 'taxi.pdf', data: PDF },
  });
  expect(expense.status).toBe(201);
  observe('moves: created expense', { type: expense.body.type, amount_total: expense.body.amount_total, amount_total_signed: expense.body.amount_total_signed, paymentStatus: expense.body.paymentStatus });
  observe('moves: expense line account', await lineAccountCodes(erp, expense.body.id, companyId));
  expect((await api('DELETE', `/odoo/moves/${expense.body.id}`)).status).toBe(204);
}

export async function orderFlows(ctx: FlowContext): Promise<void> {
  const { api, erp, companyId, today, tag, observe } = ctx;
  const customer = await erp.create('res.partner', { name: `Cliente ${tag}`, is_company: true });
  const [products, taxes, modes, companies] = await Promise.all([
    api('GET', `/odoo/products/${companyId}`),
    api('GET', `/odoo/taxes/${companyId}`),
    api('GET', `/odoo/payment-modes/${companyId}`),
    api('GET', '/odoo/companies'),
  ]);
  expect([products.status, taxes.status, modes.status, companies.status]).toEqual([200, 200, 200, 200]);
  // Item 9: the default tax is found by rate and scope, whatever the chart calls it.
  const iva21 = defaultSaleTax(taxes.body as Array<{ id: number; name: string; amount: number; tax_scope?: string; amount_type?: string }>)!;
  const iva10 = (taxes.body as Array<{ id: number; amount: number; amount_type?: string }>).find((tax) => tax.amount === 10 && (tax.amount_type ?? 'percent') === 'percent')!;
  observe('orders: default tax', { amount: iva21.amount, tax_scope: iva21.tax_scope ?? false });
  const rounding: TaxRounding = companies.body.data.find((one: { id: number }) => one.id === companyId).taxRounding;
  observe('orders: company tax rounding', rounding);

  // Item 6: prices typed with three decimals and two tax rates: the form's totals are what Odoo stores.
  const product = products.body[0];
  const typed = [
    { product_uom_qty: 3, price_unit: 12.345, tax: iva21 },
    { product_uom_qty: 1, price_unit: 40.005, tax: iva21 },
    { product_uom_qty: 2, price_unit: 12.5, tax: iva10 },
  ];
  const created = await api('POST', '/odoo/orders/create', {
    order: { company_id: companyId, partner_id: customer, client_order_ref: `PED ${tag}`, date_order: today, note: `Nota ${tag}`, payment_mode_id: modes.body[0]?.id ?? null },
    lines: typed.map((line) => ({ name: `Línea ${tag}`, product_id: product.id, product_uom_qty: line.product_uom_qty, price_unit: line.price_unit, tax_id: [line.tax.id] })),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const order = await api('GET', `/odoo/orders/${created.body.id}`);
  expect(order.status).toBe(200);
  const form = orderTotals(typed.map((line) => ({ quantity: line.product_uom_qty, priceUnit: line.price_unit, taxPercent: line.tax.amount })), rounding);
  observe('orders: stored totals', { untaxed: order.body.amount_untaxed, tax: order.body.amount_tax, total: order.body.amount_total });
  expect({ untaxed: order.body.amount_untaxed, tax: order.body.amount_tax, total: order.body.amount_total }).toEqual(form);
  observe('orders: lines as stored', order.body.lines.map((line: Record<string, unknown>) => ({ price_unit: line.price_unit, price_subtotal: line.price_subtotal, price_tax: line.price_tax })));
  observe('orders: state and salesperson', { state: order.body.state, uploadedBy: order.body.uploadedBy });

  // A company that rounds taxes globally (Settings > Invoicing > Rounding Method): three lines of 0,35 at 21 % have
  // 0,0735 of tax each: 0,21 rounded per line, 0,22 rounded once.
  await erp.write('res.company', [companyId], { tax_calculation_rounding_method: 'round_globally' });
  try {
    const small = [1, 2, 3].map(() => ({ name: `Línea ${tag}`, product_id: product.id, product_uom_qty: 1, price_unit: 0.35, tax_id: [iva21.id] }));
    const globally = await api('POST', '/odoo/orders/create', {
      order: { company_id: companyId, partner_id: customer, client_order_ref: `PED ${tag} G`, date_order: today },
      lines: small,
    });
    const stored = await api('GET', `/odoo/orders/${globally.body.id}`);
    const totals = { untaxed: stored.body.amount_untaxed, tax: stored.body.amount_tax, total: stored.body.amount_total };
    observe('orders: stored totals, rounding globally', { taxRounding: stored.body.taxRounding, ...totals });
    expect(totals).toEqual(orderTotals(small.map(() => ({ quantity: 1, priceUnit: 0.35, taxPercent: iva21.amount })), 'round_globally'));
  } finally {
    await erp.write('res.company', [companyId], { tax_calculation_rounding_method: rounding });
  }

  // The day filter: an order dated today is found from today to today in the companies' time zone.
  const search = await api('POST', '/odoo/orders/search', { clientReference: `PED ${tag}`, dateFrom: today, dateTo: today });
  const before = await api('POST', '/odoo/orders/search', { clientReference: `PED ${tag}`, dateTo: daysBefore(today, 1) });
  observe('orders: found by its day', [search.body.total, before.body.total]);

  // Item 5: printing goes through this server, which fetches Odoo's PDF or makes its own.
  const link = await api('GET', `/odoo/orders/${created.body.id}/print-url?lang=es`);
  expect(link.status).toBe(200);
  expect(link.body.url.startsWith('/report/pdf/sale.report_saleorder/')).toBe(true);
  const printed = await api('GET', link.body.url);
  observe('orders: print', { status: printed.status, pdf: String(printed.body).startsWith('%PDF-') });
  // Odoo's own report (wkhtmltopdf, Qt) where Odoo can print; the embedded store has no report of its own.
  observe('orders: printed by the ERP', !String(printed.body).includes('PDFKit'), { odooOnly: true });

  // Editing a line while a quotation: Odoo recomputes the order, as the detail dialog does.
  const lineId = order.body.lines[0].id;
  const changed = await api('PUT', `/odoo/orders/${created.body.id}/lines`, { lines: [{ id: lineId, product_uom_qty: 4 }] });
  expect(changed.status).toBe(200);
  const recomputed = orderTotals([{ quantity: 4, priceUnit: 12.345, taxPercent: iva21.amount }, ...typed.slice(1).map((line) => ({ quantity: line.product_uom_qty, priceUnit: line.price_unit, taxPercent: line.tax.amount }))], rounding);
  observe('orders: totals after editing a line', { untaxed: changed.body.amount_untaxed, tax: changed.body.amount_tax, total: changed.body.amount_total });
  expect({ untaxed: changed.body.amount_untaxed, tax: changed.body.amount_tax, total: changed.body.amount_total }).toEqual(recomputed);

  const confirmed = await api('PUT', `/odoo/orders/${created.body.id}/confirm`);
  observe('orders: confirm', { status: confirmed.status, state: confirmed.body.state });
  const deleted = await api('DELETE', `/odoo/orders/${created.body.id}`);
  observe('orders: a confirmed order cannot be deleted', deleted.status);
}

type OrderAnswer = { amount_untaxed: number; amount_tax: number; amount_total: number };
const totalsOf = (order: OrderAnswer) => ({ untaxed: order.amount_untaxed, tax: order.amount_tax, total: order.amount_total });

/**
 * Issue 27: an order typed in Spanish (2,5 x 1.234,56 €; 3 x 0,35 €; 1,25 x 19,99 €) reaches the API as the console's
 * reader stores it (2.5, 1234.56...), and Odoo's totals are, to the cent, what the console's arithmetic (orderTotals
 * with the company's rounding method, as the order form and the detail dialog compute them) showed before sending.
 * Then a company that rounds taxes globally, with two rates: Odoo rounds the tax of each tax once (not the sum of all
 * taxes once), so 4 lines give 11,29 € of tax where rounding per line gives 11,31 € and one rounding of the sum 11,30 €.
 */
export async function decimalOrderFlows(ctx: FlowContext): Promise<void> {
  const { api, erp, companyId, today, tag, observe } = ctx;
  const customer = await erp.create('res.partner', { name: `Cliente decimales ${tag}`, is_company: true });
  const [products, taxes, companies] = await Promise.all([api('GET', `/odoo/products/${companyId}`), api('GET', `/odoo/taxes/${companyId}`), api('GET', '/odoo/companies')]);
  expect([products.status, taxes.status, companies.status]).toEqual([200, 200, 200]);
  const iva21 = defaultSaleTax(taxes.body as Array<{ id: number; name: string; amount: number; tax_scope?: string; amount_type?: string }>)!;
  const iva10 = (taxes.body as Array<{ id: number; amount: number; amount_type?: string }>).find((tax) => tax.amount === 10 && (tax.amount_type ?? 'percent') === 'percent')!;
  const rounding: TaxRounding = companies.body.data.find((one: { id: number }) => one.id === companyId).taxRounding;
  const product = products.body[0];
  type Typed = { product_uom_qty: number; price_unit: number; tax: { id: number; amount: number } };
  const send = (typed: Typed[]) => typed.map((line) => ({ name: `Línea ${tag}`, product_id: product.id, product_uom_qty: line.product_uom_qty, price_unit: line.price_unit, tax_id: [line.tax.id] }));
  // What the order form computes from the same lines (its tax per line is one tax: its id groups a global rounding).
  const formTotals = (typed: Typed[], method: TaxRounding) =>
    orderTotals(typed.map((line) => ({ quantity: line.product_uom_qty, priceUnit: line.price_unit, taxPercent: line.tax.amount, taxId: line.tax.id })), method);
  const linesOf = (order: { lines: Array<Record<string, unknown>> }) =>
    order.lines.map((line) => ({ product_uom_qty: line.product_uom_qty, price_unit: line.price_unit, price_subtotal: line.price_subtotal, price_tax: line.price_tax }));

  // 2,5 x 1.234,56 € at 21 %: 3.086,40 € and 648,144 € of tax; 3 x 0,35 € at 10 %: 0,105 € of tax, a half cent;
  // 1,25 x 19,99 € at 21 %: 24,9875 €, a line rounded to 24,99 € before its tax (5,2479 €).
  const typed: Typed[] = [
    { product_uom_qty: 2.5, price_unit: 1234.56, tax: iva21 },
    { product_uom_qty: 3, price_unit: 0.35, tax: iva10 },
    { product_uom_qty: 1.25, price_unit: 19.99, tax: iva21 },
  ];
  const created = await api('POST', '/odoo/orders/create', {
    order: { company_id: companyId, partner_id: customer, client_order_ref: `DEC ${tag}`, date_order: today },
    lines: send(typed),
  });
  expect(created.status).toBe(201);
  const order = await api('GET', `/odoo/orders/${created.body.id}`);
  expect(order.status).toBe(200);
  observe('decimal order: company tax rounding', order.body.taxRounding);
  expect(order.body.taxRounding).toBe(rounding);
  observe('decimal order: stored totals', totalsOf(order.body));
  expect(totalsOf(order.body)).toEqual(formTotals(typed, rounding));
  observe('decimal order: lines as stored', linesOf(order.body));
  expect(linesOf(order.body).map((line) => line.price_subtotal)).toEqual(typed.map((line) => lineSubtotal(line.product_uom_qty, line.price_unit)));
  // The list shows the same figures.
  const listed = await api('POST', '/odoo/orders/search', { clientReference: `DEC ${tag}` });
  expect(listed.status).toBe(200);
  observe('decimal order: listed', listed.body.orders.map(totalsOf));
  expect(listed.body.orders.map(totalsOf)).toEqual([formTotals(typed, rounding)]);

  // The detail dialog changes a quantity to 2,75: Odoo recomputes the order as the dialog did.
  const third = order.body.lines[2].id;
  const edited = typed.map((line, index) => (index === 2 ? { ...line, product_uom_qty: 2.75 } : line));
  const changed = await api('PUT', `/odoo/orders/${created.body.id}/lines`, { lines: [{ id: third, product_uom_qty: 2.75 }] });
  expect(changed.status).toBe(200);
  observe('decimal order: totals after a decimal quantity', totalsOf(changed.body));
  expect(totalsOf(changed.body)).toEqual(formTotals(edited, rounding));
  observe('decimal order: lines after a decimal quantity', linesOf(changed.body));
  const relisted = await api('POST', '/odoo/orders/search', { clientReference: `DEC ${tag}` });
  expect(relisted.body.orders.map(totalsOf)).toEqual([formTotals(edited, rounding)]);

  // Rounding globally (Settings > Invoicing > Rounding Method), two rates, exact taxes with no half cent anywhere.
  await erp.write('res.company', [companyId], { tax_calculation_rounding_method: 'round_globally' });
  try {
    const mixed: Typed[] = [
      { product_uom_qty: 1.25, price_unit: 19.99, tax: iva21 },
      { product_uom_qty: 2.75, price_unit: 4.15, tax: iva21 },
      { product_uom_qty: 2.75, price_unit: 9.95, tax: iva10 },
      { product_uom_qty: 2.75, price_unit: 3.33, tax: iva10 },
    ];
    const globally = await api('POST', '/odoo/orders/create', {
      order: { company_id: companyId, partner_id: customer, client_order_ref: `DEC ${tag} G`, date_order: today },
      lines: send(mixed),
    });
    expect(globally.status).toBe(201);
    const stored = await api('GET', `/odoo/orders/${globally.body.id}`);
    observe('decimal order, rounding globally: stored totals', { taxRounding: stored.body.taxRounding, ...totalsOf(stored.body) });
    expect(totalsOf(stored.body)).toEqual(formTotals(mixed, 'round_globally'));
    observe('decimal order, rounding globally: lines as stored', linesOf(stored.body));
    // A decimal quantity changed while the company rounds globally.
    const lastLine = stored.body.lines[3].id;
    const changedGlobally = await api('PUT', `/odoo/orders/${globally.body.id}/lines`, { lines: [{ id: lastLine, product_uom_qty: 1.5 }] });
    expect(changedGlobally.status).toBe(200);
    const after = mixed.map((line, index) => (index === 3 ? { ...line, product_uom_qty: 1.5 } : line));
    observe('decimal order, rounding globally: totals after a decimal quantity', totalsOf(changedGlobally.body));
    expect(totalsOf(changedGlobally.body)).toEqual(formTotals(after, 'round_globally'));
  } finally {
    await erp.write('res.company', [companyId], { tax_calculation_rounding_method: rounding });
  }
}

export async function contactFlows(ctx: FlowContext): Promise<void> {
  const { api, erp, tag, observe } = ctx;
  // Item 10: a contact made on Odoo's screens has no company by default; the console lists it.
  await erp.create('res.partner', { name: `Contacto ${tag}`, email: `contacto.${tag.toLowerCase()}@example.com` });
  const listed = await api('POST', '/odoo/contacts/search', { name: `Contacto ${tag}`, pageNumber: 1, numberOfRecords: 20 });
  expect(listed.status).toBe(200);
  observe('contacts: a contact without company is listed', listed.body.contacts.map((one: { company_id: unknown; email: string }) => ({ company: one.company_id, email: one.email })));
  const created = await api('POST', '/odoo/contacts/create', { fields: { name: `Nuevo ${tag}`, email: `nuevo.${tag.toLowerCase()}@example.com`, function: 'CEO', notes: 'Conocido en la feria' } });
  observe('contacts: created', created.status);
  const mine = await api('POST', '/odoo/contacts/search', { name: `Nuevo ${tag}`, pageNumber: 1, numberOfRecords: 20 });
  observe('contacts: the new contact', mine.body.contacts.map((one: Record<string, unknown>) => ({ function: one.function, owned: Boolean(one.x_studio_owner_employee) })));
}

/** Item 9: the console's language reaches Odoo, whose reference names come back translated. */
export async function languageFlows(ctx: FlowContext): Promise<void> {
  const { api, companyId, observe } = ctx;
  const es = await api('GET', `/odoo/payment-terms/${companyId}`, undefined, 'es');
  const en = await api('GET', `/odoo/payment-terms/${companyId}`, undefined, 'en');
  expect([es.status, en.status]).toEqual([200, 200]);
  observe('language: payment terms differ by language', JSON.stringify(es.body) !== JSON.stringify(en.body), { odooOnly: true });
}

/** The remaining routes of spec section 7 that read the ERP, as the console calls them. */
export async function referenceFlows(ctx: FlowContext): Promise<void> {
  const { api, companyId, today, observe } = ctx;
  const statuses: Record<string, number> = {};
  for (const path of ['/odoo/categories', '/odoo/investor-types', '/odoo/events', '/odoo/uom', '/odoo/partner', `/odoo/partner/${companyId}`, `/odoo/price-lists/${companyId}`, '/odoo/products']) {
    const answer = await api('GET', path);
    statuses[path.replace(String(companyId), '{companyId}')] = answer.status;
    expect(Array.isArray(answer.body), path).toBe(true);
  }
  statuses['/odoo/providers'] = (await api('GET', '/odoo/providers', undefined, 'es', { 'x-company-id': String(companyId) })).status;
  observe('reference lists: statuses', statuses);
  const own = await api('GET', '/odoo/odoo-companies');
  observe('reference: the user is an employee', { status: own.status, employee: Boolean(own.body.employee), companies: own.body.companies.some((one: { id: number }) => one.id === companyId) });
  const me = await api('GET', '/users/me');
  const journals = await api('GET', `/odoo/users/${me.body.id}/journals`);
  observe('validation: the user journals', { status: journals.status, expenses: journals.body.expensesJournals.length > 0, invoices: journals.body.invoicesJournals.length > 0 });
  const report = await api('POST', '/odoo/reports/payment', { dateFrom: `${today.slice(0, 4)}-01-01`, dateTo: today, companies: [companyId] });
  observe('payment report: started', report.status);
  observe('payment report: mail', (await ctx.lastMailSubject())?.startsWith('Periodo medio de pago a proveedores del'));
}

export const FLOWS = { moves: moveFlows, orders: orderFlows, decimalOrders: decimalOrderFlows, contacts: contactFlows, language: languageFlows, reference: referenceFlows };

/**
 * Item 4, an Odoo without the optional OCA payment modes: the list of modes is empty (Odoo's UserError for the
 * absent model is no failure), and an order is created and listed without `payment_mode_id`, even when the
 * client still sends one.
 */
export async function withoutPaymentModesFlows(ctx: FlowContext): Promise<void> {
  const { api, erp, companyId, today, tag, observe } = ctx;
  const modes = await api('GET', `/odoo/payment-modes/${companyId}`);
  observe('payment modes absent: list', { status: modes.status, body: modes.body });
  const customer = await erp.create('res.partner', { name: `Cliente ${tag}`, is_company: true });
  const products = await api('GET', `/odoo/products/${companyId}`);
  const created = await api('POST', '/odoo/orders/create', {
    order: { company_id: companyId, partner_id: customer, client_order_ref: `PED ${tag}`, date_order: today, payment_mode_id: 7 },
    lines: [{ name: `Línea ${tag}`, product_id: products.body[0].id, product_uom_qty: 2, price_unit: 10, tax_id: [] }],
  });
  observe('payment modes absent: order created', created.status);
  const listed = await api('POST', '/odoo/orders/search', { clientReference: `PED ${tag}` });
  observe('payment modes absent: order listed', { status: listed.status, rows: listed.body.orders?.map((row: Record<string, unknown>) => ({ payment_mode_id: row.payment_mode_id, amount_total: row.amount_total })) });
  const read = await api('GET', `/odoo/orders/${created.body.id}`);
  observe('payment modes absent: order read', { status: read.status, payment_mode_id: read.body.payment_mode_id });
  // Recorded on an Odoo without wkhtmltopdf: it answers its report link with an error page (HTTP 400 "Unable to find
  // Wkhtmltopdf"), and the server prints the order itself. The other recording's Odoo prints its own PDF.
  const link = await api('GET', `/odoo/orders/${created.body.id}/print-url?lang=es`);
  const printed = await api('GET', link.body.url);
  observe('payment modes absent: print', { status: printed.status, pdf: String(printed.body).startsWith('%PDF-') });
  observe('payment modes absent: printed by the ERP', !String(printed.body).includes('PDFKit'), { odooOnly: true });
}
