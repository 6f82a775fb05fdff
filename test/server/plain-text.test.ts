/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API are read field by field here */
/**
 * Issue 29, item 9: one-line fields (names, concepts, references, e-mails, searches) refuse line breaks, control
 * characters and direction overrides with 400 naming the field in the request's language; multi-line fields (notes,
 * comments) keep line breaks and tabs but refuse the rest. Nothing is written on a refusal (the write log).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers';
import { writeLog, type WriteLog } from './write-log';

let server: TestServer;
let admin: string;
let log: WriteLog;
let userId: number;

beforeAll(async () => {
  server = await startTestServer({ seedErp: true });
  admin = await server.tokenFor('admin@demo.example');
  const [row] = await server.app.services.db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', ['staff@demo.example']);
  userId = row.id;
  log = await writeLog(server);
}, 180_000);
afterAll(() => server?.stop());

async function call(method: string, url: string, body: unknown, lang?: string) {
  const headers: Record<string, string> = { authorization: admin, 'content-type': 'application/json', ...(lang ? { 'accept-language': lang } : {}) };
  const response = await server.app.inject({ method: method as 'POST', url, headers, payload: JSON.stringify(body) });
  return { status: response.statusCode, body: response.json() as any };
}

const today = new Date().toISOString().slice(0, 10);
const PDF = `data:application/pdf;base64,${Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n').toString('base64')}`;
const move = (extra: Record<string, unknown>) => ({ type: 'invoice', company_id: 1, date: today, amount: 10, concept: 'Prueba', file: { name: 'a.pdf', data: PDF }, ...extra });
const order = (extra: Record<string, unknown>, line: Record<string, unknown> = {}) => ({
  order: { company_id: 1, partner_id: 1, date_order: today, ...extra },
  lines: [{ product_id: 1, product_uom_qty: 1, price_unit: 10, ...line }],
});

const RULES = {
  'validation.lineBreak': { es: 'debe ser una sola línea', en: 'must be a single line' },
  'validation.controlChars': { es: 'no puede contener caracteres de control', en: 'must not contain control characters' },
  'validation.directionChars': { es: 'no puede contener caracteres que cambian la dirección del texto', en: 'must not contain characters that change the direction of the text' },
} as const;

/** Each route family's one-line and multi-line fields, with a bad text in them: the field the answer must name. */
const REFUSED: Array<{ what: string; method: string; url: () => string; body: unknown; field: string; code: keyof typeof RULES }> = [
  { what: 'a move concept with a line break', method: 'POST', url: () => '/odoo/moves/create', body: move({ concept: 'Taxi\r\n=cmd' }), field: 'concept', code: 'validation.lineBreak' },
  { what: 'a move concept with a right-to-left override', method: 'POST', url: () => '/odoo/moves/create', body: move({ concept: 'factura\u202Efdp.exe' }), field: 'concept', code: 'validation.directionChars' },
  { what: 'a move comment with an escape character', method: 'POST', url: () => '/odoo/moves/create', body: move({ comment: 'ok\u001B[31m' }), field: 'comment', code: 'validation.controlChars' },
  { what: 'a corrected move reference with a tab', method: 'PUT', url: () => '/odoo/moves/1', body: { ref: 'a\tb' }, field: 'ref', code: 'validation.controlChars' },
  { what: "a move's comment with a C1 control", method: 'POST', url: () => '/odoo/moves/1/validation-comment', body: { comment: 'hola\u0085' }, field: 'comment', code: 'validation.controlChars' },
  { what: 'a moves search with a line break', method: 'POST', url: () => '/odoo/moves/search', body: { reference: 'x\ny' }, field: 'reference', code: 'validation.lineBreak' },
  { what: "an order's customer reference with DEL", method: 'POST', url: () => '/odoo/orders/create', body: order({ client_order_ref: 'REF\u007F' }), field: 'order.client_order_ref', code: 'validation.controlChars' },
  { what: "an order's note with an isolate", method: 'POST', url: () => '/odoo/orders/create', body: order({ note: 'a\u2067b' }), field: 'order.note', code: 'validation.directionChars' },
  { what: 'an orders search with a carriage return', method: 'POST', url: () => '/odoo/orders/search', body: { clientReference: 'x\r' }, field: 'clientReference', code: 'validation.lineBreak' },
  { what: "a contact's name with a line break", method: 'POST', url: () => '/odoo/contacts/create', body: { fields: { name: 'Lola\nPérez' } }, field: 'fields.name', code: 'validation.lineBreak' },
  { what: "a contact's e-mail with a bell", method: 'POST', url: () => '/odoo/contacts/create', body: { fields: { name: 'Lola', email: 'lola@example.com\u0007' } }, field: 'fields.email', code: 'validation.controlChars' },
  { what: "a contact's notes with a vertical tab", method: 'POST', url: () => '/odoo/contacts/create', body: { fields: { name: 'Lola', notes: 'a\u000Bb' } }, field: 'fields.notes', code: 'validation.controlChars' },
  { what: 'a contacts search with an override', method: 'POST', url: () => '/odoo/contacts/search', body: { name: '\u202Dx' }, field: 'name', code: 'validation.directionChars' },
  { what: "a user's first name with a line break", method: 'PUT', url: () => `/users/${userId}`, body: { firstName: 'Ana\nMaría' }, field: 'firstName', code: 'validation.lineBreak' },
  { what: 'an invitation e-mail with a line break', method: 'POST', url: () => '/users/invite', body: { email: 'new@demo.example\r\nBcc: x@evil.example', companies: [1] }, field: 'email', code: 'validation.lineBreak' },
  { what: 'a users search with a control', method: 'POST', url: () => '/users/search', body: { email: 'a\u0001' }, field: 'email', code: 'validation.controlChars' },
  { what: "an employee's name (generic resource) with a line break", method: 'PUT', url: () => '/odoo/employees/1', body: { name: 'Ana\nGil' }, field: 'name', code: 'validation.lineBreak' },
  { what: 'a generic search text (q) with an override', method: 'POST', url: () => '/odoo/employees/search', body: { q: '\u202Eabc' }, field: 'q', code: 'validation.directionChars' },
  { what: "a new provider's name with a line break", method: 'POST', url: () => '/odoo/providers/create', body: { companyId: 1, name: 'Prov\nS.L.' }, field: 'name', code: 'validation.lineBreak' },
];

