/**
 * Types describing Odoo models for the embedded store, and the lookups the store and the domain compiler share.
 *
 * Everything that ends up as an SQL identifier (tables, columns, link tables) comes from a `Registry` written in
 * code; names that arrive in a request (field names in domains, order strings) are only ever used as keys to look
 * definitions up here, and the identifier that reaches SQL is the registry's, quoted by `quoteIdent`.
 */
import { ErpError } from './types';

export type FieldType =
  | 'char'
  | 'text'
  | 'html'
  | 'integer'
  | 'float'
  | 'monetary'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'selection'
  | 'many2one'
  | 'one2many'
  | 'many2many'
  | 'binary';

export interface FieldDef {
  type: FieldType;
  /** Comodel name ('res.partner') for many2one, one2many and many2many fields. */
  relation?: string;
  /** For one2many: the many2one field on the relation pointing back at this model. */
  inverse?: string;
  /** For many2many: the link table (Odoo's default: `<table1>_<table2>_rel`, the two tables sorted). */
  relationTable?: string;
  /** For many2many: the link table's column pointing at this model (default `<table>_id`). */
  column1?: string;
  /** For many2many: the link table's column pointing at the comodel (default `<comodel table>_id`). */
  column2?: string;
  /** The column in this model's table; defaults to the field name. Not used by one2many/many2many fields. */
  column?: string;
  required?: boolean;
  /** The allowed keys of a selection field. */
  selection?: readonly string[];
  /** Computed and not stored: cannot be searched or sorted on. */
  computed?: boolean;
}

export interface ModelDef {
  /** Odoo model name, e.g. 'account.move'. */
  name: string;
  /** Table name, e.g. 'account_move'. */
  table: string;
  /** Fields other than the implicit `id`. */
  fields: Record<string, FieldDef>;
  /** Field used as the record's name (name_search, display). Default 'name'. */
  recName?: string;
  /** Default order, an Odoo order string. Default 'id'. */
  order?: string;
}

export type Registry = Record<string, ModelDef>;

/**
 * A domain, order or model reference that cannot be compiled: unknown model or field, bad operator, value of the
 * wrong type... It is a validation ErpError, so route code answers it as a 400 with its message.
 */
export class DomainError extends ErpError {
  constructor(message: string) {
    super('validation', message);
    this.name = 'DomainError';
  }
}

/** The implicit primary key every model has. */
export const ID_FIELD: Readonly<FieldDef> = Object.freeze({ type: 'integer', required: true, column: 'id' });

const RELATIONAL: ReadonlySet<FieldType> = new Set(['many2one', 'one2many', 'many2many']);

function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** A short, printable rendering of an untrusted value for error messages. */
export function describeValue(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

export function modelOf(registry: Registry, model: string): ModelDef {
  if (typeof model !== 'string' || !hasOwn(registry, model)) {
    throw new DomainError(`Unknown model ${describeValue(model)}`);
  }
  return registry[model];
}

export function tableOf(registry: Registry, model: string): string {
  return modelOf(registry, model).table;
}

/** The definition of `model.name`, `id` included; throws DomainError for unknown models or fields. */
export function fieldOf(registry: Registry, model: string, name: string): FieldDef {
  const def = modelOf(registry, model);
  if (typeof name === 'string' && hasOwn(def.fields, name)) return def.fields[name];
  if (name === 'id') return ID_FIELD;
  throw new DomainError(`Unknown field ${describeValue(name)} on model '${model}'`);
}

export function hasField(registry: Registry, model: string, name: string): boolean {
  return name === 'id' || hasOwn(modelOf(registry, model).fields, name);
}

/** The column holding `name` (stored, non-x2many fields). */
export function columnOf(name: string, field: FieldDef): string {
  return field.column ?? name;
}

export function isRelational(field: FieldDef): boolean {
  return RELATIONAL.has(field.type);
}

/** Whether the field has a column of its own in the model's table. */
export function isStored(field: FieldDef): boolean {
  return !field.computed && field.type !== 'one2many' && field.type !== 'many2many';
}

/** The comodel of a relational field; throws DomainError if the field is not relational or the comodel unknown. */
export function comodelOf(registry: Registry, model: string, name: string, field: FieldDef): ModelDef {
  if (!isRelational(field)) throw new DomainError(`Field '${model}.${name}' is not relational`);
  if (!field.relation) throw new DomainError(`Field '${model}.${name}' has no comodel in the registry`);
  return modelOf(registry, field.relation);
}

/** The name field of a model (`recName`, default 'name'), or undefined if the model has no such field. */
export function recNameOf(registry: Registry, model: string): string | undefined {
  const def = modelOf(registry, model);
  const name = def.recName ?? 'name';
  return hasField(registry, model, name) ? name : undefined;
}

/** The many2one field on the comodel that a one2many field is the inverse of. */
export function inverseOf(registry: Registry, model: string, name: string, field: FieldDef): { comodel: ModelDef; column: string } {
  const comodel = comodelOf(registry, model, name, field);
  if (field.type !== 'one2many' || !field.inverse) {
    throw new DomainError(`Field '${model}.${name}' has no inverse field in the registry`);
  }
  const inverse = fieldOf(registry, comodel.name, field.inverse);
  if (inverse.type !== 'many2one' || !isStored(inverse)) {
    throw new DomainError(`Inverse field '${comodel.name}.${field.inverse}' of '${model}.${name}' must be a stored many2one`);
  }
  return { comodel, column: columnOf(field.inverse, inverse) };
}

/** The link table of a many2many field and its columns, with Odoo's defaults. */
export function many2manyOf(
  registry: Registry,
  model: string,
  name: string,
  field: FieldDef,
): { comodel: ModelDef; table: string; column1: string; column2: string } {
  const comodel = comodelOf(registry, model, name, field);
  if (field.type !== 'many2many') throw new DomainError(`Field '${model}.${name}' is not a many2many`);
  const own = tableOf(registry, model);
  const [first, second] = [own, comodel.table].sort();
  const table = field.relationTable ?? `${first}_${second}_rel`;
  const column1 = field.column1 ?? `${own}_id`;
  const column2 = field.column2 ?? (comodel.table === own ? `${own}_id2` : `${comodel.table}_id`);
  return { comodel, table, column1, column2 };
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A double-quoted SQL identifier. Only plain identifiers (letters, digits, underscores, at most 63 characters) are
 * accepted: they come from the registry, and anything else is a programming error worth failing loudly on.
 */
export function quoteIdent(name: string): string {
  if (typeof name !== 'string' || name.length > 63 || !IDENTIFIER.test(name)) {
    throw new DomainError(`Invalid SQL identifier ${describeValue(name)}`);
  }
  return `"${name}"`;
}
