/**
 * The run-time feature probe and `npm run odoo:check`, on the embedded store (everything the product needs is
 * there) and on Odoo 17 answers recorded from real databases (test/server/fixtures, recorded with
 * test/support/record-odoo-check.ts): a stock Odoo without the connector module, and one with it.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from '../../server/config';
import { PRODUCT_BEHAVIOUR } from '../../server/erp/embedded/behaviour';
import { PRODUCT_REGISTRY } from '../../server/erp/product-models';
import { DEMO_EMPLOYEES } from '../../server/erp/embedded/seed';
import { EmbeddedStore } from '../../server/erp/embedded/store';
import { ERP_CONCURRENCY, featureProbe, isMissingModelError, mapLimited, PROBED_MODELS, type ErpFeatures } from '../../server/erp/features';
import { checkOdoo, formatReport, hasMissing, type CheckItem, type CheckReport } from '../../server/erp/odoo/check';
import { OdooClient, type OdooConnection } from '../../server/erp/odoo/client';
import { STANDARD_FIELDS } from '../../server/erp/odoo/requirements';
import { checkOdooAtStart, logReport } from '../../server/erp/odoo/startup-check';
import { ErpError, type ErpClient } from '../../server/erp/types';
import type { Db } from '../../server/db';
import { freePort } from '../support/free-port';
import { memoryErp } from '../support/memory-erp';
import { replayFetch, type OdooRecording } from '../support/odoo-replay';
import { answered } from '../support/answered';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as OdooRecording;
const stock = fixture('odoo17-stock-check.json');
const connector = fixture('odoo17-connector-check.json');

const ALL: ErpFeatures = {
  paymentModes: true,
  investorTypes: true,
  events: true,
  projects: true,
  moveValidation: true,
  declaredPaymentStatus: true,
  ownerEmployee: true,
  orderMargins: true,
  submissionKeys: true,
  oneCallWrites: true,
  journeys: true,
};
/** What the recorded connector (before issue 28's submission keys and one-call writes) offers. */
const PRE_KEYS: ErpFeatures = { ...ALL, submissionKeys: false, oneCallWrites: false, journeys: false };
const UPDATE_CONNECTOR = 'Update the module backoffice_connector to its latest version (odoo/backoffice_connector in this repository)';
const INSTALL_CONNECTOR = 'Install the module backoffice_connector (odoo/backoffice_connector in this repository)';
const OCA_FIX =
  'Install OCA account_payment_mode, account_payment_partner and account_payment_sale (optional: without them orders are created without a payment mode and the list is empty)';

/** An ErpClient that counts fields_get calls and can be made to fail like an unreachable Odoo. */
function counting(inner: ErpClient) {
  const state = { calls: 0, down: false };
  const client = new Proxy(inner, {
    get(target, property, receiver) {
      if (property !== 'call') return Reflect.get(target, property, receiver);
      return async (model: string, method: string, ids: number[], args?: unknown[], kwargs?: Record<string, unknown>) => {
        if (method === 'fields_get') state.calls += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (state.down) throw new ErpError('unavailable', 'ERP unavailable');
        return target.call(model, method, ids, args, kwargs);
      };
    },
  });
  return { client, state };
}

function odoo(recording: OdooRecording, changes: Partial<OdooConnection> = {}) {
  const replay = replayFetch(recording);
  const connection: OdooConnection = { url: recording.odoo.url, db: recording.odoo.db, login: recording.odoo.login, apiKey: recording.odoo.apiKey, fetch: replay.fetch, ...changes };
  return { client: new OdooClient(connection), connection, replay };
}

const item = (report: CheckReport, feature: string): CheckItem => {
  const found = report.items.find((one) => one.feature === feature);
  if (!found) throw new Error(`No item '${feature}' in:\n${formatReport(report)}`);
  return found;
};
const statuses = (report: CheckReport) => Object.fromEntries(report.items.map((one) => [one.feature, one.status]));

