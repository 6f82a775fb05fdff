/**
 * Compiles Odoo domains to parameterised PostgreSQL, over the models of a `Registry`.
 *
 * Semantics follow Odoo 17's `odoo/osv/expression.py`:
 * - prefix notation, implicit '&' between consecutive expressions, empty domain = TRUE,
 *   TRUE_LEAF [1, '=', 1] and FALSE_LEAF [0, '=', 1];
 * - '!' is pushed into the terms (distribute_not): '!' [f, '=', v] is [f, '!=', v] and so on; the operators without a
 *   negation ('=?', '=like', '=ilike') are wrapped in SQL NOT;
 * - dotted paths are rewritten as 'any' (['partner_id.name', '=', x] is ['partner_id', 'any', [['name', '=', x]]]),
 *   so a '!' in front of a path gives 'not any';
 * - false/NULL: [f, '=', false] is IS NULL (booleans: NULL or false), [f, '!=', false] IS NOT NULL (booleans: true),
 *   [f, '!=', v] with a truthy v also matches NULL, as do the negative like operators and [f, 'not in', list];
 *   'in' with false in the list matches NULL; 'in' [] is FALSE and 'not in' [] TRUE;
 * - many2one against a string (or 'in' a list of strings) is a name search on the comodel's rec name with the same
 *   (positive) operator; negative operators then select the records NOT IN those (or without a value);
 * - one2many/many2many against ids, a string (name search) or false (no/some records), and 'any'/'not any';
 * - 'ilike' and 'not ilike' ignore accents as well as case, as on an Odoo started with --unaccent (Odoo 17 folds the
 *   operators ending in 'ilike'; '=ilike', an exact match of e-mails and logins here, keeps its accents).
 *
 * Every value goes to `params`; identifiers come from the registry only and are quoted.
 */
import { FOLD_FUNCTION } from '../db/fold';
import {
  DomainError,
  type FieldDef,
  type ModelDef,
  type Registry,
  columnOf,
  comodelOf,
  describeValue,
  fieldOf,
  inverseOf,
  isRelational,
  isStored,
  many2manyOf,
  modelOf,
  quoteIdent,
  recNameOf,
} from './models';

export interface CompileDomainOptions {
  /** Alias of the model's table in the caller's query; default the table name. */
  alias?: string;
  /** Number of parameters the caller already has: placeholders start at $(paramOffset + 1). Default 0. */
  paramOffset?: number;
  /**
   * 'ilike' and 'not ilike' ignore accents (bo_unaccent on both sides, which the trigram indexes are built on).
   * Default true; false behaves as an Odoo without --unaccent (a test's stand-in for one).
   */
  foldAccents?: boolean;
  /**
   * '%' and '_' in the value of 'like'/'ilike' are wildcards, as Odoo 16-18 pass the value unescaped. Default false:
   * they match themselves (a search for '50%' finds '50%').
   */
  valueWildcards?: boolean;
}

export interface CompiledSql {
  /** A boolean SQL expression, without the WHERE keyword. */
  sql: string;
  params: unknown[];
}

export const TERM_OPERATORS = [
  '=',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  '=?',
  'in',
  'not in',
  'like',
  'not like',
  'ilike',
  'not ilike',
  '=like',
  '=ilike',
  'any',
  'not any',
] as const;

export type TermOperator = (typeof TERM_OPERATORS)[number];

const OPERATORS: ReadonlySet<string> = new Set(TERM_OPERATORS);

/** Odoo's TERM_OPERATORS_NEGATION; '=?', '=like' and '=ilike' have none and get wrapped in NOT. */
const NEGATION: Partial<Record<TermOperator, TermOperator>> = {
  '<': '>=',
  '>': '<=',
  '<=': '>',
  '>=': '<',
  '=': '!=',
  '!=': '=',
  in: 'not in',
  'not in': 'in',
  like: 'not like',
  'not like': 'like',
  ilike: 'not ilike',
  'not ilike': 'ilike',
  any: 'not any',
  'not any': 'any',
};

