import { beforeAll, describe, expect, it } from 'vitest';
import { seededServerAs } from './helpers';
import { writeLog, type WriteLog } from './write-log';

/**
 * Issue 15: bad input probed as an attacker or a careless client would send it, at least one probe per rule and route
 * family. Each is answered with its status and a message that names the field and the rule, and nothing is written
 * anywhere (the write log of test/server/write-log.ts: every table of the app and of the embedded ERP, and the data
 * folder's files).
 */
const admin = seededServerAs('admin@demo.example');
let log: WriteLog;
let token: string;
/** Records the probes name by placeholder (:draftMove...), read from the seeded data. */
const fixtures: Record<string, number> = {};

beforeAll(async () => {
  const first = async (path: string, body: unknown, items: string) => ((await admin.send('POST', path, body)).body[items] as Array<{ id: number }>)[0].id;
  fixtures.draftMove = await first('/odoo/moves/search', { state: ['draft'] }, 'moves');
  fixtures.draftOrder = await first('/odoo/orders/search', { state: ['draft'] }, 'orders');
  fixtures.line = ((await admin.send('GET', `/odoo/orders/${fixtures.draftOrder}`)).body.lines as Array<{ id: number }>)[0].id;
  fixtures.employee = await first('/odoo/employees/search', {}, 'employees');
  fixtures.project = await first('/odoo/projects/search', {}, 'projects');
  const [staff] = await admin.server.app.services.db.query<{ id: number }>("SELECT id FROM users WHERE email = 'staff@demo.example'");
  fixtures.staff = staff.id;
  token = await admin.server.tokenFor('admin@demo.example');
  log = await writeLog(admin.server);
});

const day = (yearsAgo = 0) => {
  const date = new Date();
  date.setFullYear(date.getFullYear() - yearsAgo);
  return date.toISOString().slice(0, 10);
};
const today = day();
const x = (length: number) => 'x'.repeat(length);
const PDF = `data:application/pdf;base64,${Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n').toString('base64')}`;
const move = (extra: Record<string, unknown> = {}) => ({ type: 'invoice', company_id: 1, date: today, amount: 10, concept: 'Probe', file: { name: 'a.pdf', data: PDF }, ...extra });
const line = (extra: Record<string, unknown> = {}) => ({ product_id: 1, product_uom_qty: 1, price_unit: 10, ...extra });
const order = (extra: Record<string, unknown> = {}, lines: unknown[] = [line()]) => ({ order: { company_id: 1, partner_id: 1, date_order: today, ...extra }, lines });
const contact = (extra: Record<string, unknown>) => ({ fields: { name: 'Probe Contact', ...extra } });

type Probe = [rule: string, method: string, path: string, body: unknown, status: number, message: string | RegExp, headers?: Record<string, string>];

