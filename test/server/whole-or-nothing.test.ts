/**
 * Whole or nothing on the ERP (issue 28), by fault injection: a small HTTP proxy between the server (ERP=odoo, the
 * real JSON-RPC client) and the ERP's /jsonrpc cuts the Nth call and every call after it until the ERP is "back"
 * (the connection closed without an answer), N = 1..last, for bill create, validate, reject, order create, confirm and
 * contact create. Each N twice: the Nth call not delivered, and delivered with its answer lost. Then the ERP is back,
 * the background clean-up runs, and the user sends the same submission again (same key): no half-written record
 * remains (a bill without its file or note, flags without their note) and there is exactly one record.
 *
 * The ERP is the embedded store's /jsonrpc (EMBEDDED_RPC_LOGIN), so this runs in CI; with ODOO_URL set (and
 * ODOO_DB, ODOO_LOGIN, ODOO_API_KEY, ODOO_COMPANY_ID) the same suite runs against that Odoo.
 *
 * Twice: with the connector's one-call methods (feature oneCallWrites: a bill or a decision is one call, one Odoo
 * transaction), and without them, the proxy then showing the ERP as one whose connector predates them (their field
 * hidden from fields_get, the methods refused as Odoo refuses an unknown method): the sequence of calls and the
 * durable clean-up.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPdf } from '../../server/erp/embedded/files';
import { OdooClient } from '../../server/erp/odoo/client';
import type { ErpClient } from '../../server/erp/types';
import { freePort, startTestServer, type TestServer } from './helpers';
import { storedBills } from '../support/stored-bills';

const RPC = { login: 'integration@demo.example', apiKey: 'a-long-integration-key-for-faults' };
const LIVE = process.env.ODOO_URL
  ? { url: process.env.ODOO_URL, db: process.env.ODOO_DB ?? '', login: process.env.ODOO_LOGIN ?? '', apiKey: process.env.ODOO_API_KEY ?? '', company: Number(process.env.ODOO_COMPANY_ID ?? 1) }
  : undefined;

/** The writes among the calls an ERP is sent (ORM writes and the connector's methods), as `model.method`. */
const WRITES = new Set(['create', 'write', 'unlink', 'message_post', 'backoffice_create_bill', 'backoffice_decide', 'action_confirm']);

/** Cuts the ERP's calls from the Nth on (until `restore`): not delivered, or delivered with the answer lost. */
class CuttingProxy {
  calls = 0;
  /** The writes sent since `arm`, in order. */
  writes: string[] = [];
  private cutFrom: number | null = null;
  private deliverFirst = false;
  private server: Server | undefined;
  url = '';
  /** `oneCall` false: the ERP looks like one whose connector has no one-call methods. */
  constructor(
    private readonly upstream: string,
    private readonly oneCall: boolean,
  ) {}