/** Negative operators and their positive counterpart. */
const POSITIVE: Partial<Record<TermOperator, TermOperator>> = {
  '!=': '=',
  'not in': 'in',
  'not like': 'like',
  'not ilike': 'ilike',
  'not any': 'any',
};

const LIKE_SQL: Partial<Record<TermOperator, string>> = {
  like: 'LIKE',
  'not like': 'NOT LIKE',
  ilike: 'ILIKE',
  'not ilike': 'NOT ILIKE',
  '=like': 'LIKE',
  '=ilike': 'ILIKE',
};

const COMPARISON_SQL: Partial<Record<TermOperator, string>> = { '<': '<', '<=': '<=', '>': '>', '>=': '>=' };

/** Nesting of '&'/'|'/'!' (chains of the same operator count once) and of subqueries. */
const MAX_DEPTH = 64;
const MAX_SUBQUERY_DEPTH = 16;

type Leaf = { kind: 'leaf'; left: string; operator: TermOperator; right: unknown; term: unknown };
type Node =
  | { kind: 'and' | 'or'; items: Node[]; depth: number }
  | { kind: 'not'; item: Node; depth: number }
  | { kind: 'const'; value: boolean; depth: 0 }
  | (Leaf & { depth: 0 });

interface Context {
  registry: Registry;
  params: unknown[];
  offset: number;
  rootAlias: string;
  aliases: number;
  subqueries: number;
  foldAccents: boolean;
  valueWildcards: boolean;
}

// ------------------------------------------------------------------------------------------------
// Parsing
// ------------------------------------------------------------------------------------------------

function isDomainOperator(token: unknown): token is '&' | '|' | '!' {
  return token === '&' || token === '|' || token === '!';
}

/** and/or of two freshly parsed nodes; chains of the same operator are flattened (the nodes are reused). */
function combine(kind: 'and' | 'or', first: Node, second: Node): Node {
  const node: Node = first.kind === kind ? first : { kind, items: [first], depth: first.depth + 1 };
  if (second.kind === kind) {
    for (const item of second.items) node.items.push(item);
    node.depth = Math.max(node.depth, second.depth);
  } else {
    node.items.push(second);
    node.depth = Math.max(node.depth, second.depth + 1);
  }
  if (node.depth > MAX_DEPTH) throw new DomainError(`Domain is nested too deeply (more than ${MAX_DEPTH} levels)`);
  return node;
}

function parseTerm(token: unknown, position: number): Node {
  if (!Array.isArray(token)) {
    throw new DomainError(
      `Invalid domain element at position ${position}: ${describeValue(token)} (expected '&', '|', '!' or a [field, operator, value] term)`,
    );
  }
  if (token.length !== 3) {
    throw new DomainError(
      `Invalid domain term at position ${position}: ${describeValue(token)} has ${token.length} elements, expected [field, operator, value]`,
    );
  }
  const [left, rawOperator, right] = token as [unknown, unknown, unknown];
  if (rawOperator === '=' && right === 1 && (left === 1 || left === 0)) {
    return { kind: 'const', value: left === 1, depth: 0 };
  }
  if (typeof left !== 'string' || left === '') {
    throw new DomainError(`Invalid domain term at position ${position}: ${describeValue(token)}: the field must be a non-empty string`);
  }
  if (typeof rawOperator !== 'string') {
    throw new DomainError(`Invalid domain term at position ${position}: ${describeValue(token)}: the operator must be a string`);
  }
  let operator = rawOperator.toLowerCase();
  if (operator === '<>') operator = '!=';
  if (operator === 'child_of' || operator === 'parent_of') {
    throw new DomainError(`Operator '${operator}' is not supported (term ${describeValue(token)})`);
  }
  if (!OPERATORS.has(operator)) {
    throw new DomainError(`Unknown operator ${describeValue(rawOperator)} in domain term ${describeValue(token)}`);
  }
  return { kind: 'leaf', left, operator: operator as TermOperator, right, term: token, depth: 0 };
}

/**
 * Parses a domain into a tree, checking its shape (not its fields): the prefix expression is read from the end with
 * a stack, as Odoo does, and what remains on the stack is and-ed.
 */
