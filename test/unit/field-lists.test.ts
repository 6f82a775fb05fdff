import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { resourceNamed } from '../../shared/resources/registry';
import { readFields, rowKeys } from '../../shared/resources/rows';
import { sourceOf, type ResourceDeclaration } from '../../shared/resources/types';
import { MOVE_BESPOKE, MOVE_FIELDS, moveRow } from '../../server/services/moves';
import { ORDER_BESPOKE, ORDER_FIELDS, orderRow } from '../../server/services/orders';
import { USER_BESPOKE } from '../../server/services/users';
import { contactAnswer, moveAnswer, orderAnswer, userAnswer } from '../../server/routes/answers';
import type { z } from 'zod';
import type { ReactElement } from 'react';
import { declaredColumns } from '../../src/resources/generic/columns';
import { CONTACT_CELLS } from '../../src/resources/contacts/contactColumns';
import { userCells } from '../../src/resources/users/userColumns';
import { filesUnder } from '../support/files-under';

/**
 * Issue 53: the four main resources' fields are said once, in their declarations (shared/resources/*.resource.ts);
 * what a declaration cannot say is its service's bespoke part (`*_BESPOKE`). A field list or a row mapping spelled
 * again anywhere else in the code is found here, by reading the code's syntax.
 */
const root = resolve(import.meta.dirname, '../..');
const MAIN = ['moves', 'orders', 'contacts', 'users'];
/** Names in one list, or keys in one object, that make it a hand-written field list of a resource. */
const AT_LEAST = 5;

/** The names a declaration gives its fields: each field's name and its ERP field (or column). */
function namesOf(resource: ResourceDeclaration): Set<string> {
  return new Set(Object.keys(resource.fields).flatMap((name) => [name, sourceOf(resource, name)]));
}

const declared = MAIN.map((name) => ({ name, names: namesOf(resourceNamed(name)!) }));

/** The name of the variable, function or property a node sits in, innermost first. */
function enclosingNames(node: ts.Node): string[] {
  const names: string[] = [];
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if ((ts.isVariableDeclaration(at) || ts.isFunctionDeclaration(at) || ts.isPropertyAssignment(at) || ts.isMethodDeclaration(at)) && at.name && ts.isIdentifier(at.name)) names.push(at.name.text);
  }
  return names;
}

/** A property's value that copies a record's field of the same name: `move.name`, `c.email || ''`, `o.x ?? false`. */
function copiesSameName(key: string, value: ts.Expression): boolean {
  let expression = value;
  while (ts.isBinaryExpression(expression) || ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression)) {
    expression = ts.isBinaryExpression(expression) ? expression.left : expression.expression;
  }
  return ts.isPropertyAccessExpression(expression) && expression.name.text === key;
}

const keyOf = (property: ts.ObjectLiteralElementLike) => (ts.isPropertyAssignment(property) && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) ? property.name.text : undefined);

/**
 * The hand-written field lists of a source text: arrays of texts naming at least AT_LEAST fields of one main resource,
 * objects copying at least AT_LEAST of its fields from a record to keys of the same names (a row spelled by hand), and
 * objects mapping 4 or more of its fields to texts (columns spelled by hand). A list inside a
 * bespoke part (a name holding "bespoke") is the resource's own.
 */
