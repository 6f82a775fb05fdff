import { beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_BEHAVIOUR } from '../../server/erp/embedded/behaviour';
import type { EmbeddedStore } from '../../server/erp/embedded/store';
import { memoryErp } from '../support/memory-erp';

let store: EmbeddedStore;
let company: number;
let partner: number;
let iva21: number;
let iva10: number;

beforeAll(async () => {
  ({ store } = await memoryErp(PRODUCT_BEHAVIOUR));
  company = await store.create('res.company', { name: 'Acme' });
  partner = await store.create('res.partner', { name: 'Cliente Uno', company_id: company });
  iva21 = await store.create('account.tax', { name: 'IVA 21% (Servicios)', amount: 21, type_tax_use: 'sale', company_id: company });
  iva10 = await store.create('account.tax', { name: 'IVA 10%', amount: 10, type_tax_use: 'sale', company_id: company });
});

describe('sale.order as Odoo computes it', () => {
  it('numbers the order, computes line subtotals, taxes per line, totals and margin', async () => {
    const order = await store.create('sale.order', {
      partner_id: partner,
      company_id: company,
      order_line: [
        [0, 0, { name: 'Consultoría', product_uom_qty: 3, price_unit: 33.335, purchase_price: 20, tax_id: [[6, 0, [iva21]]] }],
        [0, 0, { name: 'Libro', product_uom_qty: 1, price_unit: 10.05, tax_id: [[6, 0, [iva10]]] }],
      ],
    });
    const [read] = await store.read('sale.order', [order], ['name', 'state', 'amount_untaxed', 'amount_tax', 'amount_total', 'margin', 'margin_percent', 'order_line']);
    expect(read.name).toMatch(/^S\d{5}$/);
    expect(read.state).toBe('draft');
    // 3 x 33.335 = 100.005 -> 100.01; tax 21.0021 -> 21.00; 10.05 with 10% -> 1.005 -> 1.01 (half up).
    expect(read.amount_untaxed).toBe(110.06);
    expect(read.amount_tax).toBe(22.01);
    expect(read.amount_total).toBe(132.07);
    // margin: (100.01 - 60) + (10.05 - 0) = 50.06
    expect(read.margin).toBe(50.06);
    expect(read.margin_percent).toBeCloseTo(50.06 / 110.06, 10);

    const [first] = read.order_line as number[];
    await store.write('sale.order', [order], { order_line: [[1, first, { product_uom_qty: 1 }]] });
    const [after] = await store.read('sale.order', [order], ['amount_untaxed', 'amount_total']);
    expect(after.amount_untaxed).toBe(43.39);
    expect(after.amount_total).toBe(43.39 + 7.0 + 1.01);
  });

  it('confirms once, refuses to confirm again, and cannot be deleted once confirmed', async () => {
    const order = await store.create('sale.order', { partner_id: partner, company_id: company });
    await store.call('sale.order', 'action_confirm', [order]);
    expect((await store.read('sale.order', [order], ['state']))[0].state).toBe('sale');
    await expect(store.call('sale.order', 'action_confirm', [order])).rejects.toMatchObject({ kind: 'user' });
    await expect(store.unlink('sale.order', [order])).rejects.toThrow(
      'You can not delete a sent quotation or a confirmed sales order. You must first cancel it.',
    );
    await store.call('sale.order', 'action_cancel', [order]);
    await store.unlink('sale.order', [order]);
    expect(await store.searchCount('sale.order', [['id', '=', order]])).toBe(0);
  });

  it('posts chatter messages, escaping a plain body and keeping an HTML one', async () => {
    const order = await store.create('sale.order', { partner_id: partner, company_id: company });
    await store.call('sale.order', 'message_post', [order], [], { body: '<script>alert(1)</script>' });
    await store.call('sale.order', 'message_post', [order], [], { body: '<p>Hola</p>', body_is_html: true });
    const messages = await store.searchRead('mail.message', [['model', '=', 'sale.order'], ['res_id', '=', order]], { fields: ['body'], order: 'id' });
    expect(messages.map((message) => message.body)).toEqual(['&lt;script&gt;alert(1)&lt;/script&gt;', '<p>Hola</p>']);
  });
});

