/**
 * What the embedded models do beyond storing values, the way Odoo does it: sequences, amounts, margins, state
 * rules and the public methods the product calls (action_post, action_confirm, action_cancel, action_draft,
 * message_post). It has no web server: orders are printed by this server (routes/order-pdf.ts).
 */
import { createHash } from 'node:crypto';
import { roundMoney } from '../../../shared/domain/money';
import { ErpError, type ErpValues } from '../types';
import type { HookContext, HooksByModel } from './store';
import { escapeHtml } from '../../html';

type Row = Record<string, unknown>;

async function rows(hook: HookContext, sql: string, params: unknown[]): Promise<Row[]> {
  return hook.tx.query<Row>(sql, params);
}

const idOf = (value: unknown): number | null => (Array.isArray(value) ? Number(value[0]) : typeof value === 'number' && value > 0 ? value : null);

/**
 * A new sale order's currency as Odoo 17 computes it (sale.order _compute_currency_id): its pricelist's, else its
 * company's. An order created without one showed its amounts with no currency (issue 51).
 */
async function orderCurrency(values: ErpValues, hook: HookContext): Promise<number | null> {
  const pricelist = idOf(values.pricelist_id);
  const [list] = pricelist ? await hook.env.read('product.pricelist', [pricelist], ['currency_id']) : [];
  const fromList = idOf(list?.currency_id);
  if (fromList) return fromList;
  const company = idOf(values.company_id);
  const [owner] = company ? await hook.env.read('res.company', [company], ['currency_id']) : [];
  return idOf(owner?.currency_id);
}

/** Sum of the percentages of the taxes of each line, from the link table. */
async function lineTaxRates(hook: HookContext, linkTable: string, lineColumn: string, taxColumn: string, lineIds: number[]) {
  const links = await rows(
    hook,
    `SELECT l."${lineColumn}" AS line, coalesce(sum(t.amount), 0) AS rate FROM "${linkTable}" l JOIN account_tax t ON t.id = l."${taxColumn}"
     WHERE l."${lineColumn}" = ANY($1::int[]) GROUP BY l."${lineColumn}"`,
    [lineIds],
  );
  return new Map(links.map((link) => [Number(link.line), Number(link.rate)]));
}

/** Each line's taxes (id and rate), for sale orders: Odoo computes and rounds every tax of a line on its own. */
async function lineTaxes(hook: HookContext, lineIds: number[]) {
  const links = await rows(
    hook,
    `SELECT l.sale_order_line_id AS line, t.id AS tax, coalesce(t.amount, 0) AS rate FROM account_tax_sale_order_line_rel l
     JOIN account_tax t ON t.id = l.account_tax_id WHERE l.sale_order_line_id = ANY($1::int[]) ORDER BY t.id`,
    [lineIds],
  );
  const byLine = new Map<number, Array<{ tax: number; rate: number }>>();
  for (const link of links) byLine.set(Number(link.line), [...(byLine.get(Number(link.line)) ?? []), { tax: Number(link.tax), rate: Number(link.rate) }]);
  return byLine;
}

async function nextSequence(hook: HookContext, key: string): Promise<number> {
  await hook.tx.query(`CREATE TABLE IF NOT EXISTS erp_sequence (key text PRIMARY KEY, value integer NOT NULL)`, []);
  const [row] = await rows(
    hook,
    `INSERT INTO erp_sequence (key, value) VALUES ($1, 1) ON CONFLICT (key) DO UPDATE SET value = erp_sequence.value + 1 RETURNING value`,
    [key],
  );
  return Number(row.value);
}

