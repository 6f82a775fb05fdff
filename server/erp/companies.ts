/**
 * The companies the ERP lets the server work in (issue 28): on Odoo, the API user's allowed companies. A console
 * account may name a company the API user lacks; Odoo then answers an access error, or (outside an
 * allowed_company_ids context) silently nothing, because its multi-company rules hide the records. The console says
 * so instead: users cannot be given such a company; a list or form over several companies runs over those the ERP
 * gives and names the others (a warning in the console); one over refused companies alone, and the payment report's
 * part for one, are refused naming it.
 */
import { ErpError, type Domain, type ErpClient, type ErpRecord, type PageOptions, type SearchOptions } from './types';

/** How long the ERP's answer is kept: a company given to the API user in Odoo counts within this long. */
const KEEP_MS = 30_000;

export interface CompanyAccess {
  /** The ids of the companies the ERP gives the server. */
  ids(): Promise<Set<number>>;
  /** Of `wanted`, those the ERP does not give the server, in ascending order. */
  refused(wanted: readonly number[]): Promise<number[]>;
}

const cache = new WeakMap<ErpClient, CompanyAccess>();

/**
 * The ERP's companies for this client, asked at most every 30 s. On Odoo: the companies of the user `login` names
 * (res.users company_ids; an administrator's res.company search would list companies it is not allowed in); when that
 * user is not visible (an API key of another user), every company the API user can read.
 */
export function companyAccess(erp: ErpClient, login?: string): CompanyAccess {
  const known = cache.get(erp);
  if (known) return known;
  let held: { at: number; ids: Promise<Set<number>> } | null = null;
  const load = async (): Promise<Set<number>> => {
    if (login) {
      const [user] = await erp.searchRead('res.users', [['login', '=', login]], { fields: ['company_ids'], limit: 1 });
      if (user && Array.isArray(user.company_ids)) return new Set((user.company_ids as unknown[]).map(Number));
    }
    const companies = await erp.searchRead('res.company', [], { fields: ['id'] });
    return new Set(companies.map((company) => company.id));
  };
  const access: CompanyAccess = {
    ids() {
      if (!held || Date.now() - held.at > KEEP_MS) {
        const ids = load();
        const entry = { at: Date.now(), ids };
        held = entry;
        // A failed answer is not kept: the next call asks again.
        ids.catch(() => {
          if (held === entry) held = null;
        });
      }
      return held.ids;
    },
    async refused(wanted) {
      const ids = await access.ids();
      return [...new Set(wanted)].filter((id) => !ids.has(id)).sort((a, b) => a - b);
    },
  };
  cache.set(erp, access);
  return access;
}

/** The refusal of a request over companies the ERP does not give the server: the administrator's to fix. */
export class CompanyRefusedError extends ErpError {
  readonly companies: number[];
  constructor(companies: number[]) {
    super('setup', '', { key: 'erp.companyRefused', params: { companies }, field: 'companies', catalogue: true });
    this.name = 'CompanyRefusedError';
    this.companies = companies;
  }
}

type Allowed = Set<number> | 'any';
const meet = (a: Allowed, b: Allowed): Allowed => (a === 'any' ? b : b === 'any' ? a : new Set([...a].filter((id) => b.has(id))));
const join = (a: Allowed, b: Allowed): Allowed => (a === 'any' || b === 'any' ? 'any' : new Set([...a, ...b]));

/** The companies one term lets through: `company_id = false` none (records without a company), a non-company term any. */
function termAllows(term: unknown): Allowed {
  if (!Array.isArray(term) || term[0] !== 'company_id') return 'any';
  const [, operator, value] = term;
  if (operator === '=' && typeof value === 'number') return new Set([value]);
  if (operator === '=' && value === false) return new Set();
  if (operator === 'in' && Array.isArray(value)) return new Set(value.filter((one): one is number => typeof one === 'number'));
  return 'any';
}

/** The company ids a domain restricts `company_id` to (`=` and `in` terms, wherever they stand). */
export function companyIdsOf(domain: Domain): number[] {
  return domain.flatMap((term) => {
    const allowed = termAllows(term);
    return allowed === 'any' ? [] : [...allowed];
  });
}

/**
 * The companies a search is over, read from its domain as Odoo reads it (prefix `&`, `|`, `!`; terms joined by "and"
 * otherwise): a filter on a company the user does not have, next to the user's companies, leaves none.
 */
