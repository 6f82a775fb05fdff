/**
 * `npm run odoo:check -- --journeys` (issue 50, item 5): the console's real flows, per company and console account,
 * run inside Odoo and undone. The calls are the ones the routes make, built by the same services (billValues,
 * orderValues, contactValues, authorOf, decisionNote), with the language and time zone a request carries; they are
 * sent to the connector's `backoffice_journeys` (1.3.0), which runs them as the API user in one savepoint and rolls it
 * back, so nothing stays in the company's books. What Odoo refuses is worded as the console words it, with the fix.
 *
 * Each account runs what its permissions let it do: a bill with its file and note (moves.create); its validation, its
 * rejection with a comment and a comment (moves.validate: on a bill made for it when it cannot make one); an order
 * with lines and taxes, confirmed (orders.create); a contact it owns (contacts.create); the payment report's read
 * (paymentReport.generate, read-only, not undone because it writes nothing).
 */
import { hasPermission } from '../../shared/domain/permissions';
import { defaultSaleTax } from '../../shared/domain/orders';
import { demoPdf } from '../erp/embedded/files';
import type { FeatureProbe } from '../erp/features';
import { fromOdooError } from '../erp/odoo/errors';
import { ErpError, type ErpClient, type ErpRecord } from '../erp/types';
import { RefusalError } from '../refusal-error';
import { refusalMessage } from '../messages';
import { loadDocuments } from '../reports/payment-report';
import { contactValues } from './contacts';
import { billValues, checkedBill } from './move-create';
import { decisionNote } from './move-decisions';
import { authorOf, signedBy } from './moves';
import { ORDER_CREATE_CONTEXT, orderValues } from './order-changes';

/** A console account as the app database keeps it. */
export interface JourneyAccount {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  active: boolean;
  permissions: string[];
  companies: number[];
}

/** One call of a flow as the connector takes it; a value {"$ref": n} is what step n answered. */
interface Step {
  label: string;
  model: string;
  method: string;
  args: unknown[];
  kwargs: Record<string, unknown>;
}

export interface JourneyLine {
  label: string;
  ok: boolean;
  /** Why it failed, as the console says it (with the fix), and Odoo's own words when Odoo refused it. */
  message?: string;
  odoo?: string;
}

export interface Journey {
  company: { id: number; name: string };
  account: string;
  lines: JourneyLine[];
}

export interface JourneyOptions {
  erp: ErpClient;
  features: FeatureProbe;
  accounts: JourneyAccount[];
  /** The API user's companies (id and name). */
  companies: Array<{ id: number; name: string }>;
  today: string;
  timeZone: string;
}

const ref = (step: number) => ({ $ref: step });
const can = (account: JourneyAccount, permission: string) => hasPermission(account.permissions, permission, () => undefined);

