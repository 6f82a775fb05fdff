/**
 * Issue 54, item 1, at the routes: a search body of a million items or 10 MB of text is refused before it is read
 * whole (413, the searches' own limit named); within that limit, a list longer than its field allows or a text longer
 * than its maximum is refused with 400 naming the field and its maximum, before its items are read. The server answers
 * another user meanwhile. Messages here in English, the API's language without Accept-Language. (How long each takes
 * is measured by bench/big-bodies.ts: a test asserts no timings.)
 */
import { describe, expect, it } from 'vitest';
import { seededServerAs } from './helpers';

const admin = seededServerAs('admin@demo.example');

const list = (length: number) => Array.from({ length }, (_, index) => index + 1);
const TOO_LARGE = 'The request is too large: a search takes at most 1 MB';

const CASES: Array<{ path: string; body: Record<string, unknown>; status: number; message: string }> = [
  { path: '/odoo/moves/search', body: { company: list(1_000_000) }, status: 413, message: TOO_LARGE },
  { path: '/odoo/moves/totals', body: { company: list(1_000_000) }, status: 413, message: TOO_LARGE },
  { path: '/odoo/contacts/search', body: { name: 'x'.repeat(10 * 1024 * 1024) }, status: 413, message: TOO_LARGE },
  { path: '/users/search', body: { q: 'x'.repeat(10 * 1024 * 1024) }, status: 413, message: TOO_LARGE },
  { path: '/odoo/moves/search', body: { company: list(100_000) }, status: 400, message: 'company: must have at most 100 items' },
  { path: '/odoo/moves/search', body: { state: list(100_000).map(String) }, status: 400, message: 'state: must have at most 100 items' },
  { path: '/odoo/orders/search', body: { state: list(100_000).map(String) }, status: 400, message: 'state: must have at most 5 items' },
  { path: '/odoo/employees/search', body: { ids: list(100_000) }, status: 400, message: 'ids: must have at most 1000 items' },
  { path: '/odoo/moves/search', body: { reference: 'x'.repeat(900_000) }, status: 400, message: 'reference: must be at most 200 characters' },
];

describe('a search body of many items or much text', () => {
  for (const { path, body, status, message } of CASES) {
    const [field, value] = Object.entries(body)[0] as [string, string | unknown[]];
    it(`${path} ${field} of ${Array.isArray(value) ? `${value.length} items` : `${value.length} characters`}: ${status}, another user served meanwhile`, async () => {
      const [refused, me] = await Promise.all([admin.send('POST', path, body), admin.send('GET', '/users/me')]);
      expect(refused).toMatchObject({ status, body: { message } });
      expect(me.status).toBe(200);
    });
  }
});
