/**
 * What the connected ERP offers, asked at run time so the server degrades per feature instead of failing: an Odoo
 * without the OCA payment modes answers an empty list and orders go without `payment_mode_id`, one without the
 * investor types hides that field, and so on. Asked through the ErpClient only (`fields_get`), so it works the
 * same on the embedded store and on a real Odoo.
 *
 * Usage from a route: `const features = featureProbe(erp)` once when the routes are registered, then
 * `if ((await features.get()).paymentModes) ...` per request; the answer is cached (5 minutes by default).
 */
import { ErpError, type ErpClient } from './types';

export interface ErpFeatures {
  /** OCA account_payment_mode + account_payment_partner + account_payment_sale: the model and `payment_mode_id` on orders and moves. */
  paymentModes: boolean;
  /** `x_tipo_inversor` and `res.partner.x_studio_tipo_inversor` (connector module). */
  investorTypes: boolean;
  /** `x_evento_contactos` and `res.partner.from_event_assistant` (connector module). */
  events: boolean;
  /** `project.project` (project module) and `account.move.project_id` (connector module). */
  projects: boolean;
  /** The team manager's validate/deny flags on `account.move` (connector module). */
  moveValidation: boolean;
  /** `account.move.x_payment_status`, the payment status stated on upload (connector module). */
  declaredPaymentStatus: boolean;
  /** `res.partner.x_studio_owner_employee` (connector module). */
  ownerEmployee: boolean;
  /** `sale.order.margin` (sale_margin module). */
  orderMargins: boolean;
  /** `x_backoffice_key` on bills, orders and contacts (connector module): a form sent twice makes one record. */
  submissionKeys: boolean;
  /**
   * The connector's one-call writes (1.2.0 on): `account.move.backoffice_create_bill` and `backoffice_decide`, each one
   * Odoo transaction, writing as the console user's Odoo user where there is one. Methods are not in `fields_get`:
   * the probe asks for `x_backoffice_one_call`, a field added by the same connector version, so it needs no call of
   * its own (the recordings of older connectors replay unchanged), works for any API user that may read moves (unlike
   * ir.module.module, readable by administrators only) and on the embedded store, which declares the field.
   */
  oneCallWrites: boolean;
  /**
   * Connector 1.3.0 (issue 50): `account.move.backoffice_journeys`, the flows of `npm run odoo:check -- --journeys` run
   * and undone inside Odoo, and `backoffice_decide`'s `message_type` (a decision that carries the manager's comment is
   * a person's message). Found by its field `x_backoffice_journeys`, as oneCallWrites is.
   */
  journeys: boolean;
}

export type FieldInfo = { type: string; relation?: string | false; string?: string };
/** A model's fields as `fields_get` answers them, or null when the model does not exist. */
export type ModelFields = Record<string, FieldInfo> | null;

/**
 * The fields each feature needs, by model; an empty list: the model itself. The single source for the probe and
 * for `npm run odoo:check`. A field a resource declaration reads from a feature's model is listed here
 * (test/unit/declared-models.test.ts), as the payment modes' name is.
 */
export const FEATURE_FIELDS: Record<keyof ErpFeatures, Record<string, string[]>> = {
  paymentModes: { 'account.payment.mode': ['name'], 'sale.order': ['payment_mode_id'], 'account.move': ['payment_mode_id'] },
  investorTypes: { x_tipo_inversor: ['x_name', 'x_studio_tipo_inversor_descripcion'], 'res.partner': ['x_studio_tipo_inversor'] },
  events: { x_evento_contactos: ['x_name', 'event_id', 'x_tag_ids'], 'res.partner': ['from_event_assistant'] },
  projects: { 'project.project': ['name', 'company_id'], 'account.move': ['project_id'] },
  moveValidation: { 'account.move': ['pnt_account_move_team_manager_validate', 'pnt_account_move_team_manager_deny'] },
  declaredPaymentStatus: { 'account.move': ['x_payment_status'] },
  ownerEmployee: { 'res.partner': ['x_studio_owner_employee'] },
  orderMargins: { 'sale.order': ['margin'] },
  submissionKeys: { 'account.move': ['x_backoffice_key'], 'sale.order': ['x_backoffice_key'], 'res.partner': ['x_backoffice_key'] },
  oneCallWrites: { 'account.move': ['x_backoffice_one_call'] },
  journeys: { 'account.move': ['x_backoffice_journeys'] },
};