function parseDomain(domain: unknown): Node {
  if (!Array.isArray(domain)) throw new DomainError(`A domain must be a list, got ${describeValue(domain)}`);
  // Terms are checked first, in order, so the first bad element is the one reported.
  const tokens = domain.map((token: unknown, position) => (isDomainOperator(token) ? token : parseTerm(token, position)));
  const stack: Node[] = [];
  for (let position = tokens.length - 1; position >= 0; position -= 1) {
    const token = tokens[position];
    if (isDomainOperator(token)) {
      const arity = token === '!' ? 1 : 2;
      if (stack.length < arity) {
        throw new DomainError(
          `Malformed domain: operator '${token}' at position ${position} expects ${arity} operand${arity > 1 ? 's' : ''} and has ${stack.length}`,
        );
      }
      const first = stack.pop() as Node;
      if (token === '!') {
        const depth = first.depth + 1;
        if (depth > MAX_DEPTH) throw new DomainError(`Domain is nested too deeply (more than ${MAX_DEPTH} levels)`);
        stack.push({ kind: 'not', item: first, depth });
      } else {
        const second = stack.pop() as Node;
        stack.push(combine(token === '&' ? 'and' : 'or', first, second));
      }
    } else {
      stack.push(token);
    }
  }
  if (stack.length === 0) return { kind: 'const', value: true, depth: 0 };
  let node = stack.pop() as Node;
  while (stack.length > 0) node = combine('and', node, stack.pop() as Node);
  return node;
}

// ------------------------------------------------------------------------------------------------
// Values
// ------------------------------------------------------------------------------------------------

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

function validDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function isNullish(value: unknown): boolean {
  return value === false || value === null || value === undefined;
}

/** Odoo's truthiness, which decides whether '!=' also matches NULL. */
function truthy(value: unknown): boolean {
  return !(isNullish(value) || value === 0 || value === '');
}

function checkString(value: string, term: unknown): string {
  if (value.includes('\u0000')) throw new DomainError(`Invalid value in domain term ${describeValue(term)}: NUL characters are not allowed`);
  return value;
}

/**
 * The value a scalar column is compared with, checked against the field type. `operator` matters for datetimes:
 * a date-only value is the start of the day, or its end for '>' and '<=', as in Odoo.
 */
function scalarValue(field: FieldDef, name: string, value: unknown, term: unknown, operator: TermOperator): unknown {
  const fail = (expected: string): never => {
    throw new DomainError(`Invalid value ${describeValue(value)} for field '${name}' (${field.type}) in domain term ${describeValue(term)}: expected ${expected}`);
  };
  switch (field.type) {
    case 'char':
    case 'text':
    case 'html':
    case 'selection':
      return typeof value === 'string' ? checkString(value, term) : fail('a string');
    case 'integer':
    case 'many2one':
      return typeof value === 'number' && Number.isSafeInteger(value) ? value : fail('an integer');
    case 'float':
    case 'monetary':
      return typeof value === 'number' && Number.isFinite(value) ? value : fail('a number');
    case 'boolean':
      return typeof value === 'boolean' ? value : fail('true or false');
    case 'date': {
      const match = typeof value === 'string' ? DATE.exec(value) : null;
      if (!match || !validDate(Number(match[1]), Number(match[2]), Number(match[3]))) return fail("a date 'YYYY-MM-DD'");
      return value;
    }
    case 'datetime': {
      if (typeof value === 'string') {
        const date = DATE.exec(value);
        if (date && validDate(Number(date[1]), Number(date[2]), Number(date[3]))) {
          return `${value} ${operator === '>' || operator === '<=' ? '23:59:59' : '00:00:00'}`;
        }
        const time = DATETIME.exec(value);
        if (
          time &&
          validDate(Number(time[1]), Number(time[2]), Number(time[3])) &&
          Number(time[4]) < 24 &&
          Number(time[5]) < 60 &&
          Number(time[6]) < 60
        ) {
          return value;
        }
      }
      return fail("a datetime 'YYYY-MM-DD HH:MM:SS' (or a date 'YYYY-MM-DD')");
    }
    case 'binary':
      return fail('false (binary fields can only be tested for being set)');
    default:
      return fail('a value this field can be compared with');
  }
}