  async start(): Promise<void> {
    const port = await freePort();
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${port}`;
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Counts calls from now on; cuts from the nth (when given). */
  arm(cutFrom: number | null, deliverFirst: boolean): void {
    this.calls = 0;
    this.writes = [];
    this.cutFrom = cutFrom;
    this.deliverFirst = deliverFirst;
  }

  restore(): void {
    this.cutFrom = null;
  }

  private handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const counted = req.method === 'POST' && (req.url ?? '').startsWith('/jsonrpc');
      const [, , , model, method] = counted ? (JSON.parse(body.toString('utf8')) as { params?: { args?: unknown[] } }).params?.args ?? [] : [];
      if (typeof method === 'string' && WRITES.has(method)) this.writes.push(`${String(model)}.${method}`);
      if (!this.oneCall && typeof method === 'string' && method.startsWith('backoffice_')) {
        // As Odoo 17 answers a method its models lack (odoo/service/model.py).
        const message = `The method '${String(model)}.${method}' does not exist`;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: 200, message: 'Odoo Server Error', data: { name: 'builtins.AttributeError', message, arguments: [message], debug: '' } } }));
        return;
      }
      const n = counted ? ++this.calls : 0;
      const cut = this.cutFrom !== null && counted && n >= this.cutFrom;
      if (cut && !(this.deliverFirst && n === this.cutFrom)) {
        req.socket.destroy();
        return;
      }
      const target = new URL(req.url ?? '/', this.upstream);
      // Asked uncompressed: the proxy may read and change an answer (fields_get without the one-call field).
      const { 'accept-encoding': _encoding, ...headers } = req.headers;
      const forward = httpRequest(target, { method: req.method, headers: { ...headers, host: target.host } }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => parts.push(chunk));
        answer.on('end', () => {
          // Delivered, done by the ERP, and its answer lost on the way back.
          if (cut) return req.socket.destroy();
          let out = Buffer.concat(parts);
          if (!this.oneCall && method === 'fields_get' && model === 'account.move') {
            const json = JSON.parse(out.toString('utf8')) as { result?: Record<string, unknown> };
            if (json.result) delete json.result.x_backoffice_one_call;
            out = Buffer.from(JSON.stringify(json));
          }
          const headers = { ...answer.headers };
          delete headers['content-length'];
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(out);
        });
      });
      forward.on('error', () => req.socket.destroy());
      forward.end(body);
    });
  }
}

let erpServer: TestServer | undefined;
let proxy: CuttingProxy;
let app: TestServer;
/** The ERP itself, not through the proxy: what is really stored. */
let erp: ErpClient;
let token: string;
let company = 1;
let today = '';
const run = randomUUID().slice(0, 8);
/** This run's and this path's mark in every record's name. */
let tag = run;
let upstream: string;
let connection: { db: string; login: string; apiKey: string };

beforeAll(async () => {
  if (LIVE) {
    upstream = LIVE.url;
    connection = { db: LIVE.db, login: LIVE.login, apiKey: LIVE.apiKey };
    company = LIVE.company;
  } else {
    erpServer = await startTestServer({ seedErp: true, env: { EMBEDDED_RPC_LOGIN: RPC.login, EMBEDDED_RPC_API_KEY: RPC.apiKey } });
    upstream = erpServer.url;
    connection = { db: 'embedded', ...RPC };
  }
  erp = new OdooClient({ url: upstream, ...connection, timeoutMs: 120_000 });
  today = new Date().toISOString().slice(0, 10);
}, 240_000);

afterAll(async () => {
  await erpServer?.stop();
});

/** The console server for one path, behind its own proxy. */
async function startPath(oneCall: boolean) {
  tag = `${run}-${oneCall ? '1' : 'n'}`;
  proxy = new CuttingProxy(upstream, oneCall);
  await proxy.start();
  app = await startTestServer({
    seedErp: false,
    // The clean-up runs when the test says (after the ERP is back), not on its own timer.
    cleanups: { pollMs: 3_600_000, firstDelayMs: 0 },
    env: { ERP: 'odoo', ODOO_URL: proxy.url, ODOO_DB: connection.db, ODOO_LOGIN: connection.login, ODOO_API_KEY: connection.apiKey, ODOO_TIMEOUT_MS: '120000', DEMO: 'true' },
  });
  await app.app.services.db.query('UPDATE users SET companies = $1 WHERE email = $2', [[company], 'admin@demo.example']);
  token = await app.tokenFor('admin@demo.example');
}

async function stopPath() {
  await app?.stop();
  await proxy?.stop();
}

async function call(method: string, path: string, body?: unknown, key?: string) {
  try {
    const response = await fetch(`${app.url}${path}`, {
      method,
      headers: { authorization: token, 'accept-language': 'en', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(key ? { 'idempotency-key': key } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null, replayed: response.headers.get('idempotent-replayed') === 'true' };
  } catch (error) {
    throw new Error(`${method} ${path} got no answer: ${String(error)}`);
  }
}

/** The ERP is back: the clean-up works off what the cut left (its rows are due at once after a failure). */
async function back() {
  proxy.restore();
  await app.app.services.cleanups.runDue();
  expect(await app.app.services.cleanups.pending()).toEqual([]);
}

const pdf = `data:application/pdf;base64,${demoPdf(['Taxi', 'Total 23,40 EUR']).toString('base64')}`;

function bill(ref: string) {
  return { type: 'expense', company_id: company, date: today, amount: 23.4, concept: ref, comment: `Nota ${ref}`, paymentMethod: 'corporate_card', file: { name: `${ref}.pdf`, data: pdf } };
}

/** The bills with this reference, each with its attachments and its people's notes. */
function billsNamed(ref: string) {
  return storedBills(erp, ref);
}

/** How many ERP calls an operation makes, run once uncut. */
async function callsOf(operation: () => Promise<unknown>): Promise<number> {
  proxy.arm(null, false);
  await operation();
  return proxy.calls;
}

const MODES = [
  { deliverFirst: false, name: 'not delivered' },
  { deliverFirst: true, name: 'delivered, answer lost' },
];

for (const oneCall of [true, false]) describe(`whole or nothing, the ERP cut at each call (${LIVE ? `live Odoo ${LIVE.url}` : 'embedded /jsonrpc'}), ${oneCall ? 'with' : 'without'} the one-call methods`, () => {
  beforeAll(() => startPath(oneCall), 240_000);
  afterAll(stopPath);

  it('bill create: no bill without its file or note once cleaned up; a resend makes exactly one', async () => {
    const total = await callsOf(async () => expect((await call('POST', '/odoo/moves/create', bill(`wn-${tag}-warm`), randomUUID())).status).toBe(201));
    expect(total).toBeGreaterThanOrEqual(4);
    // One write with the connector's method; without it the bill, its file and its note each on their own.
    if (oneCall) expect(proxy.writes).toEqual(['account.move.backoffice_create_bill']);
    else expect(proxy.writes).toEqual(['account.move.create', 'ir.attachment.create', 'account.move.message_post', 'account.move.write']);
    for (const mode of MODES) {
      for (let n = 1; n <= total; n += 1) {
        const ref = `wn-${tag}-bill-${mode.deliverFirst ? 'l' : 'd'}${n}`;
        const key = randomUUID();
        proxy.arm(n, mode.deliverFirst);
        const first = await call('POST', '/odoo/moves/create', bill(ref), key);
        expect([201, 503], `${mode.name} ${n}: ${JSON.stringify(first.body)}`).toContain(first.status);
        if (first.status === 503) expect(first.body.message).toBe('The ERP is unavailable: try again in a few minutes');
        await back();
        for (const one of await billsNamed(ref)) expect(one, `${mode.name} ${n}: a bill left half-written`).toMatchObject({ files: 1, notes: 1, key });
        const again = await call('POST', '/odoo/moves/create', bill(ref), key);
        expect(again.status, `${mode.name} ${n}`).toBe(201);
        const stored = await billsNamed(ref);
        expect(stored, `${mode.name} ${n}`).toEqual([{ id: again.body.id, key, files: 1, notes: 1 }]);
        if (first.status === 201) expect(again).toMatchObject({ replayed: true, body: { id: first.body.id } });
      }
    }
  }, 600_000);

  for (const validate of [true, false]) {
    const word = validate ? 'validate' : 'reject';
    it(`${word}: the flags never without their note once cleaned up; a resend leaves one note`, async () => {
      const draft = async (ref: string) => {
        const made = await call('POST', '/odoo/moves/create', bill(ref), randomUUID());
        expect(made.status).toBe(201);
        return made.body.id as number;
      };
      const note = validate ? 'Validado por el responsable' : 'Rechazado por el responsable';
      const state = async (id: number) => {
        const [move] = await erp.read('account.move', [id], ['pnt_account_move_team_manager_validate', 'pnt_account_move_team_manager_deny']);
        const notes = await erp.searchCount('mail.message', [['model', '=', 'account.move'], ['res_id', '=', id], ['body', 'ilike', note]]);
        return { validated: move.pnt_account_move_team_manager_validate, denied: move.pnt_account_move_team_manager_deny, notes };
      };
      const decided = { validated: validate, denied: !validate, notes: 1 };
      const warm = await draft(`wn-${tag}-${word}-warm`);
      const total = await callsOf(async () => expect((await call('PUT', `/odoo/moves/${warm}/validate`, { validate })).status).toBe(200));
      expect(await state(warm)).toEqual(decided);
      expect(proxy.writes).toEqual(oneCall ? ['account.move.backoffice_decide'] : ['account.move.write', 'account.move.message_post']);
      for (const mode of MODES) {
        for (let n = 1; n <= total; n += 1) {
          const id = await draft(`wn-${tag}-${word}-${mode.deliverFirst ? 'l' : 'd'}${n}`);
          proxy.arm(n, mode.deliverFirst);
          const first = await call('PUT', `/odoo/moves/${id}/validate`, { validate });
          expect([200, 503], `${mode.name} ${n}: ${JSON.stringify(first.body)}`).toContain(first.status);
          await back();
          // Whole: decided with its note, or not decided at all.
          expect([decided, { validated: false, denied: false, notes: 0 }], `${mode.name} ${n}`).toContainEqual(await state(id));
          const again = await call('PUT', `/odoo/moves/${id}/validate`, { validate });
          expect(again.status, `${mode.name} ${n}: ${JSON.stringify(again.body)}`).toBe(200);
          expect(await state(id), `${mode.name} ${n}`).toEqual(decided);
        }
      }
    }, 600_000);
  }

  // Orders and contacts are written the same way on both paths: run once.
  if (!oneCall) return;

  // A withdrawal is written in two calls whatever the connector has: run once.
  it('withdraw (undo, issue 51): the flags cleared with their note or the decision left whole; a resend leaves one note', async () => {
    const rejected = async (ref: string) => {
      const made = await call('POST', '/odoo/moves/create', bill(ref), randomUUID());
      expect(made.status).toBe(201);
      expect((await call('PUT', `/odoo/moves/${made.body.id}/validate`, { validate: false, comment: 'Falta el ticket' })).status).toBe(200);
      return made.body.id as number;
    };
    const state = async (id: number) => {
      const [move] = await erp.read('account.move', [id], ['pnt_account_move_team_manager_validate', 'pnt_account_move_team_manager_deny']);
      const notes = await erp.searchCount('mail.message', [['model', '=', 'account.move'], ['res_id', '=', id], ['body', 'ilike', 'Decisión retirada por el responsable']]);
      return { validated: move.pnt_account_move_team_manager_validate, denied: move.pnt_account_move_team_manager_deny, notes };
    };
    const withdrawn = { validated: false, denied: false, notes: 1 };
    const warm = await rejected(`wn-${tag}-withdraw-warm`);
    const total = await callsOf(async () => expect((await call('DELETE', `/odoo/moves/${warm}/validate`)).status).toBe(200));
    expect(await state(warm)).toEqual(withdrawn);
    expect(proxy.writes).toEqual(['account.move.write', 'account.move.message_post']);
    for (const mode of MODES) {
      for (let n = 1; n <= total; n += 1) {
        const id = await rejected(`wn-${tag}-withdraw-${mode.deliverFirst ? 'l' : 'd'}${n}`);
        proxy.arm(n, mode.deliverFirst);
        const first = await call('DELETE', `/odoo/moves/${id}/validate`);
        expect([200, 503], `${mode.name} ${n}: ${JSON.stringify(first.body)}`).toContain(first.status);
        await back();
        // Whole: waiting again with its note, or still rejected without one.
        expect([withdrawn, { validated: false, denied: true, notes: 0 }], `${mode.name} ${n}`).toContainEqual(await state(id));
        const again = await call('DELETE', `/odoo/moves/${id}/validate`);
        expect(again.status, `${mode.name} ${n}: ${JSON.stringify(again.body)}`).toBe(200);
        expect(await state(id), `${mode.name} ${n}`).toEqual(withdrawn);
      }
    }
  }, 600_000);

  /** An order of the company: its first customer and first product it sells. */
  async function orderBody(ref: string) {
    const [partner] = await erp.searchRead('res.partner', [['is_company', '=', true], '|', ['company_id', '=', false], ['company_id', '=', company]], { fields: ['id'], limit: 1, order: 'id' });
    const [product] = await erp.searchRead('product.product', [['sale_ok', '=', true], '|', ['company_id', '=', false], ['company_id', '=', company]], { fields: ['id'], limit: 1, order: 'id' });
    return { order: { company_id: company, date_order: today, partner_id: partner.id, client_order_ref: ref }, lines: [{ product_id: product.id, price_unit: 10, product_uom_qty: 2 }] };
  }

  const ordersNamed = async (ref: string) => {
    const orders = await erp.searchRead('sale.order', [['client_order_ref', '=', ref]], { fields: ['id', 'state', 'order_line', 'amount_untaxed'] });
    return orders.map((order) => ({ id: order.id, state: order.state, lines: (order.order_line as number[]).length, untaxed: order.amount_untaxed }));
  };

  it('order create: an order is there with its lines or not at all; a resend makes exactly one', async () => {
    const total = await callsOf(async () => expect((await call('POST', '/odoo/orders/create', await orderBody(`wn-${tag}-order-warm`), randomUUID())).status).toBe(201));
    for (const mode of MODES) {
      for (let n = 1; n <= total; n += 1) {
        const ref = `wn-${tag}-order-${mode.deliverFirst ? 'l' : 'd'}${n}`;
        const body = await orderBody(ref);
        const key = randomUUID();
        proxy.arm(n, mode.deliverFirst);
        const first = await call('POST', '/odoo/orders/create', body, key);
        expect([201, 503], `${mode.name} ${n}: ${JSON.stringify(first.body)}`).toContain(first.status);
        await back();
        for (const one of await ordersNamed(ref)) expect(one, `${mode.name} ${n}`).toMatchObject({ lines: 1, untaxed: 20 });
        const again = await call('POST', '/odoo/orders/create', body, key);
        expect(again.status, `${mode.name} ${n}`).toBe(201);
        expect(await ordersNamed(ref), `${mode.name} ${n}`).toEqual([{ id: again.body.id, state: 'draft', lines: 1, untaxed: 20 }]);
      }
    }
  }, 600_000);

  it('order confirm: confirmed or still a draft, never in between; a resend leaves it confirmed once', async () => {
    const made = async (ref: string) => {
      const answer = await call('POST', '/odoo/orders/create', await orderBody(ref), randomUUID());
      expect(answer.status).toBe(201);
      return answer.body.id as number;
    };
    const warm = await made(`wn-${tag}-confirm-warm`);
    const total = await callsOf(async () => expect((await call('PUT', `/odoo/orders/${warm}/confirm`)).status).toBe(200));
    for (const mode of MODES) {
      for (let n = 1; n <= total; n += 1) {
        const ref = `wn-${tag}-confirm-${mode.deliverFirst ? 'l' : 'd'}${n}`;
        const id = await made(ref);
        proxy.arm(n, mode.deliverFirst);
        const first = await call('PUT', `/odoo/orders/${id}/confirm`);
        expect([200, 503], `${mode.name} ${n}: ${JSON.stringify(first.body)}`).toContain(first.status);
        await back();
        expect(['draft', 'sale']).toContain((await ordersNamed(ref))[0].state);
        const again = await call('PUT', `/odoo/orders/${id}/confirm`);
        // Sent again: confirmed now, or already confirmed by the first send.
        expect([200, 409], `${mode.name} ${n}`).toContain(again.status);
        expect(await ordersNamed(ref), `${mode.name} ${n}`).toEqual([{ id, state: 'sale', lines: 1, untaxed: 20 }]);
      }
    }
  }, 600_000);

  it('contact create: a resend after any cut makes exactly one contact', async () => {
    const contact = (name: string) => ({ fields: { name, email: `${name}@example.com`, company_id: company } });
    const total = await callsOf(async () => expect((await call('POST', '/odoo/contacts/create', contact(`wn-${tag}-contact-warm`), randomUUID())).status).toBe(201));
    for (const mode of MODES) {
      for (let n = 1; n <= total; n += 1) {
        const name = `wn-${tag}-contact-${mode.deliverFirst ? 'l' : 'd'}${n}`;
        const key = randomUUID();
        proxy.arm(n, mode.deliverFirst);
        const first = await call('POST', '/odoo/contacts/create', contact(name), key);
        expect([201, 503], `${mode.name} ${n}: ${JSON.stringify(first.body)}`).toContain(first.status);
        await back();
        const again = await call('POST', '/odoo/contacts/create', contact(name), key);
        expect(again.status, `${mode.name} ${n}`).toBe(201);
        const stored = await erp.searchRead('res.partner', [['name', '=', name]], { fields: ['id', 'email', 'x_backoffice_key'] });
        expect(stored, `${mode.name} ${n}`).toEqual([{ id: again.body.id, email: `${name}@example.com`, x_backoffice_key: key }]);
      }
    }
  }, 600_000);

  it('without a key, a create behaves as before: each send makes its record', async () => {
    const name = `wn-${tag}-nokey`;
    proxy.arm(null, false);
    expect((await call('POST', '/odoo/contacts/create', { fields: { name, company_id: company } })).status).toBe(201);
    expect((await call('POST', '/odoo/contacts/create', { fields: { name, company_id: company } })).status).toBe(201);
    expect(await erp.searchCount('res.partner', [['name', '=', name]])).toBe(2);
  });

  it('refuses a malformed key, naming the header, and creates nothing', async () => {
    const name = `wn-${tag}-badkey`;
    const refused = await call('POST', '/odoo/contacts/create', { fields: { name, company_id: company } }, 'no spaces allowed');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ field: 'idempotency-key' });
    expect(await erp.searchCount('res.partner', [['name', '=', name]])).toBe(0);
  });
});