let db: Db;
let store: EmbeddedStore;
beforeAll(async () => {
  ({ db, store } = await memoryErp(PRODUCT_BEHAVIOUR));
  const { seedErp } = await import('../../server/erp/embedded/seed');
  await seedErp(store, new Date('2026-11-22T10:00:00Z'));
}, 120_000);

describe('embedded store: fields_get', () => {
  it("answers Odoo's fields_get from the registry, id included, with the attributes asked for", async () => {
    const all = await store.call<Record<string, Record<string, unknown>>>('account.move', 'fields_get', []);
    expect(all.id).toEqual({ type: 'integer', string: 'ID' });
    expect(all.partner_id).toEqual({ type: 'many2one', relation: 'res.partner', string: 'partner_id' });
    const typed = await store.call<Record<string, Record<string, unknown>>>('sale.order', 'fields_get', [], [], { attributes: ['type', 'relation'] });
    // As Odoo answers: no 'relation' key on fields that are not relational.
    expect(typed.name).toEqual({ type: 'char' });
    expect(typed.order_line).toEqual({ type: 'one2many', relation: 'sale.order.line' });
    expect(Object.keys(typed).sort()).toEqual(['id', ...Object.keys(PRODUCT_REGISTRY['sale.order'].fields)].sort());
  });

  it('answers an unknown model with an error the probe reads as "absent"', async () => {
    const error = await store.call('x_no_such_model', 'fields_get', []).catch((caught: unknown) => caught);
    expect(isMissingModelError(error)).toBe(true);
  });
});

describe('feature probe', () => {
  it('finds every feature on the embedded store', async () => {
    expect(await featureProbe(store).get()).toEqual(ALL);
  });

  it('treats models the ERP does not have as absent features (embedded: unknown model)', async () => {
    const registry = Object.fromEntries(Object.entries(PRODUCT_REGISTRY).filter(([name]) => !['account.payment.mode', 'x_tipo_inversor'].includes(name)));
    const partial = new EmbeddedStore(db, registry, {});
    expect(await featureProbe(partial).get()).toEqual({ ...ALL, paymentModes: false, investorTypes: false });
  });

  it("on a stock Odoo 17 (Odoo's UserError 'Object x doesn't exist'), finds only the margins", async () => {
    const { client, replay } = odoo(stock);
    expect(await featureProbe(client).get()).toEqual({
      paymentModes: false,
      investorTypes: false,
      events: false,
      projects: false,
      moveValidation: false,
      declaredPaymentStatus: false,
      ownerEmployee: false,
      orderMargins: true,
      submissionKeys: false,
      oneCallWrites: false,
      journeys: false,
    });
    expect(replay.unmatched).toEqual([]);
    // Each model asked once, through fields_get with an empty first argument (allfields=[]: all fields).
    const asked = replay.calls.filter((call) => call.orm === 'fields_get');
    expect(asked.map((call) => call.model).sort()).toEqual([...PROBED_MODELS].sort());
    expect(asked.every((call) => JSON.stringify(call.args) === '[[]]')).toBe(true);
  });

  it('on an Odoo 17 with the connector and the OCA payment modes, finds everything but the submission keys', async () => {
    const { client, replay } = odoo(connector);
    // Recorded with the connector of before issue 28, which had no x_backoffice_key yet.
    expect(await featureProbe(client).get()).toEqual(PRE_KEYS);
    expect(replay.unmatched).toEqual([]);
  });

  it('caches the answer, shares one probe between concurrent callers, and probes again after the TTL or invalidate()', async () => {
    const { client, state } = counting(store);
    let now = 1_000;
    const probe = featureProbe(client, { ttlMs: 60_000, now: () => now });
    const [first, second] = await Promise.all([probe.get(), probe.get()]);
    expect(first).toEqual(ALL);
    expect(second).toBe(first);
    expect(state.calls).toBe(PROBED_MODELS.length);
    now += 59_000;
    await probe.get();
    expect(state.calls).toBe(PROBED_MODELS.length);
    now += 2_000;
    await probe.get();
    expect(state.calls).toBe(2 * PROBED_MODELS.length);
    probe.invalidate();
    await probe.get();
    expect(state.calls).toBe(3 * PROBED_MODELS.length);
  });

  it('rethrows an unavailable ERP and does not cache the failure', async () => {
    const { client, state } = counting(store);
    const probe = featureProbe(client);
    state.down = true;
    await expect(probe.get()).rejects.toMatchObject({ kind: 'unavailable' });
    state.down = false;
    expect(await probe.get()).toEqual(ALL);
  });

  it('rethrows an unreachable Odoo', async () => {
    const client = new OdooClient({ url: `http://127.0.0.1:${await freePort()}`, db: 'x', login: 'x', apiKey: 'x', timeoutMs: 2000 });
    await expect(featureProbe(client).get().catch(answered)).resolves.toMatchObject({ kind: 'unavailable', statusCode: 503 });
  });
});

