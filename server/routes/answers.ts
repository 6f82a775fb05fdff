/**
 * What the product's own routes answer, as zod schemas on their routes: the OpenAPI document shows them and the
 * serializer checks each answer against them. Objects are loose (a field added later is sent, never stripped) and
 * every field takes what Odoo gives where it has nothing: `false`, or null for a field this ERP lacks.
 */
import { z } from 'zod';
import { nothing } from '../auth/answers';

export { nothing };

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

/** A list's totals row (shared/domain/totals.ts): its declared total fields summed over every matching record, per currency. */
export const listTotalsAnswer = z.object({
  count: int.describe('How many records the filters match, all currencies together (with `limited`: more than this many)'),
  limited: z.boolean().optional().describe('More than `count` records match and nothing was summed: ask again with `whole: true` to sum them all'),
  currencies: z.array(z.object({
    currency: z.string().describe('The amounts\' currency code (EUR)'),
    count: int,
    sums: z.record(z.string(), z.number()).describe('Each total field\'s sum, rounded to the cent, signed as the ERP stores it'),
  })).describe('One line per currency, most records first'),
  leftOut: z.array(z.string()).optional().describe('The states whose records the sums leave out (cancelled moves and orders)'),
});

/** A move as the lists and dialogs show it (spec section 3; server/services/moves.ts moveRow). */
const moveRow = z.looseObject({
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
});
export const moveAnswer = checked(moveRow);

/** A sales order as the list shows it (server/services/orders.ts orderRow). */
const orderRow = z.looseObject({
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
});
export const orderAnswer = checked(orderRow);

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


/** A 204: done, nothing to say. */
export const noContent = nothing('Done: no content.');

/** A record of a reference list: its id and its name (Odoo's display name where it has no other). */
const named = { id: int, name: odoo.text() };
const namedRecord = z.looseObject(named);

/** A list of records with an id and a name (categories, units, payment modes and terms). */
export const namedList = checked(z.array(namedRecord));

/** A journal or account a company or project books its expenses or invoices to (server/services/companies.ts). */
const journalSetting = z.looseObject({ journal_id: z.union([int, z.literal(false)]), account: z.union([z.string(), z.literal(false)]) });
const journalSettings = { facturas: journalSetting.describe('Invoices'), gastos: journalSetting.describe('Expenses') };

/** GET /odoo/companies: the user's companies with their journal settings and projects (companiesWithProjects). */
export const companiesAnswer = checked(z.looseObject({
  data: z.array(z.looseObject({
    id: int,
    name: z.string(),
    taxRounding: z.enum(['round_per_line', 'round_globally']),
    ...journalSettings,
    projects: z.array(z.looseObject({ id: int, name: z.string(), ...journalSettings })),
  })),
}));

/** GET /odoo/odoo-companies: the user's companies, and their own employee record when the ERP has one. */
export const odooCompaniesAnswer = checked(z.looseObject({
  companies: z.array(namedRecord),
  employee: z.looseObject({ ...named, company_id: odoo.reference() }).nullable(),
}));

/** GET /odoo/investor-types: the connector module's investor types (empty without it). */
export const investorTypesAnswer = checked(z.array(z.looseObject({ id: int, x_name: odoo.text(), x_studio_tipo_inversor_descripcion: odoo.text() })));

/** GET /odoo/events: the connector module's event lists (empty without it). */
export const eventsAnswer = checked(z.array(z.looseObject({ id: int, event_id: odoo.reference(), tags: odoo.ids().describe('Category ids') })));

/** A supplier as the move form's pickers offer it. */
const provider = z.looseObject({ ...named, vat: odoo.text() });
export const providersAnswer = checked(z.array(provider));

/** POST /odoo/providers/create: the supplier created, as the pickers list it. */
export const providerCreatedAnswer = checked(z.looseObject({ id: int, name: z.string(), vat: z.union([z.string(), z.literal(false)]) }));

/** GET /odoo/partner[/{companyId}]: the customers an order or a contact may name. */
export const partnersAnswer = checked(z.array(z.looseObject({ ...named, email: odoo.text(), vat: odoo.text() })));

/** GET /odoo/products[/{companyId}]: the products an order line may sell. */
export const productsAnswer = checked(z.array(z.looseObject({ ...named, uom_id: odoo.reference(), list_price: odoo.number(), default_code: odoo.text() })));

/** GET /odoo/price-lists/{companyId}. */
export const priceListsAnswer = checked(z.array(z.looseObject({ ...named, currency_id: odoo.reference() })));

/** GET /odoo/taxes/{companyId}: sale taxes, with what the order form finds the default one by. */
export const taxesAnswer = checked(z.array(z.looseObject({ ...named, amount: odoo.number(), amount_type: odoo.text(), tax_scope: odoo.text() })));