async function postMessage(model: string, ids: number[], kwargs: Record<string, unknown>, hook: HookContext): Promise<number> {
  const body = typeof kwargs.body === 'string' ? kwargs.body : '';
  // As Odoo's message_post: a message by a partner is sent from that partner's address ('"Name" <email>').
  if (typeof kwargs.author_id === 'number' && typeof kwargs.email_from !== 'string') {
    const [author] = await hook.env.read('res.partner', [kwargs.author_id], ['name', 'email']);
    if (author?.email) kwargs = { ...kwargs, email_from: `"${String(author.name).replace(/[\\"]/g, '\\$&')}" <${author.email}>` };
  }
  const html = kwargs.body_is_html === true ? body : escapeHtml(body).replace(/\n/g, '<br>');
  let last = 0;
  for (const id of ids) {
    last = await hook.env.create('mail.message', {
      model,
      res_id: id,
      body: html,
      message_type: (kwargs.message_type as string) ?? 'comment',
      date: new Date().toISOString().replace('T', ' ').slice(0, 19),
      ...(typeof kwargs.author_id === 'number' ? { author_id: kwargs.author_id } : {}),
      ...(typeof kwargs.email_from === 'string' ? { email_from: kwargs.email_from } : {}),
      ...(typeof kwargs.subject === 'string' ? { description: kwargs.subject } : {}),
    });
  }
  return last;
}

/** A note's author_id or email_from, as the connector's methods take them (`author`). */
function signature(author: unknown): ErpValues {
  if (!author || typeof author !== 'object') return {};
  const { author_id: authorId, email_from: emailFrom } = author as Record<string, unknown>;
  return { ...(typeof authorId === 'number' ? { author_id: authorId } : {}), ...(typeof emailFrom === 'string' ? { email_from: emailFrom } : {}) };
}

const BILL_TYPES = new Set(['in_invoice', 'in_receipt']);

function withChecksum(values: ErpValues): ErpValues {
  const { checksum: _given, ...rest } = values;
  if (!('datas' in values)) return rest;
  return { ...rest, checksum: typeof values.datas === 'string' && values.datas ? createHash('sha1').update(Buffer.from(values.datas, 'base64')).digest('hex') : false };
}

