/**
 * What a resource declaration says (DESIGN.md, "Schema-driven resources"): plain typed data that the server turns
 * into routes, permissions and OpenAPI, and the console into react-admin resources, menus, lists and forms.
 * A declaration lives in `shared/resources/<name>.resource.ts` and is found by the registry: adding one file (and its
 * catalogue entries) adds the resource.
 */

/** The CRUD verbs of react-admin's dataProvider, as the server offers them. */
export type Verb = 'list' | 'get' | 'create' | 'update' | 'delete';

export type FieldType =
  | 'text'
  | 'longText'
  | 'email'
  | 'url'
  | 'number'
  | 'money'
  | 'date'
  | 'datetime'
  | 'boolean'
  | 'choice'
  /** A many2one: [id, name] from the ERP, an id when written. */
  | 'reference'
  /** A many2many: a list of ids. */
  | 'references';

/**
 * How a list filter reads and turns into domain terms (server/routes/filters.ts; the console's inputs in
 * src/resources/generic/filters.tsx):
 * - `contains`: a text, `ilike` (a reference: its name);
 * - `equals`: one value, `=` (an e-mail is compared without case, `=ilike`);
 * - `in`: a list of values (a choice's, aliases mapped) or of records (ids, or names);
 * - `dateRange`: two days, `<param>From` and `<param>To`, both included (a date and time: the companies' days);
 * - `triState`: yes, no or either (a boolean);
 * - `many2one`: one record, by id (`=`) or by a text its name contains.
 */
export type FilterKind = 'contains' | 'equals' | 'in' | 'dateRange' | 'triState' | 'many2one';

export interface FieldDeclaration {
  type: FieldType;
  /** The ERP field (the column, for a resource of the console's own database), when it is not named as the field. */
  source?: string;
  required?: boolean;
  /** The resource a reference points to (its list feeds the select). */
  reference?: string;
  /**
   * A column of the list. Columns come in the declaration's order of fields, unless they are numbered: a number is
   * the column's place, when the list's order is not the fields' (which is also the filters', the domain's).
   */
  list?: boolean | number;
  /** A filter of the list, and how it matches. */
  filter?: FilterKind;
  /** The server sorts the list by it. */
  sortable?: boolean;
  /** Can be changed by update (and given to create). */
  editable?: boolean;
  /** No two records may hold the same value (compared without case), whatever their company. */
  unique?: boolean;
  /** The search body's key for this filter, when the API names it otherwise (moves: `number` for `name`); a date range's keys are `<param>From` and `<param>To`. */
  param?: string;
  /** Values an `in` filter accepts for others, and the one each stands for (moves: `cancelled` for `cancel`). */
  aliases?: Readonly<Record<string, string>>;
  /** The catalogue keys of a choice's values in the console, `<choiceLabels>.<value>`, when not `resources.<resource>.choices.<field>`. */
  choiceLabels?: string;
  /** The catalogue key of the field's label in the console, when it is not `resources.<resource>.fields.<field>` (a date range's ends: `<label>From`, `<label>To`). */
  label?: string;
  /** Longest text accepted. */
  maxLength?: number;
  /** The values a `choice` takes. */
  choices?: readonly string[];
  /** A money field the list's totals row sums over the whole filtered set (the resource's `totals`). */
  total?: boolean;
}

export interface NamedAction {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify's path syntax: `/odoo/moves/:id/validate`. */
  path: string;
  /** Any one of these grants it. Empty: any signed-in user. */
  permission: readonly string[];
}

/** A screen of the console: its path (the spec's), which view it shows and who may open it. */
export interface ScreenDeclaration {
  /** The area id: its one name, `app.titles.<id>`, is the header's title, the menu's label and the home's tile. */
  id: string;
  path: string;
  /** A react-admin view of the resource, or the name of a custom page the resource's console folder exports. */
  view: 'list' | 'create' | 'edit' | 'show' | string;
  /** Any one of these grants the screen. */
  permissions: readonly string[];
  /** Position in the side menu. */
  menu: number;
  /** Position among the home page's links. */
  home: number;
  /** Any of MUI's icon names (`AccountTree`): the build imports the icons the declarations name and fails on one MUI lacks (scripts/area-icons.ts). */
  icon: string;
}

export interface ResourceDeclaration {
  /** react-admin's resource name; also the permission group and the i18n key `resources.<name>`. */
  name: string;
  /** The ERP model; none for resources of the console's own database (users). */
  model?: string;
  /** The API prefix: search at `<path>/search`, one record at `<path>/:id`, creation at `<path>/create`. */
  path: string;
  /** The key holding the rows in the search answer: `{ <items>: [...], total }`. */
  items: string;
  fields: Readonly<Record<string, FieldDeclaration>>;
  /** The field scoping records to the user's companies; `shared` lets records without a company through. */
  company?: { field: string; shared?: boolean };
  /** The permission each offered verb needs (any one of the list). A verb absent here is not offered. */
  verbs: Partial<Record<Verb, readonly string[]>>;
  /** The verbs whose routes are derived from this declaration; the others are the resource's own routes. */
  generic?: readonly Verb[];
  /** The actions of this permission group, in display order (`<name>.<action>`); none: not grantable. */
  grants?: readonly string[];
  defaultSort: { field: string; order: 'ASC' | 'DESC' };
  /** The fields a text search (`q`) looks in. */
  search?: readonly string[];
  /** Resource-specific routes beside the generic ones. */
  actions?: Readonly<Record<string, NamedAction>>;
  screens?: readonly ScreenDeclaration[];
  /** How a record is named in selects and titles. */
  recordRepresentation?: string;
  /** A reference list read in one request (GET): per company as `:companyId` in the path or the `x-company-id` header. */
  reference?: {
    path: string;
    items?: string;
    company?: 'path' | 'header';
    /** Where the list of all the user's companies is read when no company is given (else: nothing). */
    all?: string;
  };
  /** Terms every record of the resource meets (Odoo domain terms), besides the company scope. */
  where?: readonly (readonly [string, string, string | number | boolean | readonly (string | number)[]])[];
  /** Order among resources (menus, permission groups). */
  order: number;
  /**
   * The list's totals row (issue 33): its `total` fields summed over every record the filters match, per currency, at
   * `<path>/totals`. `by` is the many2one that says the amounts' currency: `currency_id` (they are in it), or
   * `company_id` (they are in the company's currency, as Odoo's `*_signed` amounts are).
   */
  totals?: { by: 'currency_id' | 'company_id' };
}

/** Fields of a declaration that can be sorted by, as the search accepts them. */
export function sortableFields(resource: ResourceDeclaration): string[] {
  return Object.entries(resource.fields)
    .filter(([, field]) => field.sortable)
    .map(([name]) => name);
}

/** The list's columns: the `list` fields, by their numbers, the unnumbered after them in the declaration's order. */
export function listFields(resource: ResourceDeclaration): Array<[string, FieldDeclaration]> {
  const place = (field: FieldDeclaration) => (typeof field.list === 'number' ? field.list : Number.POSITIVE_INFINITY);
  return Object.entries(resource.fields)
    .filter(([, field]) => field.list)
    .sort(([, a], [, b]) => place(a) - place(b));
}

/** The fields the list's totals row sums, in the declaration's order. */
export function totalFields(resource: ResourceDeclaration): string[] {
  return resource.totals ? Object.entries(resource.fields).filter(([, field]) => field.total).map(([name]) => name) : [];
}

/** The ERP field behind a declared field. */
export function sourceOf(resource: ResourceDeclaration, field: string): string {
  return resource.fields[field]?.source ?? field;
}
