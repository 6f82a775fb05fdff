import { describe, expect, it } from 'vitest';
import { seededServerAs } from './helpers';

/**
 * Issue 15, item 6: ids past PostgreSQL's integer and NUL characters used to answer 500 (the database refused them);
 * now each is a 400 naming the field, and nothing is stored.
 */
const admin = seededServerAs('admin@demo.example');
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field, as a client does.
const call = (method: string, path: string, body: unknown) => admin.send(method, path, body) as Promise<{ status: number; body: any }>;

const TOO_BIG = 2_147_483_648;
const PDF = `data:application/pdf;base64,${Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64')}`;

describe('ids past the largest record id', () => {
  it.each([
    ['POST', '/odoo/moves/search', { partner: TOO_BIG }, 'partner'],
    ['POST', '/odoo/moves/search', { company: [TOO_BIG] }, 'company.0'],
    ['POST', '/odoo/orders/search', { partner: TOO_BIG }, 'partner'],
    ['POST', '/odoo/contacts/search', { companyOwner: TOO_BIG }, 'companyOwner'],
    ['POST', '/odoo/moves/create', { type: 'invoice', company_id: TOO_BIG, date: '2026-11-20', amount: 10, file: { name: 'a.pdf', data: PDF } }, 'company_id'],
    ['POST', '/odoo/orders/create', { order: { company_id: 1, partner_id: TOO_BIG, date_order: '2026-11-20' }, lines: [] }, 'order.partner_id'],
    ['POST', '/odoo/reports/payment', { dateFrom: '2026-01-01', dateTo: '2026-11-20', companies: [TOO_BIG] }, 'companies.0'],
  ])('%s %s with %j answers 400 naming the field', async (method, path, body, field) => {
    const answer = await call(method, path, body);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(new RegExp(`^${field.replace('.', '\\.')}`));
  });
});

describe('NUL characters', () => {
  it('are refused in any text of a body, naming where, and nothing is stored', async () => {
    const before = await call('POST', '/odoo/contacts/search', { name: 'Nul' });
    const contact = await call('POST', '/odoo/contacts/create', { fields: { name: 'Nul\u0000Contact' } });
    expect(contact).toEqual({ status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'fields.name: must not contain NUL characters', code: 'validation.nul', field: 'fields.name' } });
    expect((await call('POST', '/odoo/contacts/search', { name: 'Nul' })).body.total).toBe(before.body.total);

    const moves = await call('POST', '/odoo/moves/search', { state: ['draft'] });
    const draft = moves.body.moves[0];
    const concept = await call('PUT', `/odoo/moves/${draft.id}`, { concept: 'a\u0000b' });
    expect(concept.status).toBe(400);
    expect(concept.body.message).toBe('concept: must not contain NUL characters');
    const comment = await call('POST', `/odoo/moves/${draft.id}/validation-comment`, { comment: 'x\u0000' });
    expect(comment.body.message).toBe('comment: must not contain NUL characters');
    expect((await call('POST', '/odoo/moves/search', { state: ['draft'] })).body.moves[0]).toEqual(draft);
    const key = await call('POST', '/odoo/moves/search', { ['a\u0000']: 1 });
    expect(key.body.message).toBe('a\\0: must not contain NUL characters');
  });
});