/** What a failure says: the console's refusal in English, with Odoo's own text when Odoo refused. */
function said(error: unknown): { message: string; odoo?: string } {
  if (error instanceof RefusalError) {
    const message = refusalMessage('en', { key: error.key, params: error.params, field: error.field, api: error.api });
    const odoo = error instanceof ErpError ? String(error.logged?.odoo ?? error.api ?? '') : '';
    return { message, ...(odoo && odoo !== message ? { odoo } : {}) };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

/** The first customer, product and 21 % sale tax the company can use, for an order (none: the order is not tried). */
async function orderMaterials(erp: ErpClient, companyId: number) {
  const usable: Array<['company_id', '=', number | false] | '|'> = ['|', ['company_id', '=', false], ['company_id', '=', companyId]];
  const [[customer], [product], taxes] = await Promise.all([
    erp.searchRead('res.partner', [['is_company', '=', true], ...usable], { fields: ['id'], limit: 1, order: 'id' }),
    erp.searchRead('product.product', [['sale_ok', '=', true], ...usable], { fields: ['list_price'], limit: 1, order: 'id' }),
    erp.searchRead('account.tax', [['type_tax_use', '=', 'sale'], ['company_id', '=', companyId]], { fields: ['name', 'amount', 'amount_type'], order: 'id' }),
  ]);
  return { customer: customer as ErpRecord | undefined, product: product as ErpRecord | undefined, tax: defaultSaleTax(taxes as Array<ErpRecord & { name?: unknown; amount?: unknown; amount_type?: unknown }>) };
}

/** The steps of one account in one company, and the refusals met while building them (the console's own checks). */
async function stepsOf(options: JourneyOptions, account: JourneyAccount, companyId: number, context: Record<string, unknown>) {
  const { erp, features, today, timeZone } = options;
  const steps: Step[] = [];
  const refused: JourneyLine[] = [];
  const person = { email: account.email, firstName: account.firstName ?? '', lastName: account.lastName ?? '' };
  const author = await authorOf(erp, person, companyId);
  const tried = async (label: string, build: () => Promise<Step[]>) => {
    try {
      steps.push(...(await build()));
    } catch (error) {
      refused.push({ label, ok: false, ...said(error) });
    }
  };
  const makesBills = can(account, 'moves.create');
  const decides = can(account, 'moves.validate');
  let bill = -1;
  if (makesBills || decides) {
    await tried(makesBills ? 'bill with its file and note' : 'a bill to decide (as the API user)', async () => {
      const move = { type: 'invoice' as const, company_id: companyId, date: today, amount: 121, concept: 'odoo:check --journeys', comment: 'Nota de comprobación', paymentStatus: 'unpaid' as const };
      const file = { name: 'comprobacion.pdf', data: demoPdf(['odoo:check --journeys', 'Total 121,00 EUR']), mimetype: 'application/pdf' as const };
      const { vals, attachment } = await billValues(erp, await checkedBill(erp, move), move, person, file);
      bill = steps.length;
      return [{ label: makesBills ? 'bill with its file and note' : 'a bill to decide (as the API user)', model: 'account.move', method: 'backoffice_create_bill', args: [[]], kwargs: { vals, attachment, note: move.comment, key: false, author, on_behalf_of: makesBills ? account.email : '', context } }];
    });
  }
  if (decides && bill >= 0) {
    const decide = (validate: boolean, comment?: string) => ({
      model: 'account.move',
      method: 'backoffice_decide',
      args: [[ref(bill)]],
      kwargs: { validate, note: decisionNote(validate, comment), author, on_behalf_of: account.email, ...(comment ? { message_type: 'comment' } : {}), context },
    });
    steps.push({ label: 'validation', ...decide(true) }, { label: 'rejection with a comment', ...decide(false, 'Comentario de comprobación') });
    steps.push({ label: 'comment', model: 'account.move', method: 'message_post', args: [[ref(bill)]], kwargs: { body: 'Comentario de comprobación', message_type: 'comment', subtype_xmlid: 'mail.mt_note', ...signedBy(author), context } });
  }
  if (can(account, 'orders.create')) {
    await tried('order with lines and taxes', async () => {
      const { customer, product, tax } = await orderMaterials(erp, companyId);
      if (!customer || !product) throw new Error('no customer or no product the company can sell: nothing to try an order with');
      const values = await orderValues(
        { erp, features },
        { order: { company_id: companyId, partner_id: customer.id, date_order: today, client_order_ref: 'odoo:check --journeys' }, lines: [{ product_id: product.id, product_uom_qty: 2, price_unit: 10, tax_id: tax ? [tax.id] : [] }] },
        { email: account.email, companies: account.companies },
        timeZone,
      );
      const order = steps.length;
      return [
        { label: 'order with lines and taxes', model: 'sale.order', method: 'create', args: [values], kwargs: { context: { ...context, ...ORDER_CREATE_CONTEXT } } },
        { label: 'order confirmed', model: 'sale.order', method: 'action_confirm', args: [[ref(order)]], kwargs: { context } },
      ];
    });
  }
  if (can(account, 'contacts.create')) {
    await tried('contact', async () => {
      const values = await contactValues({ erp, features }, { name: 'Contacto de comprobación', email: 'comprobacion@example.com', company_id: companyId }, { email: account.email, companies: account.companies });
      return [{ label: 'contact', model: 'res.partner', method: 'create', args: [values], kwargs: { context } }];
    });
  }
  return { steps, refused };
}

/** Runs every account's flows in every company it shares with the API user; answers what worked and what did not. */
export async function runJourneys(options: JourneyOptions, context: Record<string, unknown>): Promise<Journey[]> {
  const { erp, companies, accounts, today } = options;
  const journeys: Journey[] = [];
  for (const company of companies) {
    for (const account of accounts.filter((one) => one.active && one.companies.includes(company.id))) {
      const { steps, refused } = await stepsOf(options, account, company.id, context);
      const lines: JourneyLine[] = [...refused];
      if (steps.length) {
        // Each call as this Odoo names its fields (19 renamed some of the order lines'), as the client would send it.
        const named = erp as ErpClient & { seriesNamed?: (model: string, method: string, args: unknown[], kwargs: Record<string, unknown>) => Promise<[unknown[], Record<string, unknown>]> };
        const sent = await Promise.all(
          steps.map(async ({ model, method, args, kwargs }) => {
            const [asked, keywords] = named.seriesNamed ? await named.seriesNamed(model, method, args, kwargs) : [args, kwargs];
            return { model, method, args: asked, kwargs: keywords };
          }),
        );
        const outcomes = await erp.call<Array<{ ok: boolean; name?: string; message?: string; skipped?: boolean }>>('account.move', 'backoffice_journeys', [], [], { steps: sent });
        steps.forEach((step, index) => {
          const outcome = outcomes[index];
          if (outcome?.ok) lines.push({ label: step.label, ok: true });
          else if (outcome?.skipped) {
            const before = Number(/step (\d+)/.exec(outcome.message ?? '')?.[1]);
            lines.push({ label: step.label, ok: false, message: `not tried: ${steps[before]?.label ?? 'an earlier flow'} failed` });
          }
          else lines.push({ label: step.label, ok: false, ...said(fromOdooError({ name: outcome?.name, message: outcome?.message })) });
        });
      }
      if (can(account, 'paymentReport.generate')) {
        try {
          await loadDocuments(erp, company.id, today);
          lines.push({ label: 'payment report (read)', ok: true });
        } catch (error) {
          lines.push({ label: 'payment report (read)', ok: false, ...said(error) });
        }
      }
      journeys.push({ company, account: account.email, lines });
    }
  }
  return journeys;
}

/** Records of the models the flows write, counted to show that nothing stayed behind. */
export const COUNTED_MODELS = ['account.move', 'sale.order', 'res.partner', 'ir.attachment', 'mail.message'] as const;

export async function recordCounts(erp: ErpClient): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const model of COUNTED_MODELS) counts[model] = await erp.searchCount(model, [], { active_test: false });
  return counts;
}

