/**
 * What the product's own routes answer, as zod schemas on their routes: the OpenAPI document shows them and the
 * serializer checks each answer against them. Objects are loose (a field added later is sent, never stripped) and
 * every field takes what Odoo gives where it has nothing: `false`, or null for a field this ERP lacks.
 */
import { z } from 'zod';

const empty = [z.literal(false), z.null()] as const;
const int = z.number().int();

/** Odoo's values as the answers carry them. */
export const odoo = {
  text: () => z.union([z.string(), ...empty]).optional(),
  number: () => z.union([z.number(), ...empty]).optional(),
  flag: () => z.union([z.boolean(), z.null()]).optional(),
  reference: () => z.union([z.tuple([int, z.string()]).describe('[id, name]'), ...empty]).optional(),
  ids: () => z.array(int).optional(),
};

/**
 * A schema the serializer checks at run time, loosely typed for the handler: services answer ERP records whose values
 * TypeScript knows only as `unknown`, so the shape is the schema's to check, not the compiler's.
 */
const checked = (schema: z.ZodType): z.ZodType<unknown> => schema as z.ZodType<unknown>;

const VERSION = z.string().describe('What an edit sends back as If-Match (server/erp/versions.ts)');

/** One page of a list: its rows, the count (bounded: past 10,000, totalIsLowerBound) and the cursor of the next page. */
export function pageOf(items: string, row: z.ZodType, extra: Record<string, z.ZodType> = {}) {
  return checked(z.looseObject({
    [items]: z.array(row),
    total: int,
    totalIsLowerBound: z.boolean(),
    next: z.string().optional().describe("Sent back as `after` for the next page, in the list's default order"),
    ...extra,
  }));
}

/** A move as the lists and dialogs show it (spec section 3; server/services/moves.ts moveRow). */
export const moveAnswer = checked(z.looseObject({
  id: int,
  name: odoo.text(),
  partner_id: odoo.reference(),
  date: odoo.text(),
  invoice_date: odoo.text(),
  invoice_date_due: odoo.text(),
  ref: odoo.text(),
  pnt_account_move_team_manager_validate: odoo.flag(),
  pnt_account_move_team_manager_deny: odoo.flag(),
  company_id: odoo.reference(),
  journal_id: odoo.reference(),
  amount_untaxed_signed: odoo.number(),
  amount_total_signed: odoo.number(),
  amount_total: odoo.number(),
  currency_id: odoo.reference(),
  state: z.string().optional().describe('draft, posted or cancel'),
  type: z.enum(['expense', 'invoice']),
  paymentStatus: z.enum(['paid', 'unpaid']),
  uploadedBy: z.string().nullable(),
  comment: z.string().nullable().optional(),
  attachment_ids: odoo.ids(),
  version: VERSION.optional(),
}));

/** A sales order as the list shows it (server/services/orders.ts orderRow). */
export const orderAnswer = checked(z.looseObject({
  id: int,
  name: odoo.text(),
  create_date: odoo.text(),
  write_date: odoo.text(),
  date_order: odoo.text(),
  partner_id: odoo.reference(),
  client_order_ref: odoo.text(),
  user_id: odoo.reference(),
  uploadedBy: z.string().nullable(),
  company_id: odoo.reference(),
  payment_mode_id: odoo.reference(),
  payment_term_id: odoo.reference(),
  pricelist_id: odoo.reference(),
  amount_untaxed: odoo.number(),
  amount_tax: odoo.number(),
  amount_total: odoo.number(),
  margin: odoo.number(),
  margin_percent: odoo.number(),
  currency_id: odoo.reference(),
  state: z.string().optional().describe("draft, sent, sale or cancel (Odoo 16's done is answered as sale)"),
  note: z.string().nullable().optional(),
}));

/** A contact as the list shows it (server/services/contacts.ts contactRow). */
export const contactAnswer = checked(z.looseObject({
  id: int,
  name: odoo.text(),
  x_studio_owner_employee: odoo.reference(),
  company_id: odoo.reference(),
  email: z.string(),
  phone: z.string(),
  company_name: z.string(),
  x_studio_tipo_inversor: z.string().describe('The investor types, by name'),
  category_id: z.array(z.string()).describe('The categories, by name'),
  function: z.string(),
  website: z.string(),
}));

/** What a creation answers: the new record's id (and an order's number). */
export const createdAnswer = z.looseObject({ id: int });

/** An order's creation: its id and number. */
export const orderCreatedAnswer = checked(createdAnswer.extend({ name: odoo.text() }));

/** A console user as the users list shows them to those who may see users (spec section 3, User), with its version. */
export const userAnswer = z.looseObject({
  id: int,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  role: z.string().optional(),
  permissions: z.array(z.string()).optional(),
  companies: z.array(int).optional(),
  active: z.boolean().optional(),
  version: int.optional().describe('What PUT /users/{id} sends back as `version`'),
});

/** One page of users: a holder of moves.list alone (who picks uploaders) gets each user's name and e-mail only. */
export const usersPage = z.looseObject({ users: z.array(userAnswer), total: int });

/** A pending invitation (spec section 7, users), with who sent it. */
export const invitationAnswer = z.looseObject({
  id: int,
  email: z.string(),
  permissions: z.array(z.string()),
  companies: z.array(int),
  createdAt: z.string(),
  expiresAt: z.string(),
  invitedBy: z.looseObject({ id: int, email: z.string().nullable(), name: z.string().nullable() }).nullable(),
});

/** A background job accepted (202): the spec's message, and the companies left out because the ERP does not give them. */
export const jobStarted = z.looseObject({
  message: z.string(),
  unreadable: z.array(z.looseObject({ id: int, name: z.string() })).optional(),
});

/** A document read: the fields found, as a JSON text (the spec's shape: the console parses `result`). */
export const readingAnswer = z.looseObject({ result: z.string().describe('The fields read, JSON-encoded') });