/** Escapes LIKE wildcards so the value matches literally (backslash is PostgreSQL's default LIKE escape). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

// ------------------------------------------------------------------------------------------------
// Compilation
// ------------------------------------------------------------------------------------------------

function param(ctx: Context, value: unknown): string {
  ctx.params.push(value);
  return `$${ctx.offset + ctx.params.length}`;
}

/** Above this many values, a list is sent as one array parameter (PostgreSQL allows 65535 parameters). */
const MAX_EXPANDED_LIST = 1000;

const ARRAY_TYPES: Partial<Record<FieldDef['type'], string>> = {
  char: 'text',
  text: 'text',
  html: 'text',
  selection: 'text',
  integer: 'int8',
  many2one: 'int8',
  one2many: 'int8',
  many2many: 'int8',
  float: 'float8',
  monetary: 'numeric',
  boolean: 'bool',
  date: 'date',
  datetime: 'timestamp',
};

/** `column IN (values)` / `column NOT IN (values)`, for a non-empty list of checked values of `type`. */
function inList(ctx: Context, column: string, values: unknown[], type: FieldDef['type'], negative: boolean): string {
  const arrayType = ARRAY_TYPES[type];
  if (values.length > MAX_EXPANDED_LIST && arrayType) {
    return `${column} ${negative ? '<> ALL' : '= ANY'}(${param(ctx, values)}::${arrayType}[])`;
  }
  return `${column} ${negative ? 'NOT IN' : 'IN'} (${values.map((value) => param(ctx, value)).join(', ')})`;
}

function newAlias(ctx: Context): string {
  ctx.aliases += 1;
  return quoteIdent(`${ctx.rootAlias.slice(0, 48)}__${ctx.aliases}`);
}

function enterSubquery(ctx: Context): () => void {
  ctx.subqueries += 1;
  if (ctx.subqueries > MAX_SUBQUERY_DEPTH) {
    throw new DomainError(`Domain nests too many paths or sub-domains (more than ${MAX_SUBQUERY_DEPTH} levels)`);
  }
  return () => {
    ctx.subqueries -= 1;
  };
}

function compileNode(ctx: Context, model: ModelDef, alias: string, node: Node, negate: boolean): string {
  switch (node.kind) {
    case 'const':
      return node.value !== negate ? 'TRUE' : 'FALSE';
    case 'not':
      return compileNode(ctx, model, alias, node.item, !negate);
    case 'and':
    case 'or': {
      const kind = (node.kind === 'and') !== negate ? 'AND' : 'OR';
      return `(${node.items.map((item) => compileNode(ctx, model, alias, item, negate)).join(` ${kind} `)})`;
    }
    case 'leaf':
      return compileLeaf(ctx, model, alias, node, negate);
  }
}

function leaf(left: string, operator: TermOperator, right: unknown, term: unknown): Leaf {
  return { kind: 'leaf', left, operator, right, term };
}

