/**
 * A resource's rows as its declaration says them (issue 53): the fields read from the ERP (or the columns of the
 * console's own database) and the row each record answers, so that no field list is spelled again beside the
 * declaration. What a declaration cannot say (a key computed from other fields, a value reshaped, a field read for
 * something else than the row) is the resource's bespoke part, named once beside its service (`*_BESPOKE`).
 */
import { sourceOf, type ResourceDeclaration } from './types';

/** A record as read: its id and the fields asked for. */
export type ReadRecord = { id: number } & Record<string, unknown>;

/** A row key the server makes itself: read from the fields `from` (the declared field's source when not given). */
export interface ComputedKey<R extends ReadRecord = ReadRecord> {
  from?: readonly string[];
  value: (record: R) => unknown;
}

/** What a resource's declaration cannot say about its rows. */
export interface BespokeRow<R extends ReadRecord = ReadRecord> {
  /** Keys computed from the record: a declared field's (its value reshaped, or made from others) or a key of its own. */
  computed?: Readonly<Record<string, ComputedKey<R>>>;
  /** Fields read for something else than a row key (the record's version). */
  reads?: readonly string[];
}

/** The fields a row is read from, in the declaration's order, then the bespoke part's. */
export function readFields(resource: ResourceDeclaration, bespoke: BespokeRow<never> = {}): string[] {
  const computed: Readonly<Record<string, ComputedKey<never>>> = bespoke.computed ?? {};
  const fields = new Set<string>();
  for (const name of Object.keys(resource.fields)) for (const field of computed[name]?.from ?? [sourceOf(resource, name)]) fields.add(field);
  for (const [name, key] of Object.entries(computed)) if (!(name in resource.fields)) for (const field of key.from ?? []) fields.add(field);
  for (const field of bespoke.reads ?? []) fields.add(field);
  return [...fields];
}

/** The keys of a row: its id, the declared fields, then the bespoke part's own keys. */
export function rowKeys(resource: ResourceDeclaration, bespoke: BespokeRow<never> = {}): string[] {
  return ['id', ...Object.keys(resource.fields), ...Object.keys(bespoke.computed ?? {}).filter((name) => !(name in resource.fields))];
}

/** A record as its row: each declared field's value read from its source, unless the bespoke part computes it. */
export function rowOf<R extends ReadRecord>(resource: ResourceDeclaration, record: R, bespoke: BespokeRow<R> = {}): Record<string, unknown> & { id: number } {
  const computed = bespoke.computed ?? {};
  const row: Record<string, unknown> & { id: number } = { id: record.id };
  for (const name of rowKeys(resource, bespoke as BespokeRow<never>).slice(1)) {
    row[name] = computed[name] ? computed[name].value(record) : record[sourceOf(resource, name)];
  }
  return row;
}