/** GET /odoo/users/{id}/journals: the journals whose moves the user validates, as [id, 'name (company)']. */
const journalPairs = z.array(z.tuple([int, z.string()]).describe('[id, name (company)]'));
export const validationJournalsAnswer = checked(z.looseObject({ expensesJournals: journalPairs, invoicesJournals: journalPairs }));

/** An order line as the detail and the printed order show it (server/services/orders.ts orderLines). */
const orderLine = z.looseObject({
  id: int,
  name: z.string(),
  name_short: odoo.text().describe("The product's name"),
  product_id: odoo.reference(),
  product_uom_qty: odoo.number(),
  product_uom: odoo.reference(),
  price_unit: odoo.number(),
  price_subtotal: odoo.number(),
  price_tax: odoo.number(),
  price_total: odoo.number(),
  tax_id: odoo.ids(),
  tax_percentage: z.number(),
  product_uom_term: odoo.text().describe("The unit's name"),
  tax_term: z.string().describe("The taxes' names"),
});

/** A message of an order's chatter; its body is HTML as the ERP keeps it (the console sanitises it). */
const orderMessage = z.looseObject({ id: int, date: odoo.text(), body: z.string(), author: odoo.text(), message_type: odoo.text() });

/** GET /odoo/orders/{id} and an edit of its lines: the order as its detail shows it (server/services/orders.ts fullOrder). */
export const orderDetailAnswer = checked(orderRow.extend({
  version: VERSION,
  taxRounding: z.enum(['round_per_line', 'round_globally']),
  lines: z.array(orderLine),
  messages: z.array(orderMessage),
}));

/** PUT /odoo/orders/{id}/confirm: the order's state and its new version. */
export const orderConfirmedAnswer = checked(z.looseObject({ id: int, state: odoo.text(), version: VERSION.optional() }));

/** GET /odoo/orders/{id}/print-url: this server's signed link to the order's PDF. */
export const printUrlAnswer = z.looseObject({ url: z.string().describe('GET /report/pdf/sale.report_saleorder/{id}?token=...&lang=..., valid 10 minutes') });

/** A contact as its detail and its correction show it (server/services/contacts.ts contactDetail), with its version. */
export const contactDetailAnswer = checked(z.looseObject({
  id: int,
  name: odoo.text(),
  email: z.string(),
  phone: z.string(),
  company_name: z.string(),
  company_id: odoo.reference(),
  x_studio_owner_employee: odoo.reference(),
  from_event_assistant: odoo.reference(),
  x_studio_tipo_inversor: z.array(int).describe('Investor type ids'),
  category_id: z.array(int).describe('Category ids'),
  function: z.string(),
  website: z.string(),
  comment: z.string().describe('res.partner.comment as text: the form\'s notes input'),
  notes: z.string().describe("x_notes: the form's comment input"),
  version: VERSION,
}));

/** POST /odoo/contacts/duplicates: at most 10 contacts with the same e-mail or phone, and which of them matched. */
export const duplicatesAnswer = checked(z.looseObject({
  duplicates: z.array(z.looseObject({
    id: int,
    name: odoo.text(),
    email: z.string(),
    phone: z.string(),
    company_id: odoo.reference(),
    matches: z.array(z.enum(['email', 'phone'])),
  })),
}));

/*
 * The moves routes' answers not yet on their routes (server/routes/moves.ts), for them to reference.
 */

/** GET /odoo/moves/attachments: the files, base64, in the order asked, each with whether the console may show it inline. */
export const moveAttachmentsAnswer = checked(z.array(z.looseObject({
  id: int,
  name: odoo.text(),
  mimetype: odoo.text(),
  res_id: int.describe('The move'),
  datas: odoo.text().describe('The file, base64'),
  shown: z.boolean().describe('false: offered as a download only, with its notice'),
  notice: z.string().optional(),
})));

/** POST /odoo/moves/validate: the moves decided (those already decided so included) and those refused, with why. */
export const movesDecidedAnswer = z.looseObject({
  decided: z.array(int),
  failed: z.array(z.looseObject({ id: int, statusCode: int, message: z.string().describe("The refusal, in the request's language") })),
});

/** A move of the validation queue: as listed, with its people's messages (server/services/moves.ts validationQueue). */
const queuedMove = moveRow.extend({
  messages: z.array(z.looseObject({ id: int, date: odoo.text(), body: odoo.text().describe('HTML'), description: odoo.text(), email_from: odoo.text() })),
});

/** GET /odoo/journals/{ids}/moves: the queue, paged when pageNumber or numberOfRecords is given, else the list itself. */
export const validationQueueAnswer = checked(z.union([
  z.array(queuedMove).describe('Without paging: the moves (up to 1000)'),
  z.looseObject({ moves: z.array(queuedMove), total: int, totalIsLowerBound: z.boolean() }).describe('Paged'),
]));