function compileLeaf(ctx: Context, model: ModelDef, alias: string, term: Leaf, negate: boolean): string {
  const { left, right } = term;
  const dot = left.indexOf('.');
  if (dot >= 0) {
    // Odoo 17 _anyfy_leaves: a path is an 'any' on its first field, and '!' then negates the 'any'.
    const head = left.slice(0, dot);
    const field = fieldOf(ctx.registry, model.name, head);
    if (!isRelational(field)) {
      throw new DomainError(`Field '${model.name}.${head}' is not relational: cannot follow the path '${left}' in domain term ${describeValue(term.term)}`);
    }
    const sub: Node = { ...leaf(left.slice(dot + 1), term.operator, right, term.term), depth: 0 };
    return compileAny(ctx, model, alias, head, field, negate ? 'not any' : 'any', sub);
  }

  let operator = term.operator;
  if (negate) {
    const negated = NEGATION[operator];
    if (!negated) return `(NOT ${compileLeaf(ctx, model, alias, term, false)})`;
    operator = negated;
  }

  const field = fieldOf(ctx.registry, model.name, left);
  if (field.computed) {
    throw new DomainError(`Field '${model.name}.${left}' is computed and not stored: it cannot be searched (term ${describeValue(term.term)})`);
  }

  if (operator === 'any' || operator === 'not any') {
    if (!isRelational(field)) {
      throw new DomainError(`Operator '${operator}' needs a relational field, '${model.name}.${left}' is ${field.type} (term ${describeValue(term.term)})`);
    }
    if (!Array.isArray(right)) {
      throw new DomainError(`Operator '${operator}' expects a domain (a list) as value in term ${describeValue(term.term)}`);
    }
    return compileAny(ctx, model, alias, left, field, operator, parseDomain(right));
  }

  if (operator === '=?') {
    if (isNullish(right)) return 'TRUE';
    operator = '=';
  }

  const current: Leaf = leaf(left, operator, right, term.term);
  switch (field.type) {
    case 'many2one':
      return compileMany2one(ctx, model, alias, field, current);
    case 'one2many':
    case 'many2many':
      return compileX2many(ctx, model, alias, field, current);
    default:
      return compileScalar(ctx, `${alias}.${quoteIdent(columnOf(left, field))}`, field, current);
  }
}

function compileScalar(ctx: Context, column: string, field: FieldDef, term: Leaf): string {
  const { left: name, operator, right } = term;
  const likeSql = LIKE_SQL[operator];

  if (likeSql) {
    const wildcard = operator === 'like' || operator === 'ilike' || operator === 'not like' || operator === 'not ilike';
    if (field.type === 'binary') {
      throw new DomainError(`Operator '${operator}' cannot be used on binary field '${name}' (term ${describeValue(term.term)})`);
    }
    let text: string;
    if (typeof right === 'string') text = checkString(right, term.term);
    else if (typeof right === 'number' && Number.isFinite(right)) text = String(right);
    else if (wildcard && isNullish(right)) text = '';
    else {
      throw new DomainError(`Operator '${operator}' expects a string in domain term ${describeValue(term.term)}, got ${describeValue(right)}`);
    }
    const pattern = wildcard ? `%${ctx.valueWildcards ? text : escapeLike(text)}%` : text;
    // Accents folded on both sides, the column as the trigram indexes are built (bo_unaccent(column)).
    const fold = ctx.foldAccents && (operator === 'ilike' || operator === 'not ilike');
    // '=ilike' without a wildcard is a case-insensitive equality: written so, an index on lower(column) serves it.
    const sql = operator === '=ilike' && !/[%_\\]/.test(text)
      ? `(lower(${column}::text) = lower(${param(ctx, text)}))`
      : fold
        ? `(${FOLD_FUNCTION}(${column}::text) ${likeSql} ${FOLD_FUNCTION}(${param(ctx, pattern)}))`
        : `(${column}::text ${likeSql} ${param(ctx, pattern)})`;
    // Odoo: negative like operators also match NULL, and so does a like on an empty value.
    const addNull = operator.startsWith('not ') || (wildcard && text === '');
    return addNull ? `(${sql} OR ${column} IS NULL)` : sql;
  }

  if (operator === 'in' || operator === 'not in') {
    if (!Array.isArray(right)) {
      throw new DomainError(`Operator '${operator}' expects a list in domain term ${describeValue(term.term)}, got ${describeValue(right)}`);
    }
    let values: unknown[];
    let checkNull: boolean;
    if (field.type === 'boolean') {
      for (const item of right) {
        if (typeof item !== 'boolean' && item !== null) scalarValue(field, name, item, term.term, operator);
      }
      values = [true, false].filter((value) => right.includes(value));
      checkNull = right.includes(false) || right.includes(null);
    } else {
      values = right.filter((item) => !isNullish(item)).map((item) => scalarValue(field, name, item, term.term, operator));
      checkNull = values.length < right.length;
    }
    const positive = operator === 'in';
    let sql = values.length
      ? `(${inList(ctx, column, values, field.type, !positive)})`
      : positive
        ? 'FALSE'
        : 'TRUE';
    if (positive === checkNull) sql = `(${sql} OR ${column} IS NULL)`;
    else if (!positive && checkNull) sql = `(${sql} AND ${column} IS NOT NULL)`;
    return sql;
  }

  if (Array.isArray(right)) {
    throw new DomainError(`Operator '${operator}' expects a single value, not a list, in domain term ${describeValue(term.term)} (use 'in' / 'not in')`);
  }

  if (operator === '=' || operator === '!=') {
    if (field.type === 'boolean') {
      if (!isNullish(right) && typeof right !== 'boolean') scalarValue(field, name, right, term.term, operator);
      const value = right === true;
      // [f, '=', false] and [f, '!=', true] match false and NULL; [f, '!=', false] and [f, '=', true] match true.
      return (operator === '=') === value ? `(${column} = ${param(ctx, true)})` : `(${column} IS NULL OR ${column} = ${param(ctx, false)})`;
    }
    if (isNullish(right)) return operator === '=' ? `(${column} IS NULL)` : `(${column} IS NOT NULL)`;
    const value = scalarValue(field, name, right, term.term, operator);
    if (operator === '=') return `(${column} = ${param(ctx, value)})`;
    const sql = `(${column} != ${param(ctx, value)})`;
    return truthy(right) ? `(${sql} OR ${column} IS NULL)` : sql;
  }

  const comparison = COMPARISON_SQL[operator];
  if (comparison) {
    // Odoo compares with NULL here, which matches nothing.
    if (isNullish(right)) return 'FALSE';
    const value = scalarValue(field, name, right, term.term, operator);
    return `(${column} ${comparison} ${param(ctx, value)})`;
  }

  throw new DomainError(`Operator '${operator}' cannot be used on field '${name}' (${field.type}) in term ${describeValue(term.term)}`);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string');
}

