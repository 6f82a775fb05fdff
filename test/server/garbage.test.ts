import { describe, expect, it } from 'vitest';
import { seededServerAs } from './helpers';

/** Issue 15, items 7 and 10: what used to be accepted as garbage, or turned a decision over, now answers 4xx. */
const admin = seededServerAs('admin@demo.example');

async function send(method: string, path: string, body: unknown) {
  const { status, body: answer } = await admin.send(method, path, body);
  return { status, message: answer.message };
}

const today = () => new Date().toISOString().slice(0, 10);
const dataUrl = (text: string) => `data:application/pdf;base64,${Buffer.from(text).toString('base64')}`;
const invoice = (extra: Record<string, unknown>) => ({ type: 'invoice', company_id: 1, date: today(), amount: 10, concept: 'Garbage check', file: { name: 'a.pdf', data: dataUrl('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n') }, ...extra });

describe('garbage refused', () => {
  it('a lone surrogate is not turned into U+FFFD silently', async () => {
    expect(await send('POST', '/odoo/contacts/create', '{"fields":{"name":"Ana \\ud800 Ruiz"}}')).toEqual({ status: 400, message: 'fields.name: must be well-formed Unicode' });
    // A whole pair is a character like any other.
    expect((await send('POST', '/odoo/contacts/search', '{"name":"\\ud83d\\ude00"}')).status).toBe(200);
  });

  it('dates outside 1900-2199 are no dates', async () => {
    expect(await send('POST', '/odoo/moves/search', { dateFrom: '9999-12-31' })).toMatchObject({ status: 400, message: expect.stringMatching(/^dateFrom: /) });
    expect((await send('POST', '/odoo/moves/search', { dateFrom: '2026-01-01' })).status).toBe(200);
  });

  it('an amount that rounds to 0,00 is not greater than zero', async () => {
    expect(await send('POST', '/odoo/moves/create', invoice({ amount: 0.001 }))).toEqual({ status: 400, message: 'amount: amount must be at least 0.01' });
    expect((await send('POST', '/odoo/moves/create', invoice({ amount: 0.01 }))).status).toBe(201);
  });

  it('a web page that starts like a PDF is not stored as one; a PDF is', async () => {
    const html = dataUrl('%PDF-1.4\n<html><body><script>alert(1)</script></body></html>\n');
    expect(await send('POST', '/odoo/moves/create', invoice({ file: { name: 'x.pdf', data: html } }))).toEqual({ status: 400, message: 'Failed to load file. Unsupported file format or file corrupted.' });
    expect((await send('POST', '/odoo/moves/create', invoice({ file: { name: 'x.pdf', data: dataUrl('%PDF-1.4\nno end marker') } }))).status).toBe(400);
  });

  it("a manager's decision on a posted move is not turned over", async () => {
    const move = ((await admin.send('POST', '/odoo/moves/search', { state: ['posted'], validated: true })).body.moves as Array<{ id: number; name: string }>)[0];
    expect(move).toBeDefined();
    expect(await send('PUT', `/odoo/moves/${move.id}/validate`, { validate: false })).toEqual({ status: 409, message: 'The decision on a posted move cannot be changed' });
    const after = await admin.send('POST', '/odoo/moves/search', { number: move.name });
    expect((after.body.moves as Array<Record<string, unknown>>)[0].pnt_account_move_team_manager_validate).toBe(true);
  });
});