describe('a one-line field refuses line breaks, controls and direction overrides; nothing is written', () => {
  for (const { what, method, url, body, field, code } of REFUSED) {
    it(what, async () => {
      const mark = await log.mark();
      for (const lang of ['es', 'en'] as const) {
        const answer = await call(method, url(), body, lang);
        expect(answer.status, JSON.stringify(answer.body)).toBe(400);
        expect(answer.body).toMatchObject({ code, field });
        expect(answer.body.message).toMatch(new RegExp(`^[^:]+: ${RULES[code][lang]}$`));
      }
      expect(await log.since(mark)).toEqual({ written: [], filesChanged: false });
    });
  }
});

describe('multi-line fields keep their line breaks and tabs; marks are accepted', () => {
  it('a move whose comment has lines and a tab is created, with its comment as sent', async () => {
    const answer = await call('POST', '/odoo/moves/create', move({ concept: 'Cena \u200Eclientes', comment: 'Primera línea\r\nSegunda\tcon tabulador' }));
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  });
  it("an order whose note and line description have several lines is created", async () => {
    const answer = await call('POST', '/odoo/orders/create', order({ note: 'Entrega:\nmañana' }, { name: '[P1] Producto\nDescripción larga' }));
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  });
});

describe('move and order dates within two years back and five years ahead (issue 29, item 9b)', () => {
  const ahead = (years: number, days: number) => {
    const day = new Date();
    day.setFullYear(day.getFullYear() + years);
    day.setDate(day.getDate() + days);
    return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
  };
  const MESSAGES = {
    moves: { es: 'Fecha de gasto/dieta o factura incorrecta, revise la fecha introducida', en: 'Incorrect expense/subsistence or invoice date, please check the date entered' },
    orders: { es: 'Fecha de presupuesto incorrecta, revise la fecha introducida', en: 'Incorrect quotation date, please check the date entered' },
  };
  let draftId: number;
  beforeAll(async () => {
    const created = await call('POST', '/odoo/moves/create', move({ concept: 'Para fechas' }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    draftId = created.body.id;
  });

  const REFUSED_DATES: Array<{ what: string; method: string; url: () => string; body: () => unknown; field: string; code: string; messages: { es: string; en: string } }> = [
    { what: 'a new move dated 2199', method: 'POST', url: () => '/odoo/moves/create', body: () => move({ date: '2199-12-31' }), field: 'date', code: 'moves.incorrectDate', messages: MESSAGES.moves },
    { what: 'a new move a day past five years ahead', method: 'POST', url: () => '/odoo/moves/create', body: () => move({ date: ahead(5, 1) }), field: 'date', code: 'moves.incorrectDate', messages: MESSAGES.moves },
    { what: 'a move corrected to 2150', method: 'PUT', url: () => `/odoo/moves/${draftId}`, body: () => ({ date: '2150-01-01' }), field: 'date', code: 'moves.incorrectDate', messages: MESSAGES.moves },
    { what: 'an order dated 2199', method: 'POST', url: () => '/odoo/orders/create', body: () => order({ date_order: '2199-01-01' }), field: 'order.date_order', code: 'orders.incorrectDate', messages: MESSAGES.orders },
    { what: 'an order dated three years back', method: 'POST', url: () => '/odoo/orders/create', body: () => order({ date_order: ahead(-3, 0) }), field: 'order.date_order', code: 'orders.incorrectDate', messages: MESSAGES.orders },
  ];
  for (const { what, method, url, body, field, code, messages } of REFUSED_DATES) {
    it(`refuses ${what} with 400 naming the date, nothing written`, async () => {
      const mark = await log.mark();
      for (const lang of ['es', 'en'] as const) {
        const answer = await call(method, url(), body(), lang);
        expect(answer.status, JSON.stringify(answer.body)).toBe(400);
        expect(answer.body).toMatchObject({ code, field, message: messages[lang] });
      }
      expect(await log.since(mark)).toEqual({ written: [], filesChanged: false });
    });
  }
  it('accepts a move dated five years ahead to the day, and a draft corrected to it', async () => {
    const created = await call('POST', '/odoo/moves/create', move({ date: ahead(5, 0) }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const corrected = await call('PUT', `/odoo/moves/${draftId}`, { date: ahead(4, 0) });
    expect(corrected.status, JSON.stringify(corrected.body)).toBeLessThan(300);
  });
});

describe('unknown keys in search bodies and list queries are refused as unknown write keys are (issue 29, item 9c)', () => {
  const SEARCHES: Array<{ url: string; known: Record<string, unknown> }> = [
    // Every key the console's filter forms, grouping tabs, sort and paging send.
    {
      url: '/odoo/moves/search',
      known: { number: 'x', partner: 'x', reference: 'x', company: [1], uploadedBy: 'a@b.c', dateFrom: '2025-01-01', dateTo: today, dueDateFrom: '2025-01-01', dueDateTo: today, validated: true, notValidated: false, state: ['draft'], pageNumber: 1, numberOfRecords: 25, sort: { field: 'date', order: 'DESC' } },
    },
    { url: '/odoo/orders/search', known: { number: 'x', partner: 'x', clientReference: 'x', dateFrom: '2025-01-01', dateTo: today, state: ['draft'], pageNumber: 1, numberOfRecords: 25, sort: { field: 'name', order: 'ASC' } } },
    { url: '/odoo/contacts/search', known: { name: 'x', owner: 'x', companyOwner: 'x', pageNumber: 1, numberOfRecords: 25, sort: { field: 'name', order: 'ASC' } } },
    { url: '/users/search', known: { name: 'x', email: 'x', companyId: 1, pageNumber: 1, numberOfRecords: 25 } },
    { url: '/odoo/employees/search', known: { q: 'x', pageNumber: 1, numberOfRecords: 25 } },
    { url: '/odoo/providers/search', known: { companyId: 1, name: 'x' } },
  ];
  for (const { url, known } of SEARCHES) {
    it(`${url}: the console's keys pass, an unknown one is refused naming it`, async () => {
      const passed = await call('POST', url, known);
      expect(passed.status, JSON.stringify(passed.body)).toBe(200);
      for (const lang of ['es', 'en'] as const) {
        const refused = await call('POST', url, { ...known, refernce: 'x' }, lang);
        expect(refused.status, JSON.stringify(refused.body)).toBe(400);
        expect(refused.body).toMatchObject({ code: 'validation.unknownFields' });
        expect(refused.body.message).toContain('refernce');
      }
    });
  }
  it("the validation queue's query refuses an unknown parameter and takes the console's", async () => {
    const get = (query: string) => server.app.inject({ method: 'GET', url: `/odoo/journals/1/moves?${query}`, headers: { authorization: admin } });
    expect((await get('filter=to_validate&pageNumber=1&numberOfRecords=25')).statusCode).toBe(200);
    const refused = await get('filter=to_validate&pagenumber=2');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'validation.unknownFields' });
  });
});
