/**
 * Searches that ignore accents on a real Odoo, whether or not it was started with --unaccent.
 *
 * With --unaccent (and PostgreSQL's unaccent extension), Odoo's 'ilike' already ignores accents: terms go as typed.
 * Without it, 'telefonica' would not find 'Telefónica'. Sending every accented spelling of the term is exponential
 * in its letters; instead each accent-sensitive `[field, 'ilike', term]` is widened to
 *   '|', [field, 'ilike', term], ['id', 'in', <ids that only differ in accents>]
 * where those ids come from one search_read beforehand, on patterns linear in the term's length: the term with every
 * letter that has accented forms replaced by '_' (ilike's one-character wildcard, which Odoo 16 to 18 pass through
 * unescaped), and one of: for each such letter, the term with that letter replaced by one of its other forms and the
 * others by '_' (a pattern per form); minus the records the term finds as typed. The all-'_' pattern comes first, so
 * the database tries the others only on the few rows it lets through. What the patterns let through is checked here,
 * exactly (the value without accents and case, against the term's), so the list, its count and its pages stay Odoo's.
 * 'not ilike' is narrowed the same way ('&', term, ['id', 'not in', ids]); a path 'partner_id.name' searches the
 * partners and adds [partner_id, 'in', ids]. Should more than MAX_CANDIDATES records differ only in accents (a short
 * term on a large table), the patterns themselves are sent instead of ids: everything the term finds ignoring
 * accents is found, with perhaps a few records whose other letters are not the term's.
 *
 * Whether the Odoo ignores accents itself is asked once (ODOO_UNACCENT=auto): Réunion, a country of Odoo's own data,
 * found as 'reunion'. ODOO_UNACCENT=yes or no says it instead.
 */
import { ACCENTED, likeMatches, searchKey } from '../../../shared/domain/search';
import { PRODUCT_REGISTRY } from '../product-models';
import type { FieldDef } from '../models';
import { ErpError, type Domain, type DomainTerm, type ErpContext, type ErpRecord, type SearchOptions } from '../types';

export type UnaccentSetting = 'auto' | 'yes' | 'no';

/** Records read to check which differ only in accents; past this, the patterns are sent as they are. */
export const MAX_CANDIDATES = 2000;
/** Patterns per term beside the all-'_' one; a longer term is widened by that one alone. */
const MAX_PATTERNS = 150;

/** The raw calls the widening needs (not widened again). */
export interface RawSearch {
  searchRead<T extends ErpRecord = ErpRecord>(model: string, domain: Domain, options?: SearchOptions): Promise<T[]>;
  searchCount(model: string, domain: Domain, context?: ErpContext, limit?: number): Promise<number>;
}

type Token = { kind: 'letter'; text: string } | { kind: 'escaped'; text: string } | { kind: 'any' } | { kind: 'one' };

/** Every form of each base letter: the plain one first, then the accented ones. */
const FORMS = new Map<string, readonly string[]>(Object.entries(ACCENTED).map(([base, accented]) => [base, [base, ...accented]]));

/** The base letter of a typed character ('Ó' -> 'o'), when it has accented forms. */
function baseOf(char: string): string | undefined {
  const base = searchKey(char);
  return base.length === 1 && FORMS.has(base) ? base : undefined;
}

/** A value as Odoo's ilike reads it: '%' and '_' are wildcards, a backslash makes the next character plain. */
function tokens(value: string): Token[] {
  const out: Token[] = [];
  for (let at = 0; at < value.length; at++) {
    const char = value[at];
    if (char === '\\' && at + 1 < value.length) out.push({ kind: 'escaped', text: value[++at] });
    else if (char === '%') out.push({ kind: 'any' });
    else if (char === '_') out.push({ kind: 'one' });
    else out.push({ kind: 'letter', text: char });
  }
  return out;
}

function written(parts: Token[]): string {
  return parts.map((part) => (part.kind === 'any' ? '%' : part.kind === 'one' ? '_' : part.kind === 'escaped' ? `\\${part.text}` : part.text)).join('');
}

/**
 * The ilike patterns that find every record matching `value` but for accents and not matching it as typed (and some
 * others, checked afterwards): `wild`, every letter with accented forms as '_', and `each`, that letter in each of
 * its other forms (none when they would be too many: `wild` alone then). Undefined when no letter has accented forms.
 */
export function accentPatterns(value: string): { wild: string; each: string[] } | undefined {
  const parts = tokens(value);
  const positions = parts.flatMap((part, at) => (part.kind === 'letter' && baseOf(part.text) ? [at] : []));
  if (!positions.length) return undefined;
  const wild = (except: number) => parts.map((part, at): Token => (at !== except && positions.includes(at) ? { kind: 'one' } : part));
  const each: string[] = [];
  for (const at of positions) {
    const typed = (parts[at] as { text: string }).text;
    for (const form of FORMS.get(baseOf(typed)!)!) {
      // Plain letters are compared without case by any database; accented capitals too, unless its character type is C.
      for (const cased of /^[a-z]$/.test(form) || form === form.toUpperCase() ? [form] : [form, form.toUpperCase()]) {
        if (cased === typed || (/^[a-z]$/.test(cased) && cased === typed.toLowerCase())) continue;
        const pattern = wild(at);
        pattern[at] = { kind: 'letter', text: cased };
        each.push(written(pattern));
      }
    }
  }
  return { wild: written(wild(-1)), each: each.length <= MAX_PATTERNS ? each : [] };
}