/** `SELECT alias.id FROM comodel AS alias WHERE <rec name> <positive operator> <value>`: Odoo's name_search. */
function nameSearchSubquery(ctx: Context, comodel: ModelDef, operator: TermOperator, value: unknown, term: unknown): string {
  const recName = recNameOf(ctx.registry, comodel.name);
  if (!recName) {
    throw new DomainError(`Model '${comodel.name}' has no name field to search by name (term ${describeValue(term)})`);
  }
  const leave = enterSubquery(ctx);
  const alias = newAlias(ctx);
  const where = compileLeaf(ctx, comodel, alias, leaf(recName, operator, value, term), false);
  leave();
  return `SELECT ${alias}."id" FROM ${quoteIdent(comodel.table)} AS ${alias} WHERE ${where}`;
}

const NAME_SEARCH_OPERATORS: ReadonlySet<TermOperator> = new Set<TermOperator>([
  '=',
  '!=',
  'in',
  'not in',
  'like',
  'not like',
  'ilike',
  'not ilike',
  '=like',
  '=ilike',
]);

function compileMany2one(ctx: Context, model: ModelDef, alias: string, field: FieldDef, term: Leaf): string {
  const { left: name, right } = term;
  let operator = term.operator;
  const column = `${alias}.${quoteIdent(columnOf(name, field))}`;

  if (typeof right === 'string' || isStringList(right)) {
    if (!NAME_SEARCH_OPERATORS.has(operator)) {
      throw new DomainError(`Operator '${operator}' cannot compare many2one '${model.name}.${name}' with a name (term ${describeValue(term.term)})`);
    }
    if (typeof right === 'string' && (operator === 'in' || operator === 'not in')) operator = operator === 'in' ? '=' : '!=';
    if (Array.isArray(right) && !(operator === 'in' || operator === 'not in')) {
      throw new DomainError(`Operator '${operator}' expects a single value, not a list, in domain term ${describeValue(term.term)} (use 'in' / 'not in')`);
    }
    const comodel = comodelOf(ctx.registry, model.name, name, field);
    const positive = POSITIVE[operator];
    const subquery = nameSearchSubquery(ctx, comodel, positive ?? operator, right, term.term);
    return positive ? `(${column} NOT IN (${subquery}) OR ${column} IS NULL)` : `(${column} IN (${subquery}))`;
  }
  return compileScalar(ctx, column, field, term);
}