/** An ErpClient that counts the calls in flight at once (every method that reaches the ERP), each taking 5 ms. */
function inFlight(inner: ErpClient) {
  const state = { now: 0, most: 0, calls: 0 };
  const client = new Proxy(inner, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || property === 'version') return value;
      return async (...args: unknown[]) => {
        state.now += 1;
        state.calls += 1;
        state.most = Math.max(state.most, state.now);
        try {
          await new Promise((resolve) => setTimeout(resolve, 5));
          return await (value as (...all: unknown[]) => unknown).apply(target, args);
        } finally {
          state.now -= 1;
        }
      };
    },
  });
  return { client, state };
}

describe('the ERP is asked a few things at a time', () => {
  // Live on Odoo 16 and 18 (threaded, on a busy machine): the start-up check's fields_get of some 25 models all at once
  // took 30-70 s each, and the first screen a user opened meanwhile, queued behind them, answered 'ERP unavailable'.
  it(`the check and the feature probe keep at most ${ERP_CONCURRENCY} calls in flight, and still ask about every model`, async () => {
    const check = inFlight(store);
    const report = await checkOdoo(check.client, {});
    expect(report.features).toEqual(ALL);
    expect(check.state.calls).toBeGreaterThan(PROBED_MODELS.length);
    expect(check.state.most).toBeLessThanOrEqual(ERP_CONCURRENCY);
    const probe = inFlight(store);
    expect(await featureProbe(probe.client).get()).toEqual(ALL);
    expect(probe.state.calls).toBe(PROBED_MODELS.length);
    expect(probe.state.most).toBeLessThanOrEqual(ERP_CONCURRENCY);
  });

  it('mapLimited answers in the order asked and rejects with the first failure', async () => {
    const order: number[] = [];
    // Two at a time: 5 waits for a free turn (at once, the order would be 5, 10, 30, 80).
    const doubled = await mapLimited([80, 10, 30, 5], 2, async (ms) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      order.push(ms);
      return ms * 2;
    });
    expect(doubled).toEqual([160, 20, 60, 10]);
    expect(order).toEqual([10, 30, 5, 80]);
    await expect(mapLimited([1, 2, 3], 2, async (n) => {
      if (n === 2) throw new Error('two');
      return n;
    })).rejects.toThrow('two');
    expect(await mapLimited([], 3, async (n: number) => n)).toEqual([]);
  });
});

