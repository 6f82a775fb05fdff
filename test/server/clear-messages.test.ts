import { describe, expect, it } from 'vitest';
import { seededServerAs } from './helpers';

/**
 * Issue 15, item 8: a refused body says what is wrong with it, naming the field and the rule, not a message meant for
 * another case ("must be a number" for a number too big, "is required" for a name too long, "not valid JSON" for valid
 * JSON with a forbidden key).
 */
const admin = seededServerAs('admin@demo.example');

async function send(method: string, path: string, body: unknown) {
  const { status, body: answer } = await admin.send(method, path, body);
  return { status, message: answer.message };
}

const PDF = `data:application/pdf;base64,${Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64')}`;
const order = (extra: Record<string, unknown> = {}, lines: unknown = [{ product_id: 1, product_uom_qty: 1, price_unit: 1 }]) => ({
  order: { company_id: 1, partner_id: 1, date_order: new Date().toISOString().slice(0, 10), ...extra },
  lines,
});

describe('messages that name the field and the rule', () => {
  it('tells a forbidden key from invalid JSON', async () => {
    expect(await send('POST', '/odoo/moves/search', '{"__proto__":{"x":1}}')).toEqual({ status: 400, message: 'Body must not contain "__proto__" or "constructor.prototype" keys' });
    expect(await send('POST', '/odoo/moves/search', '{"constructor":{"prototype":{"x":1}}}')).toEqual({ status: 400, message: 'Body must not contain "__proto__" or "constructor.prototype" keys' });
    expect((await send('POST', '/odoo/moves/search', '{"a":')).message).toMatch(/^Body is not valid JSON/);
  });

  it('says a number is too big, not that it is no number', async () => {
    const answer = await send('POST', '/odoo/moves/create', { type: 'invoice', company_id: 1, date: new Date().toISOString().slice(0, 10), amount: 1e10, file: { name: 'a.pdf', data: PDF } });
    expect(answer).toEqual({ status: 400, message: 'amount: amount must be at most 1000000000' });
    expect((await send('POST', '/odoo/moves/create', { type: 'invoice', company_id: 1, date: '2026-11-20', amount: 'ten', file: { name: 'a.pdf', data: PDF } })).message).toBe('amount: amount must be a number');
  });

  it('says a name is too long, not that it is missing', async () => {
    const [user] = await admin.server.app.services.db.query<{ id: number }>("SELECT id FROM users WHERE email = 'staff@demo.example'");
    const long = await send('PUT', `/users/${user.id}`, { firstName: 'x'.repeat(1_000_000), lastName: 'Staff' });
    expect(long.status).toBe(400);
    expect(long.message).toMatch(/^firstName: /);
    expect(long.message).not.toMatch(/required/);
    expect((await send('PUT', `/users/${user.id}`, { lastName: 'Staff' })).message).toBe('firstName: The first name is required');
  });

  it('says an order has too many lines, and a customer id is not valid, not that they are missing', async () => {
    const many = Array.from({ length: 201 }, () => ({ product_id: 1, product_uom_qty: 1, price_unit: 1 }));
    expect(await send('POST', '/odoo/orders/create', order({}, many))).toEqual({ status: 400, message: 'lines: An order has at most 200 lines' });
    expect(await send('POST', '/odoo/orders/create', order({}, 'x'))).toEqual({ status: 400, message: 'lines: lines must be a list' });
    expect(await send('POST', '/odoo/orders/create', order({ partner_id: -1 }))).toEqual({ status: 400, message: 'order.partner_id: is not a valid id' });
    expect(await send('POST', '/odoo/orders/create', order({ partner_id: undefined }))).toEqual({ status: 400, message: 'order.partner_id: The customer is required' });
  });
});