function compileX2many(ctx: Context, model: ModelDef, alias: string, field: FieldDef, term: Leaf): string {
  const { left: name, operator, right } = term;
  const positiveOperator = POSITIVE[operator] ?? operator;
  const negative = positiveOperator !== operator;
  const comodel = comodelOf(ctx.registry, model.name, name, field);

  // What the related records must satisfy, as a function of the alias of the comodel's id column.
  let condition: ((idColumn: string) => string) | undefined;
  if (typeof right === 'string') {
    if (!NAME_SEARCH_OPERATORS.has(operator) || operator === 'in' || operator === 'not in') {
      throw new DomainError(`Operator '${operator}' cannot compare ${field.type} '${model.name}.${name}' with a name (term ${describeValue(term.term)})`);
    }
    const subquery = nameSearchSubquery(ctx, comodel, positiveOperator, right, term.term);
    condition = (idColumn) => `${idColumn} IN (${subquery})`;
  } else if (isNullish(right)) {
    if (operator !== '=' && operator !== '!=') {
      throw new DomainError(`Operator '${operator}' cannot compare ${field.type} '${model.name}.${name}' with false (term ${describeValue(term.term)})`);
    }
    // [f, '=', false]: no related record; [f, '!=', false]: some related record.
    return compileRelated(ctx, model, alias, name, field, operator === '=', undefined);
  } else {
    let ids: unknown[];
    if (operator === 'in' || operator === 'not in') {
      if (!Array.isArray(right)) {
        throw new DomainError(`Operator '${operator}' expects a list in domain term ${describeValue(term.term)}, got ${describeValue(right)}`);
      }
      ids = right.filter((item) => !isNullish(item));
    } else if (operator === '=' || operator === '!=') {
      if (Array.isArray(right)) {
        throw new DomainError(`Operator '${operator}' expects a single value, not a list, in domain term ${describeValue(term.term)} (use 'in' / 'not in')`);
      }
      ids = [right];
    } else {
      throw new DomainError(`Operator '${operator}' cannot be used on ${field.type} field '${model.name}.${name}' with ${describeValue(right)} (term ${describeValue(term.term)})`);
    }
    for (const id of ids) {
      if (typeof id !== 'number' || !Number.isSafeInteger(id)) {
        throw new DomainError(`Invalid record id ${describeValue(id)} for ${field.type} field '${model.name}.${name}' in domain term ${describeValue(term.term)}`);
      }
    }
    if (ids.length === 0) return negative ? 'TRUE' : 'FALSE';
    const type = field.type;
    condition = (idColumn) => inList(ctx, idColumn, ids, type, false);
  }
  return compileRelated(ctx, model, alias, name, field, negative, condition);
}

/**
 * Records of `model` with (or, `negative`, without) a related record through x2many `name` satisfying `condition`
 * (on the comodel's id; any related record if undefined).
 */
function compileRelated(
  ctx: Context,
  model: ModelDef,
  alias: string,
  name: string,
  field: FieldDef,
  negative: boolean,
  condition: ((idColumn: string) => string) | undefined,
): string {
  const leave = enterSubquery(ctx);
  try {
    if (field.type === 'one2many') {
      const { comodel, column } = inverseOf(ctx.registry, model.name, name, field);
      const sub = newAlias(ctx);
      const inverse = `${sub}.${quoteIdent(column)}`;
      const where = condition ? ` AND ${condition(`${sub}."id"`)}` : '';
      return `(${alias}."id" ${negative ? 'NOT IN' : 'IN'} (SELECT ${inverse} FROM ${quoteIdent(comodel.table)} AS ${sub} WHERE ${inverse} IS NOT NULL${where}))`;
    }
    const link = many2manyOf(ctx.registry, model.name, name, field);
    const rel = newAlias(ctx);
    const where = condition ? ` AND ${condition(`${rel}.${quoteIdent(link.column2)}`)}` : '';
    return `(${negative ? 'NOT EXISTS' : 'EXISTS'} (SELECT 1 FROM ${quoteIdent(link.table)} AS ${rel} WHERE ${rel}.${quoteIdent(link.column1)} = ${alias}."id"${where}))`;
  } finally {
    leave();
  }
}