export const PRODUCT_BEHAVIOUR: HooksByModel = {
  'ir.attachment': {
    // As Odoo: the checksum is the SHA-1 of the bytes, computed on every store of them and never written by a client.
    beforeCreate: (values) => withChecksum(values),
    beforeWrite: (_ids, values) => withChecksum(values),
  },
  'account.move': {
    beforeCreate(values) {
      return { state: 'draft', move_type: 'entry', payment_state: 'not_paid', name: '/', ...values };
    },
    async beforeWrite(ids, values, hook) {
      if ('name' in values || 'move_type' in values || 'company_id' in values) {
        const posted = await hook.env.searchCount('account.move', [['id', 'in', ids], ['state', '=', 'posted']]);
        if (posted) throw new ErpError('user', 'You cannot modify a posted entry of this journal.');
      }
      return values;
    },
    async recompute(ids, hook) {
      // As Odoo: an accountable line without an account takes its journal's default account, or the move is refused.
      const unbooked = await rows(
        hook,
        `SELECT l.id, j.default_account_id FROM account_move_line l JOIN account_move m ON m.id = l.move_id LEFT JOIN account_journal j ON j.id = m.journal_id
         WHERE l.move_id = ANY($1::int[]) AND l.account_id IS NULL AND coalesce(l.display_type, 'product') = 'product'`,
        [ids],
      );
      for (const line of unbooked) {
        if (!line.default_account_id) throw new ErpError('user', 'Missing required account on accountable line.');
        await hook.tx.query(`UPDATE account_move_line SET account_id = $2, display_type = 'product' WHERE id = $1`, [line.id, line.default_account_id]);
      }
      const lines = await rows(hook, `SELECT id, move_id, quantity, price_unit FROM account_move_line WHERE move_id = ANY($1::int[])`, [ids]);
      const rates = await lineTaxRates(hook, 'account_move_line_account_tax_rel', 'account_move_line_id', 'account_tax_id', lines.map((l) => Number(l.id)));
      const totals = new Map<number, { untaxed: number; tax: number }>();
      for (const line of lines) {
        const subtotal = roundMoney(Number(line.quantity ?? 0) * Number(line.price_unit ?? 0));
        const exactTax = (subtotal * (rates.get(Number(line.id)) ?? 0)) / 100;
        const tax = roundMoney(exactTax);
        await hook.tx.query(`UPDATE account_move_line SET price_subtotal = $2, price_total = $3 WHERE id = $1`, [line.id, subtotal, roundMoney(subtotal + tax)]);
        const sum = totals.get(Number(line.move_id)) ?? { untaxed: 0, tax: 0 };
        totals.set(Number(line.move_id), { untaxed: sum.untaxed + subtotal, tax: sum.tax + tax });
      }
      const moves = await rows(hook, `SELECT id, move_type, payment_state FROM account_move WHERE id = ANY($1::int[])`, [ids]);
      for (const move of moves) {
        if (!lines.some((line) => line.move_id === move.id)) continue;
        const { untaxed, tax } = totals.get(Number(move.id))!;
        const total = roundMoney(untaxed + tax);
        const sign = BILL_TYPES.has(String(move.move_type)) ? -1 : 1;
        const residual = move.payment_state === 'paid' || move.payment_state === 'in_payment' ? 0 : total;
        await hook.tx.query(
          `UPDATE account_move SET amount_untaxed = $2, amount_tax = $3, amount_total = $4, amount_residual = $5,
             amount_untaxed_signed = $6, amount_total_signed = $7 WHERE id = $1`,
          [move.id, roundMoney(untaxed), roundMoney(tax), total, residual, sign * roundMoney(untaxed), sign * total],
        );
      }
    },
    async beforeUnlink(ids, hook) {
      const posted = await hook.env.searchCount('account.move', [['id', 'in', ids], ['state', '=', 'posted']]);
      if (posted) throw new ErpError('user', 'You cannot delete an entry which has been posted once.');
    },
    async computeRead(ids, _fields, hook) {
      const attachments = await rows(
        hook,
        `SELECT id, res_id FROM ir_attachment WHERE res_model = 'account.move' AND res_id = ANY($1::int[]) ORDER BY id`,
        [ids],
      );
      return new Map(ids.map((id) => [id, { attachment_ids: attachments.filter((a) => a.res_id === id).map((a) => a.id), x_backoffice_one_call: true, x_backoffice_journeys: true }]));
    },
    computeSql: {
      attachment_ids: (row) => `ARRAY(SELECT a.id FROM ir_attachment AS a WHERE a.res_model = 'account.move' AND a.res_id = ${row}.id ORDER BY a.id)`,
    },
    methods: {
      async action_post(ids, _args, _kwargs, hook) {
        const moves = await hook.env.read('account.move', ids, ['state', 'date', 'journal_id', 'name']);
        for (const move of moves) {
          if (move.state !== 'draft') throw new ErpError('user', 'Only draft journal entries can be posted.');
          const journal = move.journal_id ? (await hook.env.read('account.journal', [(move.journal_id as [number, string])[0]], ['code']))[0] : null;
          const code = (journal?.code as string) || 'MISC';
          const year = String(move.date || new Date().toISOString()).slice(0, 4);
          const number = await nextSequence(hook, `account.move/${code}/${year}`);
          const name = move.name && move.name !== '/' ? move.name : `${code}/${year}/${String(number).padStart(4, '0')}`;
          await hook.tx.query(`UPDATE account_move SET state = 'posted', name = $2 WHERE id = $1`, [move.id, name]);
        }
        return true;
      },
      async button_cancel(ids, _args, _kwargs, hook) {
        await hook.tx.query(`UPDATE account_move SET state = 'cancel' WHERE id = ANY($1::int[]) AND state = 'draft'`, [ids]);
        return true;
      },
      message_post: (ids, _args, kwargs, hook) => postMessage('account.move', ids, kwargs, hook),
      // The connector's one-call methods (odoo/backoffice_connector/models/account_move.py), with the same arguments
      // and answers; store.call runs each in one SQL transaction. The embedded store has no Odoo users behind its
      // partners, so `on_behalf_of` changes nothing here: notes are signed with `author` as before.
      async backoffice_create_bill(_ids, args, kwargs, hook) {
        const [vals, attachment, note, key, author] = ['vals', 'attachment', 'note', 'key', 'author'].map((name, index) => (kwargs[name] !== undefined ? kwargs[name] : args[index]));
        if (typeof key === 'string' && key) {
          const [found] = await hook.env.searchRead('account.move', [['x_backoffice_key', '=', key]], { fields: ['id'], limit: 1 });
          if (found) return found.id;
        }
        const id = await hook.env.create('account.move', { ...(vals as ErpValues), x_backoffice_key: typeof key === 'string' && key ? key : false });
        const file = await hook.env.create('ir.attachment', { ...(attachment as ErpValues), res_model: 'account.move', res_id: id });
        await hook.env.write('account.move', [id], { message_main_attachment_id: file });
        if (typeof note === 'string' && note) await postMessage('account.move', [id], { body: note, message_type: 'comment', ...signature(author) }, hook);
        return id;
      },
      async backoffice_decide(ids, args, kwargs, hook) {
        const [validate, note, author] = ['validate', 'note', 'author'].map((name, index) => (kwargs[name] !== undefined ? kwargs[name] : args[index]));
        // Connector 1.3.0: a note that carries the manager's comment is a person's message.
        const messageType = kwargs.message_type === 'comment' ? 'comment' : 'notification';
        for (const id of ids) {
          await hook.env.write('account.move', [id], { pnt_account_move_team_manager_validate: Boolean(validate), pnt_account_move_team_manager_deny: !validate });
          await postMessage('account.move', [id], { body: String(note ?? ''), message_type: messageType, ...signature(author) }, hook);
        }
        return true;
      },
    },
  },
  'sale.order': {
    async beforeCreate(values, hook) {
      const number = await nextSequence(hook, 'sale.order');
      const currency = values.currency_id || (await orderCurrency(values, hook));
      return { state: 'draft', locked: false, name: `S${String(number).padStart(5, '0')}`, ...values, ...(currency ? { currency_id: currency } : {}) };
    },
    async recompute(ids, hook) {
      const lines = await rows(
        hook,
        `SELECT id, order_id, product_uom_qty, price_unit, purchase_price FROM sale_order_line WHERE order_id = ANY($1::int[])`,
        [ids],
      );
      const taxesOf = await lineTaxes(hook, lines.map((l) => Number(l.id)));
      // As Odoo 17 (account.tax _compute_taxes): every tax of a line is computed on its own; a line's tax is the sum of
      // its taxes each rounded; the order's tax is the sum of the lines' (per line, Odoo's default) or, when the company
      // rounds globally, each tax's exact amounts over the lines rounded once per tax, then added.
      const totals = new Map<number, { untaxed: number; tax: number; exactByTax: Map<number, number>; margin: number }>();
      for (const line of lines) {
        const quantity = Number(line.product_uom_qty ?? 0);
        const subtotal = roundMoney(quantity * Number(line.price_unit ?? 0));
        const exact = (taxesOf.get(Number(line.id)) ?? []).map(({ tax, rate }) => ({ tax, amount: (subtotal * rate) / 100 }));
        const tax = roundMoney(exact.reduce((sum, one) => sum + roundMoney(one.amount), 0));
        const margin = roundMoney(subtotal - quantity * Number(line.purchase_price ?? 0));
        const marginPercent = subtotal ? margin / subtotal : 0;
        await hook.tx.query(
          `UPDATE sale_order_line SET price_subtotal = $2, price_tax = $3, price_total = $4, margin = $5, margin_percent = $6 WHERE id = $1`,
          [line.id, subtotal, tax, roundMoney(subtotal + tax), margin, marginPercent],
        );
        const sum = totals.get(Number(line.order_id)) ?? { untaxed: 0, tax: 0, exactByTax: new Map<number, number>(), margin: 0 };
        for (const one of exact) sum.exactByTax.set(one.tax, (sum.exactByTax.get(one.tax) ?? 0) + one.amount);
        totals.set(Number(line.order_id), { untaxed: sum.untaxed + subtotal, tax: sum.tax + tax, exactByTax: sum.exactByTax, margin: sum.margin + margin });
      }
      const globally = new Set(
        (await rows(hook, `SELECT o.id FROM sale_order o JOIN res_company c ON c.id = o.company_id WHERE o.id = ANY($1::int[]) AND c.tax_calculation_rounding_method = 'round_globally'`, [ids])).map((row) => Number(row.id)),
      );
      for (const id of ids) {
        const sums = totals.get(id) ?? { untaxed: 0, tax: 0, exactByTax: new Map<number, number>(), margin: 0 };
        const { untaxed, margin } = sums;
        const tax = globally.has(id) ? [...sums.exactByTax.values()].reduce((sum, exact) => sum + roundMoney(exact), 0) : sums.tax;
        await hook.tx.query(
          `UPDATE sale_order SET amount_untaxed = $2, amount_tax = $3, amount_total = $4, margin = $5, margin_percent = $6 WHERE id = $1`,
          [id, roundMoney(untaxed), roundMoney(tax), roundMoney(roundMoney(untaxed) + roundMoney(tax)), roundMoney(margin), untaxed ? roundMoney(margin) / roundMoney(untaxed) : 0],
        );
      }
    },
    async beforeUnlink(ids, hook) {
      const blocked = await hook.env.searchCount('sale.order', [['id', 'in', ids], ['state', 'not in', ['draft', 'cancel']]]);
      if (blocked) throw new ErpError('user', 'You can not delete a sent quotation or a confirmed sales order. You must first cancel it.');
    },
    methods: {
      async action_confirm(ids, _args, _kwargs, hook) {
        const orders = await hook.env.read('sale.order', ids, ['state']);
        if (orders.some((order) => order.state !== 'draft' && order.state !== 'sent')) {
          throw new ErpError('user', 'Some orders are not in a state requiring confirmation.');
        }
        await hook.tx.query(`UPDATE sale_order SET state = 'sale', write_date = $2 WHERE id = ANY($1::int[])`, [ids, nowText()]);
        return true;
      },
      async action_cancel(ids, _args, _kwargs, hook) {
        const locked = await hook.env.searchCount('sale.order', [['id', 'in', ids], ['locked', '=', true]]);
        if (locked) throw new ErpError('user', 'You cannot cancel a locked order. Please unlock it first.');
        await hook.tx.query(`UPDATE sale_order SET state = 'cancel', write_date = $2 WHERE id = ANY($1::int[])`, [ids, nowText()]);
        return true;
      },
      async action_draft(ids, _args, _kwargs, hook) {
        await hook.tx.query(`UPDATE sale_order SET state = 'draft', write_date = $2 WHERE id = ANY($1::int[]) AND state IN ('cancel', 'sent')`, [ids, nowText()]);
        return true;
      },
      message_post: (ids, _args, kwargs, hook) => postMessage('sale.order', ids, kwargs, hook),
    },
  },
  'sale.order.line': {
    async recompute(ids, hook) {
      const orders = await rows(hook, `SELECT DISTINCT order_id FROM sale_order_line WHERE id = ANY($1::int[])`, [ids]);
      await PRODUCT_BEHAVIOUR['sale.order'].recompute!(orders.map((row) => Number(row.order_id)), hook);
    },
  },
  'account.move.line': {
    async recompute(ids, hook) {
      const moves = await rows(hook, `SELECT DISTINCT move_id FROM account_move_line WHERE id = ANY($1::int[])`, [ids]);
      await PRODUCT_BEHAVIOUR['account.move'].recompute!(moves.map((row) => Number(row.move_id)), hook);
    },
  },
  // Odoo names an account by its code and name ('600000 Compras de mercaderías').
  'account.account': { displayName: (records) => new Map(records.map((row) => [Number(row.id), `${row.code} ${row.name}`])) },
  'res.partner': {
    beforeCreate: (values: ErpValues) => ({ active: true, ...values }),
    methods: { message_post: (ids, _args, kwargs, hook) => postMessage('res.partner', ids, kwargs, hook) },
  },
};

function nowText(): string {
  return new Date().toISOString().replace('T', ' ').slice(0, 19);
}
