import type { ReactElement, ReactNode } from 'react';
import { DataTable } from 'react-admin';
import type { ResourceDeclaration } from '../../../shared/resources/types';
import { fieldsWhere } from './useDeclaration';

/** A record as a list's row holds it. */
type Row = Record<string, unknown>;

/**
 * What a list draws its own way in one column (issue 53): its cell (`render`, or `children` reading the record from
 * context), its alignment, and its header when it is not the field's declared one (a field's `label` is also its
 * filter's, which may read otherwise). A bespoke list names these once, in a record keyed by field name.
 */
export interface Cell {
  render?: (record: Row) => ReactNode;
  children?: ReactNode;
  align?: 'left' | 'right' | 'center';
  label?: string;
}

/**
 * A list's cells, keyed by its declared fields' names; a key that names no declared field is a column of its own (an
 * actions column), put after the declared ones. An undefined cell is none (a column of its own not shown).
 */
export type Cells = Readonly<Record<string, Cell | undefined>>;

/** A column's header: the cell's, else the field's declared label; none: react-admin's `resources.<name>.fields.<field>`. */
export function columnLabel(resource: ResourceDeclaration, name: string, cell?: Cell): string | undefined {
  return cell?.label ?? resource.fields[name]?.label;
}

function column(key: string, props: { source?: string; label?: string; disableSort?: boolean }, cell: Cell = {}): ReactElement {
  const { render, children, align } = cell;
  return <DataTable.Col key={key} {...props} {...(align ? { align } : {})} {...(render ? { render } : {})} {...(children ? { children } : {})} />;
}

/**
 * A list's columns from its declaration: one per `list` field, in their order (listFields), headed by its label and
 * sortable where the server sorts by it (`sortable`); `cells` draws some its own way and adds columns of no field.
 */
export function declaredColumns(resource: ResourceDeclaration, cells: Cells = {}): ReactElement[] {
  for (const name of Object.keys(cells)) {
    if (resource.fields[name] && !resource.fields[name].list) throw new Error(`A cell for ${resource.name}.${name}, which its declaration does not list`);
  }
  const declared = fieldsWhere(resource, 'list').map(([name, field]) => {
    const label = columnLabel(resource, name, cells[name]);
    return column(name, { source: name, ...(label ? { label } : {}), disableSort: !field.sortable }, cells[name]);
  });
  const own = Object.entries(cells).flatMap(([name, cell]) => (cell && !resource.fields[name] ? [column(name, { ...(cell.label ? { label: cell.label } : {}) }, cell)] : []));
  return [...declared, ...own];
}