function compileAny(
  ctx: Context,
  model: ModelDef,
  alias: string,
  name: string,
  field: FieldDef,
  operator: 'any' | 'not any',
  domain: Node,
): string {
  if (field.computed) {
    throw new DomainError(`Field '${model.name}.${name}' is computed and not stored: it cannot be searched`);
  }
  const comodel = comodelOf(ctx.registry, model.name, name, field);
  const negative = operator === 'not any';
  const leave = enterSubquery(ctx);
  try {
    const sub = newAlias(ctx);
    const where = compileNode(ctx, comodel, sub, domain, false);
    const selectIds = `SELECT ${sub}."id" FROM ${quoteIdent(comodel.table)} AS ${sub} WHERE ${where}`;
    if (field.type === 'many2one') {
      const column = `${alias}.${quoteIdent(columnOf(name, field))}`;
      return negative ? `(${column} NOT IN (${selectIds}) OR ${column} IS NULL)` : `(${column} IN (${selectIds}))`;
    }
    return compileRelated(ctx, model, alias, name, field, negative, (idColumn) => `${idColumn} IN (${selectIds})`);
  } finally {
    leave();
  }
}

/**
 * Compiles an Odoo domain over `model` into a boolean SQL expression (no WHERE keyword) and its parameters,
 * numbered from `$(paramOffset + 1)`. Throws DomainError for anything malformed or unknown.
 */
export function compileDomain(registry: Registry, model: string, domain: unknown, options: CompileDomainOptions = {}): CompiledSql {
  const def = modelOf(registry, model);
  const aliasName = options.alias ?? def.table;
  const alias = quoteIdent(aliasName);
  const offset = options.paramOffset ?? 0;
  if (!Number.isSafeInteger(offset) || offset < 0) throw new DomainError(`Invalid paramOffset ${describeValue(offset)}`);
  const ctx: Context = {
    registry,
    params: [],
    offset,
    rootAlias: aliasName,
    aliases: 0,
    subqueries: 0,
    foldAccents: options.foldAccents ?? true,
    valueWildcards: options.valueWildcards ?? false,
  };
  const sql = compileNode(ctx, def, alias, parseDomain(domain), false);
  return { sql, params: ctx.params };
}

const ORDER_ELEMENT = /^([A-Za-z_][A-Za-z0-9_]*)(?:\s+(asc|desc))?(?:\s+nulls\s+(first|last))?$/i;

/**
 * Compiles an Odoo order string ('invoice_date desc, id', optional 'nulls first|last') into an SQL ORDER BY list
 * (without the ORDER BY keywords). Only stored fields of the model; many2one fields sort by the id they hold.
 * An empty or missing order uses the model's default order.
 */
export function compileOrder(registry: Registry, model: string, order?: string | null, alias?: string): string {
  const def = modelOf(registry, model);
  const prefix = quoteIdent(alias ?? def.table);
  let spec: unknown = order;
  if (spec === undefined || spec === null || (typeof spec === 'string' && spec.trim() === '')) spec = def.order ?? 'id';
  if (typeof spec !== 'string') throw new DomainError(`An order must be a string, got ${describeValue(order)}`);
  return spec
    .split(',')
    .map((part) => {
      const match = ORDER_ELEMENT.exec(part.trim());
      if (!match) throw new DomainError(`Invalid order element ${describeValue(part.trim())} in ${describeValue(spec)}`);
      const [, name, direction, nulls] = match;
      const field = fieldOf(registry, model, name);
      if (!isStored(field) || field.type === 'binary') {
        throw new DomainError(`Field '${model}.${name}' cannot be used to sort (${field.computed ? 'computed' : field.type})`);
      }
      let sql = `${prefix}.${quoteIdent(columnOf(name, field))}`;
      if (direction) sql += ` ${direction.toUpperCase()}`;
      if (nulls) sql += ` NULLS ${nulls.toUpperCase()}`;
      return sql;
    })
    .join(', ');
}