/** The journeys for a terminal: a block per company and account, a line per flow, each failure with its reason. */
export function formatJourneys(journeys: Journey[], counts: { before: Record<string, number>; after: Record<string, number> }): string {
  const lines = ['Journeys: the console\'s flows run inside Odoo as the API user, then undone'];
  for (const journey of journeys) {
    lines.push(`${journey.company.name} (company ${journey.company.id}) as ${journey.account}:`);
    if (!journey.lines.length) lines.push('  (none of the flows checked here is among its permissions)');
    for (const line of journey.lines) {
      lines.push(`  ${(line.ok ? 'OK' : 'FAILED').padEnd(8)}${line.label}${line.message ? `: ${line.message}` : ''}`);
      if (line.odoo) lines.push(`          Odoo said: ${line.odoo.split('\n').filter(Boolean).join(' ')}`);
    }
  }
  const changed = COUNTED_MODELS.filter((model) => counts.before[model] !== counts.after[model]);
  lines.push(
    changed.length
      ? `FAILED  left behind: ${changed.map((model) => `${model} ${counts.before[model]} -> ${counts.after[model]}`).join(', ')}`
      : `OK      nothing left behind (${COUNTED_MODELS.map((model) => `${model} ${counts.after[model]}`).join(', ')})`,
  );
  const failed = journeys.flatMap((journey) => journey.lines).filter((line) => !line.ok).length;
  lines.push(failed || changed.length ? `${failed} flows failed` : 'Every flow works');
  return lines.join('\n');
}

/** Whether the journeys found something that does not work (the command's exit status). */
export function journeysFailed(journeys: Journey[], counts: { before: Record<string, number>; after: Record<string, number> }): boolean {
  return journeys.some((journey) => journey.lines.some((line) => !line.ok)) || COUNTED_MODELS.some((model) => counts.before[model] !== counts.after[model]);
}