describe('odoo check on the embedded store', () => {
  const accounts = [...DEMO_EMPLOYEES.map((one) => ({ email: one.email, active: true })), { email: 'nobody@demo.example', active: true }, { email: 'inactive@demo.example', active: false }];

  it('finds everything the product needs; only the account without an employee is degraded', async () => {
    const report = await checkOdoo(store, { accounts });
    expect(report.reachable).toBe(true);
    expect(report.features).toEqual(ALL);
    const notOk = report.items.filter((one) => one.status !== 'ok');
    expect(notOk).toEqual([
      {
        feature: 'Employee for nobody@demo.example',
        status: 'degraded',
        details: ['no active employee with work e-mail nobody@demo.example: this console user cannot create contacts'],
        fix: 'Create an employee with work e-mail nobody@demo.example (Employees > New)',
      },
    ]);
    expect(item(report, 'Standard models and fields').details).toEqual([
      `${Object.keys(STANDARD_FIELDS).length} models, ${Object.values(STANDARD_FIELDS).flat().length} fields present`,
    ]);
    expect(item(report, 'Acme Iberia SL (company 1): invoices journal')).toMatchObject({
      status: 'ok',
      details: ['journal Facturas de proveedores (FAC1)', expect.stringMatching(/^default account /), 'account 600000 Compras de mercaderías'],
    });
    expect(item(report, 'Beta Servicios SA (company 2): tax rounding').details).toEqual(['round_per_line: tax rounded on each line']);
    expect(item(report, 'Cumbre Digital SL (company 3): sale tax 21%').details).toEqual(['IVA 21% (Servicios) (service); IVA 21% (Bienes) (consu)']);
    expect(item(report, 'Project Expansión Portugal (Acme Iberia SL): expenses journal').status).toBe('ok');
    expect(report.notes).toEqual(['Module states not checked: ir.module.module is not available (not an Odoo database)']);
    expect(hasMissing(report)).toBe(false);
    expect(formatReport(report).split('\n').at(-1)).toBe('0 missing, 1 degraded');
  });

  it("names the companies console accounts have that the ERP lacks, and asks an employee only of those who may create contacts (issue 28)", async () => {
    const report = await checkOdoo(store, {
      accounts: [
        // Without an employee but unable to create contacts: not flagged.
        { email: 'nobody@demo.example', active: true, permissions: ['moves.list'], companies: [1] },
        { email: 'creator@demo.example', active: true, permissions: ['contacts.create'], companies: [1, 99] },
        { email: 'ghost@demo.example', active: true, permissions: ['god'], companies: [2, 99, 98] },
        // Inactive accounts name no company the check asks for.
        { email: 'inactive@demo.example', active: false, permissions: ['contacts.create'], companies: [97] },
      ],
    });
    expect(item(report, "Console accounts' companies")).toEqual({
      feature: "Console accounts' companies",
      status: 'missing',
      details: [
        'company 98, named by ghost@demo.example, is not one the ERP has: their lists over it are refused',
        'company 99, named by creator@demo.example, ghost@demo.example, is not one the ERP has: their lists over it are refused',
      ],
      fix: 'Take the companies 98, 99 off those console accounts (Users page)',
    });
    expect(report.items.filter((one) => one.feature.startsWith('Employee')).map((one) => one.feature)).toEqual(['Employee for creator@demo.example', 'Employee for ghost@demo.example']);
    expect(hasMissing(report)).toBe(true);
  });

  it("says Odoo is answering slowly, with the seconds, when a call is slow, and when one runs out of time instead of 'stopped answering'", async () => {
    let clock = 0;
    const realNow = performance.now.bind(performance);
    // A slow fields_get of account.move (28 s, as right after installing modules), the clock moved by hand.
    const slow = new Proxy(store, {
      get(target, name) {
        const value = Reflect.get(target, name);
        if (name !== 'call' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
        return async (model: string, method: string, ...rest: unknown[]) => {
          if (model === 'account.move' && method === 'fields_get') clock += 28_000;
          return value.call(target, model, method, ...rest);
        };
      },
    });
    performance.now = () => realNow() + clock;
    try {
      const report = await checkOdoo(slow, {});
      // Every fields_get runs at once: the slowest is one under way while the clock moved.
      expect(item(report, 'Odoo response time')).toMatchObject({ status: 'degraded', details: [expect.stringMatching(/^Odoo is answering slowly \(28 s for fields_get of [a-z.]+\)$/)] });
    } finally {
      performance.now = realNow;
    }
    const timedOut = new Proxy(store, {
      get(target, name) {
        const value = Reflect.get(target, name);
        if (name !== 'call' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
        return async () => {
          throw new ErpError('unavailable', 'ERP unavailable', { cause: new DOMException('The operation was aborted due to timeout', 'TimeoutError') });
        };
      },
    });
    const report = await checkOdoo(timedOut, {});
    expect(report.reachable).toBe(false);
    expect(report.items[0].details).toEqual(['Odoo is answering slowly (no answer within 20 s)']);
    expect(formatReport(report)).not.toMatch(/stopped answering/);
  });

  it('names each broken journal setting with its one-line fix', async () => {
    const journal = async (company: number, code: string) => (await store.searchRead('account.journal', [['company_id', '=', company], ['code', '=', code]], { fields: ['id'] }))[0].id;
    const sales3 = await journal(3, 'VEN3');
    const expenses1 = await journal(1, 'GAS1');
    await store.write('res.company', [1], { x_facturas_account: '999999' });
    await store.write('res.company', [2], { x_facturas_journal_id: false });
    await store.write('res.company', [3], { x_gastos_journal_id: sales3 });
    await store.write('account.journal', [expenses1], { default_account_id: false });
    try {
      const report = await checkOdoo(store, {});
      expect(item(report, 'Acme Iberia SL (company 1): invoices journal')).toMatchObject({
        status: 'missing',
        fix: "Create account 999999 in Acme Iberia SL's chart of accounts, or set an existing code in x_facturas_account",
      });
      expect(item(report, 'Acme Iberia SL (company 1): expenses journal')).toMatchObject({
        status: 'missing',
        fix: 'Give journal Gastos y dietas (GAS1) a default account (Accounting > Configuration > Journals > Gastos y dietas)',
      });
      expect(item(report, 'Beta Servicios SA (company 2): invoices journal')).toEqual({
        feature: 'Beta Servicios SA (company 2): invoices journal',
        status: 'missing',
        details: ['no journal set: moves of this kind cannot be created in this company'],
        fix: 'Set a purchase journal in Settings > Companies > Beta Servicios SA > Backoffice (x_facturas_journal_id)',
      });
      expect(item(report, 'Cumbre Digital SL (company 3): expenses journal')).toMatchObject({
        status: 'missing',
        details: ['journal Ventas (VEN3)', 'of type sale, not purchase'],
        fix: 'Choose a purchase journal for the expenses of Cumbre Digital SL',
      });
      // The project that books to the same journal is told too.
      expect(item(report, 'Project Expansión Portugal (Acme Iberia SL): expenses journal').status).toBe('missing');
      expect(report.notes).toContain("Employees not checked: the console's accounts were not given");
      expect(hasMissing(report)).toBe(true);
      expect(formatReport(report)).toContain(
        'MISSING  Beta Servicios SA (company 2): invoices journal: no journal set: moves of this kind cannot be created in this company\n' +
          '         Fix: Set a purchase journal in Settings > Companies > Beta Servicios SA > Backoffice (x_facturas_journal_id)\n',
      );
    } finally {
      const [fac2] = await store.searchRead('account.journal', [['company_id', '=', 2], ['code', '=', 'FAC2']], { fields: ['id'] });
      const [gas3] = await store.searchRead('account.journal', [['company_id', '=', 3], ['code', '=', 'GAS3']], { fields: ['id'] });
      const [account] = await store.searchRead('account.account', [['company_id', '=', 1], ['code', '=', '629000']], { fields: ['id'] });
      await store.write('res.company', [1], { x_facturas_account: '600000' });
      await store.write('res.company', [2], { x_facturas_journal_id: fac2.id });
      await store.write('res.company', [3], { x_gastos_journal_id: gas3.id });
      await store.write('account.journal', [expenses1], { default_account_id: account.id });
    }
  });
});

describe('odoo check against Odoo 17 (recorded answers)', () => {
  it('on a stock database lists the connector, its fields and the payment modes as missing, each with its fix', async () => {
    const { client, connection, replay } = odoo(stock);
    const report = await checkOdoo(client, { connection, accounts: [{ email: 'Abigail.Peterson39@example.com', active: true }, { email: 'staff@demo.example', active: true }] });
    expect(replay.unmatched).toEqual([]);
    expect(report.version).toBe('17.0-20240709');
    expect(statuses(report)).toEqual({
      Odoo: 'ok',
      'Odoo modules': 'missing',
      'Connector module (backoffice_connector)': 'missing',
      'Standard models and fields': 'ok',
      'Connector fields (uploads, journal settings, notes)': 'missing',
      'Payment modes (OCA)': 'degraded',
      'Investor types of contacts': 'missing',
      'Event contact lists': 'missing',
      Projects: 'degraded',
      'Validation by team managers': 'missing',
      'Declared payment status of expenses': 'missing',
      'Owner employee of contacts': 'missing',
      'Order margins': 'ok',
      'Submission keys (one record per form sent)': 'missing',
      'Bills and decisions in one Odoo transaction (connector 1.2.0)': 'degraded',
      'Flows checked inside Odoo, and decisions with their comment in one transaction (connector 1.3.0)': 'degraded',
      'API user admin': 'ok',
      'YourCompany (company 1): tax rounding': 'ok',
      'YourCompany (company 1): sale tax 21%': 'degraded',
      'ES Company (company 2): tax rounding': 'ok',
      'ES Company (company 2): sale tax 21%': 'ok',
      'Employee for staff@demo.example': 'degraded',
    });
    expect(item(report, 'Odoo modules')).toEqual({
      feature: 'Odoo modules',
      status: 'missing',
      details: ['project: uninstalled'],
      fix: 'Install the Odoo apps project (Apps menu; installing backoffice_connector installs them too)',
    });
    expect(item(report, 'Connector module (backoffice_connector)')).toMatchObject({ details: ['state: uninstalled'], fix: INSTALL_CONNECTOR });
    expect(item(report, 'Investor types of contacts')).toEqual({
      feature: 'Investor types of contacts',
      status: 'missing',
      details: ['lacking: model x_tipo_inversor, res.partner.x_studio_tipo_inversor', 'without it the investor type field is hidden'],
      fix: INSTALL_CONNECTOR,
    });
    expect(item(report, 'Validation by team managers').details[0]).toBe(
      'lacking: account.move.pnt_account_move_team_manager_validate, account.move.pnt_account_move_team_manager_deny',
    );
    expect(item(report, 'Payment modes (OCA)')).toMatchObject({
      details: [
        'lacking: model account.payment.mode, sale.order.payment_mode_id, account.move.payment_mode_id',
        'without it orders are created without a payment mode and the list is empty',
        'account_payment_mode: uninstalled, account_payment_partner: uninstalled, account_payment_sale: uninstalled',
      ],
      fix: OCA_FIX,
    });
    expect(item(report, 'Projects').fix).toBe('Install Project (project) and the module backoffice_connector');
    expect(item(report, 'Connector fields (uploads, journal settings, notes)').details[0]).toMatch(/^lacking: res\.company\.x_facturas_journal_id, /);
    expect(item(report, 'API user admin').details[0]).toBe('Mitchell Admin, companies: YourCompany (id 1), ES Company (id 2); current: YourCompany');
    // l10n_es 17 names its 21% sale taxes '21% G' (goods), '21% S' (services) and '21% RC' (reverse charge).
    expect(item(report, 'ES Company (company 2): sale tax 21%').details[0]).toMatch(/^21% G \(consu\); 21% S \(service\)/);
    // Without the connector there are no journal settings to check.
    expect(report.items.some((one) => one.feature.endsWith('invoices journal'))).toBe(false);
    expect(hasMissing(report)).toBe(true);

    const text = formatReport(report).split('\n');
    expect(text[0]).toBe(`Odoo check of ${stock.odoo.url} (database bo_stock)`);
    expect(text[1]).toBe(`OK       Odoo: Odoo 17.0-20240709 at ${stock.odoo.url}, database 'bo_stock', login 'admin' (uid 2); Protocol: JSON-RPC (/jsonrpc), chosen from the version`);
    const at = text.indexOf('MISSING  Connector module (backoffice_connector): state: uninstalled');
    expect(text[at + 1]).toBe(`         Fix: ${INSTALL_CONNECTOR}`);
    expect(text.at(-1)).toBe('9 missing, 6 degraded');
  });

  it('with the connector module of before issue 28, the payment modes and the journals set, reports only the submission keys missing and the one-call writes degraded', async () => {
    const { client, connection, replay } = odoo(connector);
    const report = await checkOdoo(client, { connection, accounts: [{ email: 'marc.demo@example.com', active: true }] });
    expect(replay.unmatched).toEqual([]);
    expect(report.features).toEqual(PRE_KEYS);
    expect(report.items.filter((one) => one.status !== 'ok')).toEqual([
      expect.objectContaining({ feature: 'Submission keys (one record per form sent)', status: 'missing', fix: UPDATE_CONNECTOR }),
      {
        feature: 'Bills and decisions in one Odoo transaction (connector 1.2.0)',
        status: 'degraded',
        details: [
          'lacking: account.move.x_backoffice_one_call',
          'without it bills and decisions are written in several calls, undone by the background clean-up when one fails, and authored by the API user',
        ],
        fix: UPDATE_CONNECTOR,
      },
      {
        feature: 'Flows checked inside Odoo, and decisions with their comment in one transaction (connector 1.3.0)',
        status: 'degraded',
        details: ['lacking: account.move.x_backoffice_journeys', 'without it npm run odoo:check -- --journeys cannot run, and a decision with a comment is written in several calls'],
        fix: UPDATE_CONNECTOR,
      },
    ]);
    expect(formatReport(report).split('\n').at(-1)).toBe('1 missing, 2 degraded');
  });

  it('one line for wrong credentials, an unknown database, an address that is not Odoo, and an Odoo that cannot be reached', async () => {
    const wrongKey = odoo(stock, { apiKey: 'not-the-key' });
    let report = await checkOdoo(wrongKey.client, { connection: wrongKey.connection });
    expect(report.reachable).toBe(false);
    expect(report.items).toEqual([
      {
        feature: 'Odoo',
        status: 'missing',
        details: [`Odoo at ${stock.odoo.url} refused the login 'admin' on database 'bo_stock'`],
        fix: "Check ODOO_DB, ODOO_LOGIN and ODOO_API_KEY (an API key from the user's Preferences > Account Security, or the password)",
      },
    ]);
    expect(hasMissing(report)).toBe(true);

    const wrongDb = odoo(stock, { db: 'nope' });
    report = await checkOdoo(wrongDb.client, { connection: wrongDb.connection });
    expect(report.items[0].details).toEqual([`Odoo at ${stock.odoo.url} answered: database 'nope' does not exist`]);
    expect(report.items[0].fix).toBe("Check ODOO_DB: the database's name as Odoo's database manager lists it");

    const notOdoo = odoo(stock, { url: `${stock.odoo.url}/odoo` });
    report = await checkOdoo(notOdoo.client, { connection: notOdoo.connection });
    expect(report.items[0].details[0]).toBe(`${stock.odoo.url}/odoo does not answer like Odoo (HTTP 404 without a JSON-RPC answer at /jsonrpc)`);

    const closed = `http://127.0.0.1:${await freePort()}`;
    const down: OdooConnection = { url: closed, db: 'bo', login: 'admin', apiKey: 'x', timeoutMs: 2000 };
    report = await checkOdoo(new OdooClient(down), { connection: down });
    expect(report.items).toEqual([
      { feature: 'Odoo', status: 'missing', details: [`Cannot reach Odoo at ${closed} (ECONNREFUSED)`], fix: 'Check ODOO_URL, and that Odoo runs and can be reached from this server' },
    ]);
    expect(formatReport(report)).toBe(
      `Odoo check of ${closed} (database bo)\n` +
        `MISSING  Odoo: Cannot reach Odoo at ${closed} (ECONNREFUSED)\n` +
        '         Fix: Check ODOO_URL, and that Odoo runs and can be reached from this server\n' +
        '1 missing, 0 degraded',
    );
  });
});

describe('start-up check', () => {
  function logger() {
    const lines: Array<[string, string]> = [];
    const log = {
      warn: (first: unknown, second?: unknown) => lines.push(['warn', String(typeof first === 'string' ? first : second)]),
      info: (first: unknown, second?: unknown) => lines.push(['info', String(typeof first === 'string' ? first : second)]),
    } as unknown as FastifyBaseLogger;
    return { log, lines };
  }

  it('logs a warning per missing item and the summary', async () => {
    const { client, connection } = odoo(stock);
    const { log, lines } = logger();
    logReport(log, await checkOdoo(client, { connection }));
    expect(lines.filter(([level]) => level === 'warn')).toHaveLength(10);
    expect(lines).toContainEqual(['warn', `Odoo check: missing Connector module (backoffice_connector): state: uninstalled. Fix: ${INSTALL_CONNECTOR}`]);
    expect(lines).toContainEqual(['info', expect.stringMatching(/^Odoo check: degraded Payment modes \(OCA\): /)]);
    expect(lines.at(-1)).toEqual(['warn', `Odoo check of ${stock.odoo.url} (database bo_stock) (Odoo 17.0-20240709): 9 missing, 5 degraded; details: npm run odoo:check`]);
  });

  it('logs at info level what is fine, a warning for the one thing missing', async () => {
    const { client, connection } = odoo(connector);
    const { log, lines } = logger();
    logReport(log, await checkOdoo(client, { connection }));
    expect(lines).toEqual([
      ['warn', `Odoo check: missing Submission keys (one record per form sent): lacking: account.move.x_backoffice_key, sale.order.x_backoffice_key, res.partner.x_backoffice_key; without it a form sent again after a lost answer may make a second record. Fix: ${UPDATE_CONNECTOR}`],
      ['info', `Odoo check: degraded Bills and decisions in one Odoo transaction (connector 1.2.0): lacking: account.move.x_backoffice_one_call; without it bills and decisions are written in several calls, undone by the background clean-up when one fails, and authored by the API user. Fix: ${UPDATE_CONNECTOR}`],
      ['info', `Odoo check: degraded Flows checked inside Odoo, and decisions with their comment in one transaction (connector 1.3.0): lacking: account.move.x_backoffice_journeys; without it npm run odoo:check -- --journeys cannot run, and a decision with a comment is written in several calls. Fix: ${UPDATE_CONNECTOR}`],
      ['warn', `Odoo check of ${connector.odoo.url} (database ${connector.odoo.db}) (Odoo 17.0-20240709): 1 missing, 2 degraded; details: npm run odoo:check`],
    ]);
  });

  it('never fails the start: an unreachable Odoo is logged as such', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const config = loadConfig({ ERP: 'odoo', ODOO_URL: closed, ODOO_DB: 'bo', ODOO_LOGIN: 'admin', ODOO_API_KEY: 'x', ODOO_TIMEOUT_MS: '2000', DATABASE_URL: 'memory://' });
    const { log, lines } = logger();
    await checkOdooAtStart({ config, erp: { client: new OdooClient(config.odoo!) }, db }, log);
    expect(lines).toEqual([['warn', `Odoo check: Cannot reach Odoo at ${closed} (ECONNREFUSED). Check ODOO_URL, and that Odoo runs and can be reached from this server`]]);
  });
});
