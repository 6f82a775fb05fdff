/**
 * DDL for an embedded registry: one table per model, a column per stored field, link tables for many2many
 * fields, foreign keys and the indexes each model declares. Valid on PostgreSQL 15 and PGlite (PostgreSQL 18).
 */
import { FOLD_FUNCTION_SQL } from '../../db/fold';
import { columnOf, isStored, many2manyOf, quoteIdent, tableOf, type FieldDef, type Registry } from '../models';

const SQL_TYPES: Record<string, string> = {
  char: 'text',
  text: 'text',
  html: 'text',
  selection: 'text',
  integer: 'integer',
  float: 'double precision',
  monetary: 'numeric(18,2)',
  boolean: 'boolean',
  date: 'date',
  datetime: 'timestamp(0) without time zone',
  binary: 'bytea',
  many2one: 'integer',
};

export interface IndexDef {
  columns: string[];
  unique?: boolean;
  /** e.g. 'text_pattern_ops' or a trigram class; applied to every column. */
  opclass?: string;
}

export type Indexes = Record<string, IndexDef[]>;

function columnSql(registry: Registry, name: string, field: FieldDef): string {
  const parts = [quoteIdent(columnOf(name, field)), SQL_TYPES[field.type]];
  if (field.required) parts.push('NOT NULL');
  if (field.type === 'many2one' && field.relation) {
    const onDelete = (field as FieldDef & { ondelete?: string }).ondelete ?? 'set null';
    parts.push(`REFERENCES ${quoteIdent(tableOf(registry, field.relation))}(id) ON DELETE ${onDelete.toUpperCase()}`);
  }
  return parts.join(' ');
}

/**
 * Statements that create every table, link table and index (idempotent), after the function the domain compiler
 * folds accents with (ilike ignores them, as on an Odoo started with --unaccent).
 */
export function schemaStatements(registry: Registry, indexes: Indexes = {}): string[] {
  const tables: string[] = [];
  const links: string[] = [];
  const extra: string[] = [];
  // Tables first without foreign keys, then the keys, so that models may reference each other in any order.
  for (const model of Object.values(registry)) {
    const table = quoteIdent(model.table);
    tables.push(`CREATE TABLE IF NOT EXISTS ${table} (id serial PRIMARY KEY)`);
    for (const [name, field] of Object.entries(model.fields)) {
      if (!isStored(field)) continue;
      extra.push(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${columnSql(registry, name, field)}`);
      if (field.type === 'many2one') {
        const column = columnOf(name, field);
        extra.push(`CREATE INDEX IF NOT EXISTS ${quoteIdent(`${model.table}_${column}_idx`)} ON ${table} (${quoteIdent(column)})`);
      }
    }
    for (const [name, field] of Object.entries(model.fields)) {
      if (field.type !== 'many2many') continue;
      const link = many2manyOf(registry, model.name, name, field);
      links.push(
        `CREATE TABLE IF NOT EXISTS ${quoteIdent(link.table)} (` +
          `${quoteIdent(link.column1)} integer NOT NULL REFERENCES ${table}(id) ON DELETE CASCADE, ` +
          `${quoteIdent(link.column2)} integer NOT NULL REFERENCES ${quoteIdent(link.comodel.table)}(id) ON DELETE CASCADE, ` +
          `PRIMARY KEY (${quoteIdent(link.column1)}, ${quoteIdent(link.column2)}))`,
        `CREATE INDEX IF NOT EXISTS ${quoteIdent(`${link.table}_${link.column2}_idx`)} ON ${quoteIdent(link.table)} (${quoteIdent(link.column2)})`,
      );
    }
    for (const index of indexes[model.name] ?? []) {
      const name = quoteIdent(`${model.table}_${index.columns.join('_')}${index.opclass ? '_pat' : ''}_idx`.slice(0, 63));
      const columns = index.columns.map((column) => `${quoteIdent(column)}${index.opclass ? ` ${index.opclass}` : ''}`).join(', ');
      extra.push(`CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${name} ON ${table} (${columns})`);
    }
  }
  return [FOLD_FUNCTION_SQL, ...tables, ...extra, ...links];
}