type Patterns = NonNullable<ReturnType<typeof accentPatterns>>;

/** `'|', a, '|', b, c` for [a, b, c]. */
function anyOf(terms: DomainTerm[]): Domain {
  return [...terms.slice(1).map(() => '|' as const), ...terms];
}

/** The field matching the all-'_' pattern and one of the others: a domain of one operand (an '&'). */
function likeAny(field: string, { wild, each }: Patterns): Domain {
  const first: DomainTerm = [field, 'ilike', wild];
  return each.length ? ['&', first, ...anyOf(each.map((pattern): DomainTerm => [field, 'ilike', pattern]))] : [first];
}

const TEXT_TYPES = new Set<FieldDef['type']>(['char', 'text', 'html']);

/**
 * Where an ilike term searches, when the product knows the field as text: the model and field, and the many2one
 * the path goes through ('partner_id.name' on account.move: res.partner's name, through partner_id).
 */
function target(model: string, left: string): { model: string; field: string; through?: string } | undefined {
  const field = (name: string, on: string) => (Object.prototype.hasOwnProperty.call(PRODUCT_REGISTRY, on) && Object.prototype.hasOwnProperty.call(PRODUCT_REGISTRY[on].fields, name) ? PRODUCT_REGISTRY[on].fields[name] : undefined);
  const parts = left.split('.');
  if (parts.length === 1) {
    const def = field(left, model);
    return def && TEXT_TYPES.has(def.type) && !def.computed ? { model, field: left } : undefined;
  }
  if (parts.length !== 2) return undefined;
  const head = field(parts[0], model);
  if (head?.type !== 'many2one' || !head.relation) return undefined;
  const tail = field(parts[1], head.relation);
  return tail && TEXT_TYPES.has(tail.type) && !tail.computed ? { model: head.relation, field: parts[1], through: parts[0] } : undefined;
}

export class AccentSearch {
  private folds: Promise<boolean> | null;

  constructor(
    private readonly raw: RawSearch,
    setting: UnaccentSetting = 'auto',
  ) {
    this.folds = setting === 'auto' ? null : Promise.resolve(setting === 'yes');
  }

  /** Whether Odoo's ilike ignores accents itself: Réunion (Reunión in Spanish) found as 'reunion'. */
  private odooFolds(): Promise<boolean> {
    if (!this.folds) {
      this.folds = this.raw.searchCount('res.country', [['code', '=ilike', 're'], ['name', 'ilike', 'reunion']]).then(
        (found) => found > 0,
        (error: unknown) => {
          // Odoo unreachable: asked again next time. Any other answer: the widening, which is right either way.
          if (error instanceof ErpError && error.kind === 'unavailable') {
            this.folds = null;
            throw error;
          }
          return false;
        },
      );
    }
    return this.folds;
  }

  /** The domain with each accent-sensitive ilike term widened (see above); the same domain when nothing needs it. */
  async widen(model: string, domain: Domain, context?: ErpContext): Promise<Domain> {
    if (!Array.isArray(domain)) return domain;
    const sensitive = domain.flatMap((term, at) => {
      if (!Array.isArray(term) || typeof term[0] !== 'string' || typeof term[2] !== 'string') return [];
      const operator = String(term[1]).toLowerCase();
      if (operator !== 'ilike' && operator !== 'not ilike') return [];
      const where = target(model, term[0]);
      const patterns = where && accentPatterns(term[2]);
      return where && patterns ? [{ at, term: term as DomainTerm, operator, where, patterns }] : [];
    });
    if (!sensitive.length || (await this.odooFolds())) return domain;
    const widened = await Promise.all(
      sensitive.map(async ({ term, operator, where, patterns }): Promise<Domain> => {
        const column = where.through ?? 'id';
        const found = await this.differingInAccents(where.model, where.field, term[2] as string, patterns, context);
        if (found === 'too many') {
          // Sent as patterns: on the path's own field ('partner_id.name'), not on the partners' ids.
          const wide = likeAny(term[0] as string, patterns);
          return operator === 'ilike' ? ['|', term, ...wide] : ['&', term, '!', ...wide];
        }
        if (!found.length) return [term];
        return operator === 'ilike' ? ['|', term, [column, 'in', found]] : ['&', term, [column, 'not in', found]];
      }),
    );
    const replaced = new Map(sensitive.map((one, index) => [one.at, widened[index]]));
    return domain.flatMap((term, at) => replaced.get(at) ?? [term]);
  }

  /** Ids of `model` whose `field` matches `value` ignoring accents but not as typed; 'too many' past the bound. */
  private async differingInAccents(model: string, field: string, value: string, patterns: Patterns, context?: ErpContext): Promise<number[] | 'too many'> {
    const candidates = await this.raw.searchRead(model, [...likeAny(field, patterns), [field, 'not ilike', value]], {
      fields: [field],
      limit: MAX_CANDIDATES + 1,
      order: 'id',
      // As Odoo follows a many2one path: archived records too (the list's own domain still applies to its rows).
      context: { ...context, active_test: false },
    });
    if (candidates.length > MAX_CANDIDATES) return 'too many';
    return candidates.filter((record) => typeof record[field] === 'string' && likeMatches(record[field] as string, `%${value}%`)).map((record) => record.id);
  }
}