export const FEATURE_NAMES = Object.keys(FEATURE_FIELDS) as Array<keyof ErpFeatures>;

/**
 * Whether an error means "this model does not exist here": Odoo answers a UserError "Object x doesn't exist"
 * (in the API user's language: "El objeto x no existe"); the embedded store a validation error "Unknown model 'x'".
 */
export function isMissingModelError(error: unknown): boolean {
  if (!(error instanceof ErpError) || (error.kind !== 'user' && error.kind !== 'validation')) return false;
  return /doesn't exist|does not exist|no existe|unknown model/i.test(error.message);
}

/**
 * How many calls the start-up check and the feature probe keep in flight at once. They ask fields_get of some 25
 * models: all at once, a threaded Odoo on a busy machine (16 and 18, live) took 30-70 s over each, and the first
 * screen a user opened meanwhile waited behind them past its time limit ('ERP unavailable').
 */
export const ERP_CONCURRENCY = 3;

/** `fn` over `items`, at most `limit` at a time; the answers in the items' order; rejects with the first failure. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const answers = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      answers[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return answers;
}

/** `fields_get` of one model (type and relation of each field), or null when the model is absent. */
export async function fieldsOf(erp: ErpClient, model: string): Promise<ModelFields> {
  try {
    // fields_get is an @api.model method: the empty first positional argument is `allfields=[]`, meaning all.
    return await erp.call<Record<string, FieldInfo>>(model, 'fields_get', [], [], { attributes: ['type', 'relation'] });
  } catch (error) {
    // fields_get raises no UserError of its own: one here is Odoo's "Object x doesn't exist", whatever the language.
    if (isMissingModelError(error) || (error instanceof ErpError && error.kind === 'user')) return null;
    throw error;
  }
}

/** Whether every model and field listed is present in the `fields_get` answers given. */
export function hasAll(fields: Record<string, ModelFields>, required: Record<string, string[]>): boolean {
  return Object.entries(required).every(([model, names]) => {
    const present = fields[model];
    return Boolean(present) && names.every((name) => Boolean(present![name]));
  });
}

/** The features from `fields_get` answers (a model missing from `fields` counts as absent). */
export function featuresFrom(fields: Record<string, ModelFields>): ErpFeatures {
  return Object.fromEntries(FEATURE_NAMES.map((name) => [name, hasAll(fields, FEATURE_FIELDS[name])])) as unknown as ErpFeatures;
}

/** The models the probe asks about. */
export const PROBED_MODELS = [...new Set(FEATURE_NAMES.flatMap((name) => Object.keys(FEATURE_FIELDS[name])))];

/** Asks the ERP once for every probed model. Any error other than "no such model" is thrown. */
export async function probeFeatures(erp: ErpClient): Promise<{ features: ErpFeatures; fields: Record<string, ModelFields> }> {
  const answers = await mapLimited(PROBED_MODELS, ERP_CONCURRENCY, async (model) => [model, await fieldsOf(erp, model)] as const);
  const fields = Object.fromEntries(answers);
  return { features: featuresFrom(fields), fields };
}

export interface FeatureProbe {
  /** The ERP's features, from the cache when fresh; concurrent callers share one probe. ERP failures are thrown, not cached. */
  get(): Promise<ErpFeatures>;
  /** Forgets the cached answer (after installing a module, for instance). */
  invalidate(): void;
}

export function featureProbe(erp: ErpClient, options: { ttlMs?: number; now?: () => number } = {}): FeatureProbe {
  const ttlMs = options.ttlMs ?? 5 * 60_000;
  const now = options.now ?? Date.now;
  let cached: { features: ErpFeatures; at: number } | null = null;
  let running: Promise<ErpFeatures> | null = null;
  let generation = 0;

  return {
    get() {
      if (cached && now() - cached.at < ttlMs) return Promise.resolve(cached.features);
      if (!running) {
        const mine = generation;
        running = probeFeatures(erp).then(
          ({ features }) => {
            if (mine === generation) {
              cached = { features, at: now() };
              running = null;
            }
            return features;
          },
          (error: unknown) => {
            if (mine === generation) running = null;
            throw error;
          },
        );
      }
      return running;
    },
    invalidate() {
      generation += 1;
      cached = null;
      running = null;
    },
  };
}
