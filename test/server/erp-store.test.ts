import { beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_REGISTRY } from '../../server/erp/product-models';
import { PRODUCT_INDEXES } from '../../server/erp/embedded/indexes';
import { schemaStatements } from '../../server/erp/embedded/schema';
import type { EmbeddedStore } from '../../server/erp/embedded/store';
import { memoryErp } from '../support/memory-erp';
import { ErpError } from '../../server/erp/types';
import { answered } from '../support/answered';

let store: EmbeddedStore;

beforeAll(async () => {
  let db;
  ({ db, store } = await memoryErp());
  // Running the DDL again changes nothing (start-up on an existing database).
  for (const statement of schemaStatements(PRODUCT_REGISTRY, PRODUCT_INDEXES)) await db.exec(statement);
});

describe('embedded store: Odoo ORM verbs', () => {
  it('creates and reads with Odoo value conventions', async () => {
    const eur = await store.create('res.currency', { name: 'EUR', symbol: '€' });
    const company = await store.create('res.company', { name: 'Acme Iberia SL', currency_id: eur });
    const vip = await store.create('res.partner.category', { name: 'VIP' });
    const partner = await store.create('res.partner', {
      name: 'Papelería Sol',
      email: 'sol@example.com',
      company_id: company,
      category_id: [[6, 0, [vip]]],
    });
    const [read] = await store.read('res.partner', [partner], ['name', 'email', 'phone', 'company_id', 'category_id', 'is_company', 'supplier_rank']);
    expect(read).toEqual({
      id: partner,
      name: 'Papelería Sol',
      email: 'sol@example.com',
      phone: false,
      company_id: [company, 'Acme Iberia SL'],
      category_id: [vip],
      is_company: false,
      supplier_rank: 0,
    });
  });

  it('searches with domains, order, limit and offset, and counts', async () => {
    const company = (await store.nameSearch('res.company', 'Acme'))[0][0];
    for (const name of ['Alfa', 'Beta', 'Gamma', 'Delta']) await store.create('res.partner', { name, company_id: company, supplier_rank: 1 });
    const rows = await store.searchRead('res.partner', [['supplier_rank', '>', 0], ['company_id.name', 'ilike', 'acme']], {
      fields: ['name'],
      order: 'name desc',
      limit: 2,
      offset: 1,
    });
    expect(rows.map((row) => row.name)).toEqual(['Delta', 'Beta']);
    expect(await store.searchCount('res.partner', [['supplier_rank', '>', 0]])).toBe(4);
    expect(await store.nameSearch('res.partner', 'amm')).toEqual([[expect.any(Number), 'Gamma']]);
  });

  it('writes one2many lines with command tuples, dates as YYYY-MM-DD', async () => {
    const company = (await store.nameSearch('res.company', 'Acme'))[0][0];
    const move = await store.create('account.move', {
      move_type: 'in_invoice',
      state: 'draft',
      company_id: company,
      date: '2026-11-02',
      invoice_line_ids: [[0, 0, { name: 'Paper', quantity: 2, price_unit: 3.5 }], [0, 0, { name: 'Ink', quantity: 1, price_unit: 10 }]],
    });
    let [read] = await store.read('account.move', [move], ['date', 'invoice_date', 'invoice_line_ids', 'state']);
    expect(read.date).toBe('2026-11-02');
    expect(read.invoice_date).toBe(false);
    const [paper, ink] = read.invoice_line_ids as number[];
    await store.write('account.move', [move], { invoice_line_ids: [[1, paper, { quantity: 3 }], [2, ink]] });
    [read] = await store.read('account.move', [move], ['invoice_line_ids']);
    expect(read.invoice_line_ids).toEqual([paper]);
    const [line] = await store.read('account.move.line', [paper], ['quantity', 'move_id']);
    expect(line.quantity).toBe(3);
    expect((line.move_id as [number, string])[0]).toBe(move);
    await store.unlink('account.move', [move]);
    expect(await store.searchCount('account.move.line', [['id', '=', paper]])).toBe(0);
  });

  it('refuses bad values with a validation error and writes nothing', async () => {
    const before = await store.searchCount('res.partner', []);
    await expect(store.create('res.partner', { name: 'X', supplier_rank: 'many' })).rejects.toMatchObject({ kind: 'validation' });
    await expect(store.create('res.partner', { name: 'X', no_such_field: 1 })).rejects.toThrow(/Unknown field/);
    await expect(store.create('res.partner', { email: 'nobody' })).rejects.toThrow(/required/);
    await expect(store.create('account.move', { company_id: 1, date: '2026-13-45' })).rejects.toThrow(/date/);
    // A failing line rolls back the whole record.
    await expect(
      store.create('res.partner', { name: 'Half', category_id: [[6, 0, [999999]]] }),
    ).rejects.toBeInstanceOf(ErpError);
    expect(await store.searchCount('res.partner', [])).toBe(before);
  });

  it('answers unknown records and private methods like Odoo', async () => {
    await expect(store.read('res.partner', [987654], ['name']).catch(answered)).resolves.toMatchObject({ kind: 'missing', statusCode: 404 });
    await expect(store.call('res.partner', '_secret', [1])).rejects.toMatchObject({ kind: 'access' });
    await expect(store.call('res.partner', 'no_method', [1])).rejects.toMatchObject({ kind: 'validation' });
  });
});