describe('account.move as Odoo computes it', () => {
  it('signs supplier bill amounts, numbers on posting and refuses to delete a posted move', async () => {
    const expenses = await store.create('account.account', { code: '600000', name: 'Compras', company_id: company });
    const journal = await store.create('account.journal', { name: 'Facturas de proveedores', code: 'FACTU', type: 'purchase', company_id: company, default_account_id: expenses });
    const move = await store.create('account.move', {
      move_type: 'in_invoice',
      company_id: company,
      journal_id: journal,
      partner_id: partner,
      date: '2026-11-20',
      invoice_line_ids: [[0, 0, { name: 'Servicio', quantity: 1, price_unit: 100, tax_ids: [[6, 0, [iva21]]] }]],
    });
    let [read] = await store.read('account.move', [move], ['name', 'state', 'amount_untaxed', 'amount_total', 'amount_total_signed', 'amount_untaxed_signed', 'amount_residual']);
    expect(read).toMatchObject({ name: '/', state: 'draft', amount_untaxed: 100, amount_total: 121, amount_total_signed: -121, amount_untaxed_signed: -100, amount_residual: 121 });
    await store.call('account.move', 'action_post', [move]);
    [read] = await store.read('account.move', [move], ['name', 'state']);
    expect(read).toEqual({ id: move, name: 'FACTU/2026/0001', state: 'posted' });
    await expect(store.unlink('account.move', [move])).rejects.toThrow('You cannot delete an entry which has been posted once.');
    await expect(store.call('account.move', 'action_post', [move])).rejects.toMatchObject({ kind: 'user' });
    // The line took the journal's default account, as Odoo's does when none is given.
    const [line] = await store.searchRead('account.move.line', [['move_id', '=', move]], { fields: ['account_id', 'display_type'] });
    expect(line).toMatchObject({ account_id: [expenses, '600000 Compras'], display_type: 'product' });
  });

  it('refuses a move whose line has no account and whose journal has no default one, as Odoo does', async () => {
    const bare = await store.create('account.journal', { name: 'Sin cuenta', code: 'BARE', type: 'purchase', company_id: company });
    const before = await store.searchCount('account.move', []);
    await expect(
      store.create('account.move', { move_type: 'in_invoice', company_id: company, journal_id: bare, invoice_line_ids: [[0, 0, { name: 'x', quantity: 1, price_unit: 10 }]] }),
    ).rejects.toMatchObject({ kind: 'user', message: 'Missing required account on accountable line.' });
    expect(await store.searchCount('account.move', [])).toBe(before);
  });

  it('lists attachments of a move', async () => {
    const move = await store.create('account.move', { company_id: company, move_type: 'in_receipt' });
    const attachment = await store.create('ir.attachment', { name: 'ticket.pdf', datas: Buffer.from('%PDF-1.4').toString('base64'), res_model: 'account.move', res_id: move, mimetype: 'application/pdf' });
    const [read] = await store.read('account.move', [move], ['attachment_ids']);
    expect(read.attachment_ids).toEqual([attachment]);
    const [file] = await store.read('ir.attachment', [attachment], ['datas']);
    expect(Buffer.from(String(file.datas), 'base64').toString()).toBe('%PDF-1.4');
  });
});

describe('demo seed', () => {
  it('fills a fresh store deterministically with the spec defaults', async () => {
    const { seedErp } = await import('../../server/erp/embedded/seed');
    const { store: seeded } = await memoryErp(PRODUCT_BEHAVIOUR);
    const summary = await seedErp(seeded, new Date('2026-11-22T10:00:00Z'));
    expect(summary).toEqual({ companies: [1, 2, 3], moves: 42, orders: 18 });
    expect((await seeded.read('product.pricelist', [1], ['name']))[0].name).toBe('Tarifa pública (EUR)');
    expect((await seeded.read('account.payment.term', [4], ['name']))[0].name).toBe('30 días');
    expect(await seeded.searchCount('account.tax', [['name', '=', 'IVA 21% (Servicios)']])).toBe(3);
    expect(await seeded.searchCount('account.payment.mode', [['name', '=', '[C] Transferencia']])).toBe(3);
    for (const state of ['draft', 'posted', 'cancel']) expect(await seeded.searchCount('account.move', [['state', '=', state]])).toBeGreaterThan(0);
    for (const state of ['draft', 'sent', 'sale', 'cancel']) expect(await seeded.searchCount('sale.order', [['state', '=', state]])).toBeGreaterThan(0);
    expect(await seeded.searchCount('hr.employee', [['work_email', '=', 'nobody@demo.example']])).toBe(0);
    const [first] = await seeded.searchRead('account.move', [['company_id', '=', 1]], { fields: ['name', 'amount_total', 'date'], order: 'id', limit: 1 });
    expect(first).toMatchObject({ name: '/', date: '2026-11-16' });
  }, 60_000);
});