export function handWrittenLists(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const where = (node: ts.Node, what: string) => `${path}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${what}`;
  const bespoke = (node: ts.Node) => enclosingNames(node).some((name) => /bespoke/i.test(name));
  const visit = (node: ts.Node) => {
    if (ts.isArrayLiteralExpression(node)) {
      const texts = node.elements.filter(ts.isStringLiteralLike).map((one) => one.text);
      // Named once, by the resource it names the most fields of.
      const [most] = declared.map(({ name, names }) => ({ name, hits: texts.filter((one) => names.has(one)) })).sort((a, b) => b.hits.length - a.hits.length);
      if (most.hits.length >= AT_LEAST && !bespoke(node)) found.push(where(node, `${most.name} fields listed: ${most.hits.join(', ')}`));
    }
    if (ts.isObjectLiteralExpression(node) && !bespoke(node)) {
      const copied = node.properties.filter((property) => ts.isPropertyAssignment(property) && copiesSameName(keyOf(property) ?? '', property.initializer)).map(keyOf);
      const [most] = declared.map(({ name, names }) => ({ name, hits: copied.filter((key) => names.has(key ?? '')) })).sort((a, b) => b.hits.length - a.hits.length);
      if (most.hits.length >= AT_LEAST) found.push(where(node, `a ${most.name} row copied field by field: ${most.hits.join(', ')}`));
      for (const { name, names } of declared) {
        const mapped = node.properties.filter((property) => ts.isPropertyAssignment(property) && names.has(keyOf(property) ?? '') && ts.isStringLiteralLike(property.initializer));
        if (mapped.length >= 4) found.push(where(node, `${name} fields mapped to texts: ${mapped.map(keyOf).join(', ')}`));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The JSX tag a node opens, as written: `DataTable.Col`, `Col`. */
function tagOf(node: ts.Node): string | undefined {
  if (ts.isJsxSelfClosingElement(node) || ts.isJsxOpeningElement(node)) return node.tagName.getText();
  return undefined;
}

/**
 * The columns a source text spells by hand: each `<DataTable.Col>` (or a `Col` imported under another name), named by
 * its `source` and, when that is a declared field of a main resource, by the resource. The lists of the main
 * resources draw theirs with declaredColumns (src/resources/generic/columns.tsx), from their declarations.
 */
export function handWrittenColumns(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const tag = tagOf(node);
    if (tag && /(^|\.)Col(umn)?$/.test(tag)) {
      const attributes = (node as ts.JsxSelfClosingElement | ts.JsxOpeningElement).attributes.properties;
      const named = attributes.find((one) => ts.isJsxAttribute(one) && one.name.getText() === 'source');
      const value = named && ts.isJsxAttribute(named) && named.initializer && ts.isStringLiteral(named.initializer) ? named.initializer.text : undefined;
      const spread = attributes.find(ts.isJsxSpreadAttribute)?.expression.getText();
      const field = value ?? /^\w+\(['"](\w+)['"]\)$/.exec(spread ?? '')?.[1];
      const owner = declared.find(({ names }) => field && names.has(field))?.name;
      found.push(`${path}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${tag}${field ? ` ${field}` : ''}${owner ? ` (declared in ${owner})` : ''}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A list's columns as the user meets them: each column's field (or none), header key (none: react-admin's) and sorting. */
const shown = (columns: ReactElement[]) =>
  columns.map(({ props }) => {
    const { source, label, disableSort } = props as { source?: string; label?: string; disableSort?: boolean };
    return [source ?? '-', label ?? '-', source && !disableSort ? 'sorts' : ''].join(' ');
  });

describe('one declaration per resource (issue 53)', () => {
  it('finds the field lists and rows that were spelled by hand before the declarations gave them', () => {
    // As server/services/moves.ts, server/routes/moves.ts and server/services/users.ts had them.
    const before = `
      export const MOVE_FIELDS = [
        'name', 'partner_id', 'date', 'invoice_date', 'invoice_date_due', 'ref', 'pnt_account_move_team_manager_validate',
        'pnt_account_move_team_manager_deny', 'company_id', 'journal_id', 'amount_untaxed_signed', 'amount_total_signed',
        'amount_total', 'currency_id', 'state', 'move_type', 'payment_state', 'x_payment_status', 'x_uploaded_by', 'narration', 'attachment_ids',
        VERSION_FIELD,
      ];
      export function moveRow(move: ErpRecord) {
        return { id: move.id, name: move.name, partner_id: move.partner_id, date: move.date, ref: move.ref, state: move.state, uploadedBy: (move.x_uploaded_by as string) || null };
      }
      const CONTACT_FIELDS = ['name', 'x_studio_owner_employee', 'company_id', 'email', 'phone', 'company_name', 'x_studio_tipo_inversor', 'category_id', 'function', 'website'];
      export const SORT_COLUMNS = { firstName: 'lower(first_name)', lastName: 'lower(last_name)', email: 'lower(email)', active: 'active' };
      const MOVE_BESPOKE = { reads: ['name', 'partner_id', 'date', 'invoice_date', 'ref'] };
    `;
    const found = handWrittenLists('before.ts', before);
    expect(found).toHaveLength(4);
    expect(found[0]).toMatch(/^before\.ts:2 moves fields listed: name, partner_id, date/);
    expect(found[1]).toMatch(/^before\.ts:9 a moves row copied field by field: name, partner_id, date, ref, state/);
    expect(found[2]).toMatch(/^before\.ts:11 contacts fields listed/);
    expect(found[3]).toMatch(/^before\.ts:12 users fields mapped to texts: firstName, lastName, email, active/);
  });

  it('no code but the declarations and their bespoke parts spells the fields of moves, orders, contacts or users', () => {
    // Where rows are read, made and written: the services and the routes. (What a real Odoo must have, in
    // server/erp/odoo/requirements.ts, and the catalogues' labels are other lists, of other things.)
    const files = ['server/services', 'server/routes'].flatMap((folder) => filesUnder(join(root, folder), /\.ts$/));
    expect(files.length).toBeGreaterThan(30);
    const found = files.flatMap((file) => handWrittenLists(relative(root, file), readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });

  it("reads a move and an order with their declaration's fields, and answers each declared field", () => {
    const moves = resourceNamed('moves')!;
    const orders = resourceNamed('orders')!;
    expect(MOVE_FIELDS).toEqual(readFields(moves, MOVE_BESPOKE));
    for (const name of Object.keys(moves.fields).filter((one) => !MOVE_BESPOKE.computed?.[one]?.from)) expect(MOVE_FIELDS).toContain(sourceOf(moves, name));
    for (const name of Object.keys(orders.fields)) expect(ORDER_FIELDS).toContain(sourceOf(orders, name));
    // The uploader is read from x_uploaded_by once, where the declaration says it.
    expect(moveRow({ id: 1, x_uploaded_by: 'ana@example.com' })).toMatchObject({ id: 1, uploadedBy: 'ana@example.com' });
    expect(Object.keys(moveRow({ id: 1 })).sort()).toEqual(rowKeys(moves, MOVE_BESPOKE).sort());
    expect(Object.keys(orderRow({ id: 1 }))).toEqual(expect.arrayContaining(['id', ...Object.keys(orders.fields)]));
  });

  it("documents in the API's answers (server/routes/answers.ts) each key of the rows the declarations make", () => {
    const keys = (schema: unknown) => Object.keys((schema as z.ZodObject).shape).sort();
    expect(keys(moveAnswer)).toEqual([...rowKeys(resourceNamed('moves')!, MOVE_BESPOKE), 'version'].sort());
    expect(keys(orderAnswer)).toEqual(rowKeys(resourceNamed('orders')!, ORDER_BESPOKE).sort());
    expect(keys(contactAnswer)).toEqual(rowKeys(resourceNamed('contacts')!).sort());
    expect(keys(userAnswer)).toEqual(rowKeys(resourceNamed('users')!, USER_BESPOKE).sort());
  });

  it('finds a list column spelled by hand, as the lists had them before their declarations gave them', () => {
    // As src/resources/moves/MoveList.tsx and src/resources/users/UsersPage.tsx had them.
    const before = `
      <DataTable>
        <DataTable.Col {...sortable('name')} label="app.moves.fields.number" render={(record) => moveNumber(record.name, translate)} />
        <DataTable.Col source="partner_id" label="app.moves.fields.provider" />
        <DataTable.Col label="app.users.fields.actions" align="right">
          <UserRowActions onEdit={setEditing} onDelete={setDeleting} />
        </DataTable.Col>
      </DataTable>
    `;
    expect(handWrittenColumns('before.tsx', before)).toEqual([
      'before.tsx:3 DataTable.Col name (declared in moves)',
      'before.tsx:4 DataTable.Col partner_id (declared in moves)',
      'before.tsx:5 DataTable.Col',
    ]);
  });

  it("no list of moves, orders, contacts or users spells its columns: each draws its declaration's", () => {
    const files = MAIN.flatMap((name) => filesUnder(join(root, 'src/resources', name), /\.tsx?$/));
    expect(files.length).toBeGreaterThan(40);
    expect(files.flatMap((file) => handWrittenColumns(relative(root, file), readFileSync(file, 'utf8')))).toEqual([]);
    for (const list of ['moves/MoveList.tsx', 'orders/OrderList.tsx', 'contacts/ContactList.tsx', 'users/UsersPage.tsx']) {
      expect(readFileSync(join(root, 'src/resources', list), 'utf8'), list).toMatch(/declaredColumns\((MOVES|ORDERS|CONTACTS|USERS), /);
    }
  });

  it('gives each list the columns, order, headers and sorting it had when they were spelled by hand', () => {
    expect(shown(declaredColumns(resourceNamed('moves')!))).toEqual([
      'name app.moves.fields.number sorts', 'partner_id app.moves.fields.provider ', 'date app.moves.fields.date sorts',
      'invoice_date_due app.moves.fields.dueDate sorts', 'ref app.moves.fields.reference sorts',
      'pnt_account_move_team_manager_validate app.moves.fields.validated ', 'pnt_account_move_team_manager_deny app.moves.fields.notValidated ',
      'company_id app.moves.fields.company ', 'amount_untaxed_signed app.moves.fields.untaxed sorts', 'amount_total_signed app.moves.fields.total sorts',
      'state app.moves.fields.state sorts', 'paymentStatus app.moves.fields.paymentStatus ', 'uploadedBy app.moves.fields.uploadedBy sorts',
    ]);
    expect(shown(declaredColumns(resourceNamed('orders')!))).toEqual([
      'name app.orders.fields.number sorts', 'date_order app.orders.fields.date sorts', 'partner_id app.orders.fields.customer ',
      'client_order_ref app.orders.fields.clientRef sorts', 'user_id app.orders.fields.salesperson ', 'uploadedBy app.orders.fields.uploadedBy ',
      'company_id app.orders.fields.company ', 'amount_total app.orders.fields.total sorts', 'state app.orders.fields.state sorts',
    ]);
    expect(shown(declaredColumns(resourceNamed('contacts')!, CONTACT_CELLS))).toEqual([
      'name app.contacts.fields.name sorts', 'x_studio_owner_employee app.contacts.fields.owner ', 'company_id app.contacts.fields.company ',
      'email app.contacts.fields.email sorts', 'phone app.contacts.fields.phone ', 'company_name app.contacts.fields.companyName sorts',
      'website app.contacts.fields.website ', 'function app.contacts.fields.position sorts', 'x_studio_tipo_inversor app.contacts.fields.investorType ',
      'category_id app.contacts.fields.categories ',
    ]);
    const users = (canManage: boolean) => shown(declaredColumns(resourceNamed('users')!, userCells({ companies: [], canManage, onEdit: () => {}, onDelete: () => {} })));
    expect(users(false)).toEqual(['lastName app.users.fields.name sorts', 'email app.users.fields.email sorts', 'companies app.users.fields.companies ']);
    expect(users(true)).toEqual([...users(false), '- app.users.fields.actions ']);
    // A cell for a field the declaration does not list would be a column no declaration says.
    expect(() => declaredColumns(resourceNamed('orders')!, { amount_tax: { render: () => 'x' } })).toThrow(/orders\.amount_tax/);
  });
});