/** Per route family: [rule, method, path (with :placeholders), body (a string is sent as is), status, message]. */
const PROBES: Record<string, Probe[]> = {
  'move search': [
    ['text too long', 'POST', '/odoo/moves/search', { number: x(201) }, 400, 'number: must be at most 200 characters'],
    ['id 0', 'POST', '/odoo/moves/search', { partner: 0 }, 400, 'partner: is not a valid id'],
    ['id past 2^31-1', 'POST', '/odoo/moves/search', { partner: 2_147_483_648 }, 400, 'partner: is not a valid id'],
    ['fractional id', 'POST', '/odoo/moves/search', { company: [1.5] }, 400, 'company.0: is not a valid id'],
    ['wrong type among alternatives', 'POST', '/odoo/moves/search', { partner: true }, 400, 'partner: must be text or a number, not true or false'],
    ['date out of range', 'POST', '/odoo/moves/search', { dateFrom: '9999-12-31' }, 400, 'dateFrom: must be a date YYYY-MM-DD'],
    ['no such day', 'POST', '/odoo/moves/search', { dueDateTo: '2026-02-30' }, 400, 'dueDateTo: must be a date YYYY-MM-DD'],
    ['page 0', 'POST', '/odoo/moves/search', { pageNumber: 0 }, 400, 'pageNumber: must be at least 1'],
    ['page size too big', 'POST', '/odoo/moves/search', { numberOfRecords: 501 }, 400, 'numberOfRecords: must be at most 500'],
    ['fractional page', 'POST', '/odoo/moves/search', { pageNumber: 1.5 }, 400, 'pageNumber: must be a whole number'],
    ['number beyond JSON doubles', 'POST', '/odoo/moves/search', '{"numberOfRecords":1e400}', 400, 'numberOfRecords: is too big'],
    ['list too long', 'POST', '/odoo/moves/search', { company: Array.from({ length: 101 }, () => 1) }, 400, 'company: must have at most 100 items'],
    ['unknown choice', 'POST', '/odoo/moves/search', { state: ['paid'] }, 400, 'state.0: must be one of: draft, posted, cancel, cancelled'],
    ['boolean as text', 'POST', '/odoo/moves/search', { validated: 'yes' }, 400, 'validated: must be true or false, not text'],
    ['list as text', 'POST', '/odoo/moves/search', { company: 'Acme' }, 400, 'company: must be a list or a number, not text'],
    ['sort by an undeclared field', 'POST', '/odoo/moves/search', { sort: { field: 'id; DROP TABLE users', order: 'ASC' } }, 400, /^sort\.field must be one of: /],
    ['sort order', 'POST', '/odoo/moves/search', { sort: { field: 'date', order: 'sideways' } }, 400, 'sort.order: must be ASC or DESC'],
    ['body a list', 'POST', '/odoo/moves/search', '[]', 400, 'body: must be an object, not a list'],
    ['prototype key', 'POST', '/odoo/moves/search', '{"__proto__":{"admin":true}}', 400, 'Body must not contain "__proto__" or "constructor.prototype" keys'],
    ['invalid JSON', 'POST', '/odoo/moves/search', '{"number":', 400, /^Body is not valid JSON/],
    ['not JSON at all', 'POST', '/odoo/moves/search', 'number=1', 415, 'The body must be JSON (content-type: application/json), not application/x-www-form-urlencoded', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['NUL', 'POST', '/odoo/moves/search', { reference: 'a\u0000' }, 400, 'reference: must not contain NUL characters'],
    ['lone surrogate', 'POST', '/odoo/moves/search', '{"reference":"\\udc00"}', 400, 'reference: must be well-formed Unicode'],
  ],
  'move creation': [
    ['amount rounding to 0.00', 'POST', '/odoo/moves/create', move({ amount: 0.001 }), 400, 'amount: amount must be at least 0.01'],
    ['amount too big', 'POST', '/odoo/moves/create', move({ amount: 1e10 }), 400, 'amount: amount must be at most 1000000000'],
    ['negative amount', 'POST', '/odoo/moves/create', move({ amount: -5 }), 400, 'amount: amount must be greater than zero'],
    ['amount as text', 'POST', '/odoo/moves/create', move({ amount: '10' }), 400, 'amount: amount must be a number'],
    ['amount 1e400', 'POST', '/odoo/moves/create', JSON.stringify(move()).replace('"amount":10', '"amount":1e400'), 400, 'amount: is too big'],
    ['company id 0', 'POST', '/odoo/moves/create', move({ company_id: 0 }), 400, 'company_id: is not a valid id'],
    ['company missing', 'POST', '/odoo/moves/create', move({ company_id: undefined }), 400, 'company_id: company_id is required'],
    ['supplier id past 2^31-1', 'POST', '/odoo/moves/create', move({ partner_id: 2_147_483_648 }), 400, 'partner_id: is not a valid id'],
    ['project of the wrong type', 'POST', '/odoo/moves/create', move({ project: 'Obra' }), 400, 'project: must be a number or an object, not text'],
    ['project id -1', 'POST', '/odoo/moves/create', move({ project: { id: -1 } }), 400, 'project.id: is not a valid id'],
    ['concept too long', 'POST', '/odoo/moves/create', move({ concept: x(501) }), 400, 'concept: must be at most 500 characters'],
    ['comment too long', 'POST', '/odoo/moves/create', move({ comment: x(10_001) }), 400, 'comment: must be at most 10000 characters'],
    ['file name too long', 'POST', '/odoo/moves/create', move({ file: { name: `${x(252)}.pdf`, data: PDF } }), 400, 'file.name: must be at most 255 characters'],
    ['file missing', 'POST', '/odoo/moves/create', move({ file: undefined }), 400, 'file: A file is required'],
    ['date before 1900', 'POST', '/odoo/moves/create', move({ date: '1899-12-31' }), 400, 'date: must be a date YYYY-MM-DD'],
    ['date older than two years (spec)', 'POST', '/odoo/moves/create', move({ date: day(3) }), 400, 'Incorrect expense/subsistence or invoice date, please check the date entered'],
    ['unknown payment method', 'POST', '/odoo/moves/create', move({ type: 'expense', paymentMethod: 'cash' }), 400, 'paymentMethod: must be one of: corporate_card, personal_card, direct_debit'],
    ['unknown field', 'POST', '/odoo/moves/create', move({ reference: 'R-1' }), 400, 'unknown field: reference'],
    ['NUL in the concept', 'POST', '/odoo/moves/create', move({ concept: 'a\u0000b' }), 400, 'concept: must not contain NUL characters'],
    ['HTML that starts like a PDF', 'POST', '/odoo/moves/create', move({ file: { name: 'a.pdf', data: `data:application/pdf;base64,${Buffer.from('%PDF-1.4\n<html></html>').toString('base64')}` } }), 400, 'Failed to load file. Unsupported file format or file corrupted.'],
  ],
  'move change, validation, comments, attachments, queue': [
    ['amount rounding to 0.00', 'PUT', '/odoo/moves/:draftMove', { amount: 1e-9 }, 400, 'amount: amount must be at least 0.01'],
    ['empty concept', 'PUT', '/odoo/moves/:draftMove', { ref: '  ' }, 400, 'ref: The reference/concept is required'],
    ['date out of range', 'PUT', '/odoo/moves/:draftMove', { date: '9999-12-31' }, 400, 'date: must be a date YYYY-MM-DD'],
    ['unknown field', 'PUT', '/odoo/moves/:draftMove', { discount: 5 }, 400, 'unknown field: discount'],
    ['path id not a number', 'PUT', '/odoo/moves/abc', {}, 400, 'params/id must match pattern "^[0-9]{1,9}$"'],
    ['path id too long', 'DELETE', '/odoo/moves/1234567890', undefined, 400, 'params/id must match pattern "^[0-9]{1,9}$"'],
    ['decision as text', 'PUT', '/odoo/moves/:draftMove/validate', { validate: 'true' }, 400, 'validate: validate must be true or false'],
    ['empty comment', 'POST', '/odoo/moves/:draftMove/validation-comment', { comment: ' ' }, 400, 'comment: The comment is empty'],
    ['comment too long', 'POST', '/odoo/moves/:draftMove/validation-comment', { comment: x(5001) }, 400, 'comment: must be at most 5000 characters'],
    ['attachment id 0', 'GET', '/odoo/moves/attachments?attachmentIds=0', undefined, 400, 'attachmentIds must be a comma-separated list of up to 50 attachment ids'],
    ['51 attachment ids', 'GET', `/odoo/moves/attachments?attachmentIds=${Array.from({ length: 51 }, (_, index) => index + 1).join(',')}`, undefined, 400, 'attachmentIds must be a comma-separated list of up to 50 attachment ids'],
    ['journal id 0', 'GET', '/odoo/journals/0/moves?filter=to_validate', undefined, 400, 'ids must be a comma-separated list of up to 50 journal ids'],
    ['unknown queue filter', 'GET', '/odoo/journals/1/moves?filter=all', undefined, 400, "filter must be 'to_validate'"],
  ],
  'order creation': [
    ['quantity 1e-9', 'POST', '/odoo/orders/create', order({}, [line({ product_uom_qty: 1e-9 })]), 400, 'lines.0.product_uom_qty: The quantity must be at least 0.01'],
    ['quantity 0', 'POST', '/odoo/orders/create', order({}, [line({ product_uom_qty: 0 })]), 400, 'lines.0.product_uom_qty: The quantity must be greater than zero'],
    ['quantity too big', 'POST', '/odoo/orders/create', order({}, [line({ product_uom_qty: 1_000_001 })]), 400, 'lines.0.product_uom_qty: The quantity must be at most 1000000'],
    ['price -1e9', 'POST', '/odoo/orders/create', order({}, [line({ price_unit: -1e9 })]), 400, 'lines.0.price_unit: price_unit must be at least 0'],
    ['price 1e-9', 'POST', '/odoo/orders/create', order({}, [line({ price_unit: 1e-9 })]), 400, 'lines.0.price_unit: price_unit must be 0 or at least 0.01'],
    ['price too big', 'POST', '/odoo/orders/create', order({}, [line({ price_unit: 1e9 + 1 })]), 400, 'lines.0.price_unit: price_unit must be at most 1000000000'],
    ['a discount (not offered)', 'POST', '/odoo/orders/create', order({}, [line({ discount: 150 })]), 400, 'lines.0: unknown field: discount'],
    ['201 lines', 'POST', '/odoo/orders/create', order({}, Array.from({ length: 201 }, () => line())), 400, 'lines: An order has at most 200 lines'],
    ['no lines', 'POST', '/odoo/orders/create', order({}, []), 400, 'lines: An order needs at least one line'],
    ['six taxes', 'POST', '/odoo/orders/create', order({}, [line({ tax_id: [1, 2, 3, 4, 5, 6] })]), 400, 'lines.0.tax_id: A line has at most 5 taxes'],
    ['customer id -1', 'POST', '/odoo/orders/create', order({ partner_id: -1 }), 400, 'order.partner_id: is not a valid id'],
    ['customer missing', 'POST', '/odoo/orders/create', order({ partner_id: undefined }), 400, 'order.partner_id: The customer is required'],
    ['price list as text', 'POST', '/odoo/orders/create', order({ pricelist_id: 'Tarifa' }), 400, 'order.pricelist_id: must be a number, not text'],
    ['reference too long', 'POST', '/odoo/orders/create', order({ client_order_ref: x(201) }), 400, 'order.client_order_ref: must be at most 200 characters'],
    ['note too long', 'POST', '/odoo/orders/create', order({ note: x(10_001) }), 400, 'order.note: must be at most 10000 characters'],
    ['line text too long', 'POST', '/odoo/orders/create', order({}, [line({ name: x(2001) })]), 400, 'lines.0.name: must be at most 2000 characters'],
    ['date older than two years (spec)', 'POST', '/odoo/orders/create', order({ date_order: day(3) }), 400, 'Incorrect quotation date, please check the date entered'],
    ['unknown field of the order', 'POST', '/odoo/orders/create', order({ discount: 10 }), 400, 'order: unknown field: discount'],
  ],
  'order lines, search, printing': [
    ['quantity 1e-9', 'PUT', '/odoo/orders/:draftOrder/lines', { lines: [{ id: ':line', product_uom_qty: 1e-9 }] }, 400, 'lines.0.product_uom_qty: The quantity must be at least 0.01'],
    ['negative price', 'PUT', '/odoo/orders/:draftOrder/lines', { lines: [{ id: ':line', price_unit: -1 }] }, 400, 'lines.0.price_unit: price_unit must be at least 0'],
    ['no lines', 'PUT', '/odoo/orders/:draftOrder/lines', { lines: [] }, 400, 'lines: No lines to change'],
    ['line id 0', 'PUT', '/odoo/orders/:draftOrder/lines', { lines: [{ id: 0, price_unit: 1 }] }, 400, 'lines.0.id: is not a valid id'],
    ['unknown state', 'POST', '/odoo/orders/search', { state: ['won'] }, 400, 'state.0: must be one of: draft, sent, sale, cancel, all'],
    ['customer of the wrong type', 'POST', '/odoo/orders/search', { partner: {} }, 400, 'partner: must be text or a number, not an object'],
    ['unknown language', 'GET', '/odoo/orders/:draftOrder/print-url?lang=fr', undefined, 400, "lang must be 'en' or 'es'"],
    ['language given twice', 'GET', '/odoo/orders/:draftOrder/print-url?lang=en&lang=es', undefined, 400, "lang must be 'en' or 'es'"],
  ],
  contacts: [
    ['not an e-mail', 'POST', '/odoo/contacts/create', contact({ email: 'lucia(at)ferrer' }), 400, 'fields.email: must be an e-mail address'],
    ['e-mail too long', 'POST', '/odoo/contacts/create', contact({ email: `${x(320)}@a.es` }), 400, 'fields.email: must be at most 320 characters'],
    ['name too long', 'POST', '/odoo/contacts/create', contact({ name: x(201) }), 400, 'fields.name: must be at most 200 characters'],
    ['name empty', 'POST', '/odoo/contacts/create', contact({ name: '   ' }), 400, 'fields.name: The name is required'],
    ['phone too long', 'POST', '/odoo/contacts/create', contact({ phone: x(51) }), 400, 'fields.phone: must be at most 50 characters'],
    ['website too long', 'POST', '/odoo/contacts/create', contact({ website: `https://${x(500)}` }), 400, 'fields.website: must be at most 500 characters'],
    ['company name too long', 'POST', '/odoo/contacts/create', contact({ company_name: x(201) }), 400, 'fields.company_name: must be at most 200 characters'],
    ['notes too long', 'POST', '/odoo/contacts/create', contact({ notes: x(10_001) }), 400, 'fields.notes: must be at most 10000 characters'],
    ['category id 0', 'POST', '/odoo/contacts/create', contact({ category_id: [0] }), 400, 'fields.category_id.0: is not a valid id'],
    ['51 categories', 'POST', '/odoo/contacts/create', contact({ category_id: Array.from({ length: 51 }, (_, index) => index + 1) }), 400, 'fields.category_id: must have at most 50 items'],
    ['two investor types', 'POST', '/odoo/contacts/create', contact({ x_studio_tipo_inversor: [1, 2] }), 400, 'fields.x_studio_tipo_inversor: Only one investor type'],
    ['unknown field', 'POST', '/odoo/contacts/create', contact({ mobile: '600 000 000' }), 400, 'fields: unknown field: mobile'],
    ['lone surrogate', 'POST', '/odoo/contacts/create', '{"fields":{"name":"Ana \\ud800"}}', 400, 'fields.name: must be well-formed Unicode'],
    ['page size too big', 'POST', '/odoo/contacts/search', { numberOfRecords: 1001 }, 400, 'numberOfRecords: numberOfRecords must be between 1 and 1000'],
    ['company of the wrong type', 'POST', '/odoo/contacts/search', { companyOwner: true }, 400, 'companyOwner: must be text or a number, not true or false'],
  ],
  users: [
    ['company id past 2^31-1', 'POST', '/users/search', { company: 2_147_483_648 }, 400, 'company: is not a valid id'],
    ['page size too big', 'POST', '/users/search', { numberOfRecords: 1001 }, 400, 'numberOfRecords: must be at most 1000'],
    ['name too long', 'POST', '/users/search', { name: x(201) }, 400, 'name: must be at most 200 characters'],
    ['first name too long', 'PUT', '/users/:staff', { firstName: x(101), lastName: 'Staff' }, 400, 'firstName: must be at most 100 characters'],
    ['company id 0', 'PUT', '/users/:staff', { firstName: 'Sergio', lastName: 'Staff', companies: [0] }, 400, 'companies.0: is not a valid id'],
    ['101 companies', 'PUT', '/users/:staff', { firstName: 'Sergio', lastName: 'Staff', companies: Array.from({ length: 101 }, () => 1) }, 400, 'companies: must have at most 100 items'],
    ['e-mail too long', 'PUT', '/users/:staff', { firstName: 'Sergio', lastName: 'Staff', email: x(321) }, 400, 'email: must be at most 320 characters'],
    ['unknown field', 'PUT', '/users/:staff', { firstName: 'Sergio', lastName: 'Staff', role: 'admin' }, 400, 'unknown field: role'],
    ['not an e-mail', 'POST', '/users/invite', { email: 'someone' }, 400, 'email: The email is not valid'],
    ['unknown permission', 'POST', '/users/invite', { email: 'new@demo.example', permissions: ['everything'] }, 400, 'permissions.0: Unknown permission'],
    ['unknown language', 'POST', '/users/invite', { email: 'new@demo.example', lang: 'fr' }, 400, 'lang: must be one of: es, en'],
    ['user id 0', 'POST', '/users/change-permission', { userId: 0, permission: 'moves.list', value: true }, 400, 'userId: is not a valid id'],
    ['unknown permission', 'POST', '/users/change-permission', { userId: ':staff', permission: 'root', value: true }, 400, 'permission: Unknown permission'],
    ['value as text', 'POST', '/users/change-permission', { userId: ':staff', permission: 'moves.list', value: 'yes' }, 400, 'value: value must be true or false'],
  ],
  'declared resources (employees, projects, journals)': [
    ['search text too long', 'POST', '/odoo/employees/search', { q: x(201) }, 400, 'q: must be at most 200 characters'],
    ['1001 ids', 'POST', '/odoo/employees/search', { ids: Array.from({ length: 1001 }, (_, index) => index + 1) }, 400, 'ids: must have at most 1000 items'],
    ['company id 0', 'POST', '/odoo/employees/search', { company_id: [0] }, 400, 'company_id.0: is not a valid id'],
    ['unknown filter', 'POST', '/odoo/employees/search', { salary: 1 }, 400, 'unknown field: salary'],
    ['name too long', 'PUT', '/odoo/employees/:employee', { name: x(201) }, 400, 'name: must be at most 200 characters'],
    ['name empty', 'PUT', '/odoo/employees/:employee', { name: ' ' }, 400, 'name: name is required'],
    ['not an e-mail', 'PUT', '/odoo/employees/:employee', { work_email: 'ana' }, 400, 'work_email: work_email must be an e-mail address'],
    ['account code too long', 'PUT', '/odoo/projects/:project', { x_facturas_account: x(65) }, 400, 'x_facturas_account: must be at most 64 characters'],
    ['journal id past 2^31-1', 'PUT', '/odoo/projects/:project', { x_gastos_journal_id: 2_147_483_648 }, 400, 'x_gastos_journal_id: is not a valid id'],
    ['journal as text', 'PUT', '/odoo/projects/:project', { x_facturas_journal_id: 'Compras' }, 400, 'x_facturas_journal_id: must be a number, not text'],
    ['unknown field', 'PUT', '/odoo/projects/:project', { active: false }, 400, 'unknown field: active'],
    ['name of the wrong type', 'POST', '/odoo/journals/search', { name: 5 }, 400, 'name: must be text, not a number'],
  ],
  'reference lists and the report': [
    ['company id as words', 'POST', '/odoo/providers/search', { companyId: 'abc' }, 400, 'companyId: is not a valid id'],
    ['company id too big', 'POST', '/odoo/providers/search', { companyId: 1e20 }, 400, 'companyId: is not a valid id'],
    ['name too long', 'POST', '/odoo/providers/search', { companyId: 1, name: x(201) }, 400, 'name: must be at most 200 characters'],
    ['not a tax id', 'POST', '/odoo/providers/search', { companyId: 1, vat: '12' }, 400, 'vat: not a tax id'],
    ['no body', 'POST', '/odoo/providers/search', undefined, 400, 'body: is required'],
    ['company header as words', 'GET', '/odoo/providers', undefined, 400, 'x-company-id: is not a valid id', { 'x-company-id': 'abc' }],
    ['company header missing', 'GET', '/odoo/providers', undefined, 400, 'x-company-id: is required'],
    ['company id 0 in the path', 'GET', '/odoo/partner/0', undefined, 400, 'companyId: is not a valid id'],
    ['no company', 'POST', '/odoo/reports/payment', { dateFrom: '2026-01-01', dateTo: '2026-01-31', companies: [] }, 400, 'companies: Choose at least one company'],
    ['month 13', 'POST', '/odoo/reports/payment', { dateFrom: '2026-13-01', dateTo: '2026-01-31', companies: [1] }, 400, 'dateFrom: must be a date YYYY-MM-DD'],
    ['empty sign-in token', 'POST', '/auth/confirm', { token: '' }, 400, 'token: must not be empty'],
  ],
};

/** A probe's path or body with the seeded records' ids in place of their :placeholders. */
function filled<T>(value: T): T {
  if (typeof value === 'string') return value.replace(/:([a-zA-Z]+)/g, (whole, name: string) => (name in fixtures ? String(fixtures[name]) : whole)) as T;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, typeof item === 'string' && /^:[a-zA-Z]+$/.test(item) ? fixtures[item.slice(1)] : filled(item)])) as T;
  }
  return Array.isArray(value) ? (value.map(filled) as T) : value;
}

async function send(method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${admin.server.url}${path}`, {
    method,
    headers: { authorization: token, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, message: (JSON.parse(text) as { message?: string }).message };
}

describe('bad input: a 4xx naming the field and the rule, and nothing stored', () => {
  for (const [family, probes] of Object.entries(PROBES)) {
    describe(family, () => {
      it.each(probes)('%s: %s %s', async (_rule, method, path, body, status, message, headers) => {
        const mark = await log.mark();
        const answer = await send(method, filled(path), typeof body === 'string' ? body : filled(body), headers);
        expect(answer).toEqual({ status, message: typeof message === 'string' ? message : expect.stringMatching(message) });
        expect(await log.since(mark)).toEqual({ written: [], filesChanged: false });
      });
    });
  }
});
