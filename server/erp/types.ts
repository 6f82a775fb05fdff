/**
 * The one door to the ERP: Odoo's ORM verbs with Odoo's value conventions (many2one as [id, name] or false,
 * x2many as id lists and command tuples, empty values as false, dates YYYY-MM-DD, datetimes in UTC).
 * Implemented by the embedded store and by the JSON-RPC client of a real Odoo, so route code runs on both.
 */
import type { MessageKey, MessageParams } from '../messages';
import { RefusalError } from '../refusal-error';

export type DomainTerm = [string | number, string, unknown];
export type Domain = Array<DomainTerm | '&' | '|' | '!'>;

export type ErpContext = Record<string, unknown> & { lang?: string; allowed_company_ids?: number[] };

export interface SearchOptions {
  fields?: string[];
  offset?: number;
  limit?: number;
  order?: string;
  context?: ErpContext;
}

/** A list's page: its rows and how many records match, counted up to a bound as Odoo's web client does. */
export interface PageOptions extends SearchOptions {
  /**
   * Count the matches exactly up to this many; past it the answer is `length: countLimit, limited: true` (Odoo's
   * web_search_read count_limit). Unset: count them all.
   */
  countLimit?: number;
  /** Terms only the rows must satisfy, not the count (a keyset cursor: the rows after the previous page's last). */
  after?: Domain;
  /** False: the rows only (the caller knows the count already); the answer's length is then 0. */
  count?: boolean;
}

export interface SearchPage<T extends ErpRecord = ErpRecord> {
  records: T[];
  /** How many records match the domain; `countLimit` when `limited`. */
  length: number;
  /** More than `length` records match: the count stopped at the bound. */
  limited: boolean;
}

/** One group of readGroup: the many2one value it groups (`[id, name]`, or false), how many records, the fields' sums. */
export interface GroupSums {
  group: [number, string] | false;
  count: number;
  sums: Record<string, number>;
}

export type ErpValues = Record<string, unknown>;
export type ErpRecord = Record<string, unknown> & { id: number };

export interface ErpClient {
  searchRead<T extends ErpRecord = ErpRecord>(model: string, domain: Domain, options?: SearchOptions): Promise<T[]>;
  /** How many records match; with `limit`, counted up to that many at most (Odoo 17's search_count(domain, limit)). */
  searchCount(model: string, domain: Domain, context?: ErpContext, limit?: number): Promise<number>;
  /** A page of rows and the bounded count in one round trip, where the ERP can (see searchPage in erp/page.ts). */
  searchPage?<T extends ErpRecord = ErpRecord>(model: string, domain: Domain, options: PageOptions): Promise<SearchPage<T>>;
  read<T extends ErpRecord = ErpRecord>(model: string, ids: number[], fields?: string[], context?: ErpContext): Promise<T[]>;
  /**
   * The sums of stored number fields over every record of the domain, per value of one many2one (Odoo's read_group
   * with lazy=False, formatted_read_group from 19), computed by the ERP's database, never by reading the records.
   */
  readGroup(model: string, domain: Domain, options: { groupBy: string; sums: string[]; context?: ErpContext }): Promise<GroupSums[]>;
  create(model: string, values: ErpValues, context?: ErpContext): Promise<number>;
  write(model: string, ids: number[], values: ErpValues, context?: ErpContext): Promise<boolean>;
  unlink(model: string, ids: number[], context?: ErpContext): Promise<boolean>;
  nameSearch(
    model: string,
    name: string,
    options?: { domain?: Domain; operator?: string; limit?: number; context?: ErpContext },
  ): Promise<Array<[number, string]>>;
  /** A public model method, e.g. sale.order action_confirm or account.move message_post. */
  call<T = unknown>(model: string, method: string, ids: number[], args?: unknown[], kwargs?: Record<string, unknown>): Promise<T>;
  /** The ERP's Odoo major version (16, 17, 18...); the embedded store behaves as 17. */
  version?(): Promise<number>;
  /** A GET of a path of the ERP's web server (a report), with the server's credentials; only a real Odoo has one. */
  download?(path: string): Promise<{ status: number; contentType: string; body: Buffer }>;
}

/**
 * What the ERP refused or failed at, by Odoo's exception names, and two refusals of this layer's own: `conflict` (a
 * record changed since it was read, a submission key another's) and, among `setup`, companies the ERP does not give
 * the server. `credentials`: the ERP refused the server's own API key (Odoo's AccessDenied), the administrator's to fix,
 * not the user's permission problem. `setup`: the ERP's configuration refuses what the console asked (an API user
 * without an e-mail, a journal without an account), with a message naming the fix. What each is answered with over
 * HTTP is the routes' (server/routes/support/refusals.ts).
 */
export type ErpErrorKind = 'access' | 'validation' | 'user' | 'missing' | 'unavailable' | 'credentials' | 'setup' | 'conflict';

export interface ErpErrorOptions {
  cause?: unknown;
  /** A refusal of ours about the ERP: its message key (and parameters) instead of the kind's. */
  key?: MessageKey;
  params?: MessageParams;
  field?: string;
  /** The ERP's own text, kept for the log when the message is the catalogue's. */
  logged?: Record<string, unknown>;
  /** Worded by the catalogue alone (no API wording of its own): a refusal of this layer's, not the ERP's text. */
  catalogue?: boolean;
}

/**
 * What the ERP refused or failed at, as a refusal (server/refusal-error.ts): Odoo's own texts (a UserError, a
 * ValidationError) pass through as Odoo said them, in the language of the request's context; an unreachable ERP is
 * `erp.unavailable` in the request's language; a refusal of ours about the ERP names its own message key.
 */
export class ErpError extends RefusalError {
  readonly kind: ErpErrorKind;
  constructor(kind: ErpErrorKind, message: string, options: ErpErrorOptions = {}) {
    const key = options.key ?? (kind === 'unavailable' ? 'erp.unavailable' : (`erp.${kind}` as MessageKey));
    const params = options.key ? (options.params ?? {}) : kind === 'unavailable' || kind === 'credentials' ? {} : { message };
    // A catalogue message of ours answers scripts in the catalogue's words too; the ERP's own text goes to the log.
    super(key, params, { api: options.logged || options.catalogue ? undefined : message, field: options.field, cause: options.cause, logged: options.logged });
    this.name = 'ErpError';
    this.kind = kind;
  }
}

/** The ERP (or its setup) failing, not refusing the request: what the logs tell. */
export function erpFailed(error: ErpError): boolean {
  return error.kind === 'unavailable' || error.kind === 'credentials' || error.kind === 'setup';
}

/** A refusal of this layer's own, worded by the message catalogue. */
export function erpRefusal(kind: ErpErrorKind, key: MessageKey, params: MessageParams = {}, field?: string): ErpError {
  return new ErpError(kind, '', { key, params, field, catalogue: true });
}

export const ERP_UNAVAILABLE = 'ERP unavailable';
export const ERP_CREDENTIALS = "The ERP refused the server's credentials";