function companiesAsked(domain: Domain, ids: number[]): number[] {
  let at = 0;
  const next = (): Allowed => {
    const term = domain[at++];
    if (term === '&') return meet(next(), next());
    if (term === '|') return join(next(), next());
    if (term === '!') {
      next();
      return 'any';
    }
    return termAllows(term);
  };
  let allowed: Allowed = 'any';
  while (at < domain.length) allowed = meet(allowed, next());
  return allowed === 'any' ? [...new Set(ids)] : [...allowed];
}

/** The positions of a domain's terms that stand under `|` or `!`: one alternative among others, not the whole search's. */
function alternatives(domain: Domain): Set<number> {
  const nested = new Set<number>();
  let at = 0;
  const walk = (under: boolean): void => {
    const index = at++;
    const term = domain[index];
    if (term === '&' || term === '|') {
      walk(under || term === '|');
      walk(under || term === '|');
    } else if (term === '!') walk(true);
    else if (under) nested.add(index);
  };
  while (at < domain.length) walk(false);
  return nested;
}

/**
 * The domain without the companies refused, or null when a company term is left with none (the search would be over
 * refused companies alone). An `=` term naming a refused company, or an `in` term with only refused ones, is such a
 * term: it is the user's own choice of company, which nothing else can answer. Such a term that is one alternative
 * among others (the moves list's companies by id or by name) matches nothing instead, and the others still answer.
 */
export function withoutCompanies(domain: Domain, refused: ReadonlySet<number>): Domain | null {
  const nested = alternatives(domain);
  const kept: Domain = [];
  for (const [index, term] of domain.entries()) {
    if (!Array.isArray(term) || term[0] !== 'company_id') {
      kept.push(term);
      continue;
    }
    const [field, operator, value] = term;
    if (operator === '=' && typeof value === 'number' && refused.has(value)) {
      if (!nested.has(index)) return null;
      kept.push([field, 'in', []]);
      continue;
    }
    if (operator === 'in' && Array.isArray(value)) {
      const left = value.filter((one) => !(typeof one === 'number' && refused.has(one)));
      if (!left.length && value.length && !nested.has(index)) return null;
      kept.push([field, operator, left]);
      continue;
    }
    kept.push(term);
  }
  return kept;
}

/**
 * The ERP as the routes see it: a search over companies some of which the ERP does not give the server runs over the
 * others, and the request is told which were left out (`leftOut`, said to the console in a response header); one over
 * refused companies alone is refused naming them (502), where Odoo would answer an empty list or an access error.
 * Other calls pass through.
 */
export function guardCompanies(erp: ErpClient, access: CompanyAccess = companyAccess(erp), leftOut: (companies: number[]) => void = () => undefined): ErpClient {
  const check = async (model: string, domain: Domain): Promise<Domain> => {
    if (model === 'res.company' || model === 'res.users') return domain;
    const ids = companyIdsOf(domain);
    if (!ids.length) return domain;
    const wanted = companiesAsked(domain, ids);
    // Terms that no company satisfies together (a filter on a company the user does not have): the search is
    // empty whatever the ERP gives the server, and is left to answer so.
    if (!wanted.length) return domain;
    // Every company named is dropped from the `in` lists (Odoo would only match nothing there); the user is told of
    // those they asked for, and refused when those are all they asked for.
    const refused = await access.refused(ids);
    if (!refused.length) return domain;
    const refusedAsked = wanted.filter((id) => refused.includes(id)).sort((a, b) => a - b);
    if (refusedAsked.length === wanted.length) throw new CompanyRefusedError(refusedAsked);
    const kept = withoutCompanies(domain, new Set(refused));
    if (!kept) throw new CompanyRefusedError(refusedAsked.length ? refusedAsked : refused);
    if (refusedAsked.length) leftOut(refusedAsked);
    return kept;
  };
  const overrides: Partial<ErpClient> = {
    searchRead: async <T extends ErpRecord = ErpRecord>(model: string, domain: Domain, options?: SearchOptions) => {
      return erp.searchRead<T>(model, await check(model, domain), options);
    },
    searchCount: async (model, domain, context, limit) => {
      return erp.searchCount(model, await check(model, domain), context, limit);
    },
    readGroup: async (model, domain, options) => {
      return erp.readGroup(model, await check(model, domain), options);
    },
  };
  if (erp.searchPage) {
    overrides.searchPage = async <T extends ErpRecord = ErpRecord>(model: string, domain: Domain, options: PageOptions) => {
      return erp.searchPage!<T>(model, await check(model, domain), options);
    };
  }
  // Everything else is the ERP's own, called on it (its methods keep their `this`).
  const guarded = new Proxy(erp, {
    get(target, name) {
      if (typeof name === 'string' && Object.hasOwn(overrides, name)) return overrides[name as keyof ErpClient];
      const value = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  cache.set(guarded, access);
  return guarded;
}
