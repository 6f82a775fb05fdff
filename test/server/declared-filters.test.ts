import { describe, expect, it } from 'vitest';
import { moveSearchSchema } from '../../server/routes/moves';
import { moveSearchDomain } from '../../server/services/moves';
import { orderSearchSchema } from '../../server/routes/orders';
import { orderSearchDomain } from '../../server/services/orders';
import { contactSearchSchema } from '../../server/routes/contacts';
import { userSearchSchema } from '../../server/routes/users';
import { SORT_COLUMNS, userFilterClauses } from '../../server/services/users';
import { filterDomain } from '../../server/routes/filters';
import { resourceNamed } from '../../shared/resources/registry';
import { filterKeys } from '../../shared/resources/filters';
import { sortableFields } from '../../shared/resources/types';

/** The list filters come from the declarations (shared/resources): the search body's keys, what they accept, the domain. */
describe('declared filters', () => {
  it("make the move search's keys from moves.resource.ts, date ranges as <param>From and <param>To", () => {
    expect(filterKeys(resourceNamed('moves')!).map((key) => key.key)).toEqual([
      'number', 'partner', 'validated', 'notValidated', 'dateFrom', 'dateTo', 'dueDateFrom', 'dueDateTo', 'reference', 'company', 'state', 'uploadedBy',
    ]);
  });

  it('make the Odoo domain of a move search, every filter at once', () => {
    const body = moveSearchSchema.parse({
      number: ' FACT ', partner: 7, validated: true, notValidated: false, dateFrom: '2026-01-01', dateTo: '2026-01-31', dueDateFrom: '2026-02-01',
      dueDateTo: '', reference: 'Cena', company: [1, 'Beta SL'], state: ['cancelled', 'cancel', 'draft'], uploadedBy: 'Ana@Example.com',
    });
    expect(moveSearchDomain(body, [1, 2])).toEqual([
      ['company_id', 'in', [1, 2]], ['move_type', 'in', ['in_invoice', 'in_receipt', 'in_refund']],
      ['name', 'ilike', 'FACT'], ['partner_id', '=', 7],
      ['pnt_account_move_team_manager_validate', '=', true], ['pnt_account_move_team_manager_deny', '=', false],
      ['invoice_date', '>=', '2026-01-01'], ['invoice_date', '<=', '2026-01-31'], ['invoice_date_due', '>=', '2026-02-01'],
      ['ref', 'ilike', 'Cena'],
      '|', ['company_id', 'in', [1]], ['company_id.name', 'in', ['Beta SL']],
      // 'cancelled' is the declared alias of 'cancel'; each state once.
      ['state', 'in', ['cancel', 'draft']],
      ['x_uploaded_by', '=ilike', 'Ana@Example.com'],
    ]);
    expect(moveSearchDomain(moveSearchSchema.parse({ partner: 'Ñandú' }), [1])).toContainEqual(['partner_id.name', 'ilike', 'Ñandú']);
  });

  it('refuse what a declared filter does not take, naming the key', () => {
    for (const bad of [{ state: ['paid'] }, { dateFrom: '31/01/2026' }, { validated: 'yes' }, { company: [0] }, { numbr: 'x' }, { reference: 'a'.repeat(201) }]) {
      const result = moveSearchSchema.safeParse(bad);
      expect(result.success, JSON.stringify(bad)).toBe(false);
      expect(result.error!.issues[0].path.join('.') || 'unrecognized_keys').toMatch(new RegExp(`^(${Object.keys(bad)[0]}|unrecognized_keys)`));
    }
  });

  it("make an order search's days the companies' days, and keep orders' own state terms ('all', Odoo 16's 'done')", () => {
    const body = orderSearchSchema.parse({ dateFrom: '2026-11-25', dateTo: '2026-11-25', state: ['sale'], partner: 'Acme' });
    expect(orderSearchDomain(body, [3], 'Europe/Madrid')).toEqual([
      ['company_id', 'in', [3]], ['partner_id.name', 'ilike', 'Acme'],
      ['date_order', '>=', '2026-11-24 23:00:00'], ['date_order', '<=', '2026-11-25 22:59:59'],
      ['state', 'in', ['sale', 'done']],
    ]);
    expect(orderSearchDomain(orderSearchSchema.parse({ state: ['draft', 'all'] }), [3])).toEqual([['company_id', 'in', [3]]]);
  });

  it("find a contact's company by id or by a text of its name", () => {
    const contacts = resourceNamed('contacts')!;
    expect(filterDomain(contacts, contactSearchSchema.parse({ companyOwner: 2 }))).toEqual([['company_id', '=', 2]]);
    expect(filterDomain(contacts, contactSearchSchema.parse({ companyOwner: 'Beta', owner: 'Ana' }))).toEqual([['x_studio_owner_employee.name', 'ilike', 'Ana'], ['company_id.name', 'ilike', 'Beta']]);
  });

  it("make the users search's keys, its SQL terms and its sort columns from users.resource.ts", () => {
    const users = resourceNamed('users')!;
    expect(filterKeys(users).map((key) => key.key)).toEqual(['name', 'email', 'companyId']);
    // The declared keys, `company` (the companies filter's earlier name) and the page.
    expect(Object.keys(userSearchSchema.shape).sort()).toEqual(['company', 'companyId', 'email', 'name', 'numberOfRecords', 'pageNumber']);
    const body = userSearchSchema.parse({ name: ' José ', email: 'a_b%', companyId: 3 });
    expect(userFilterClauses(body)).toEqual([
      ["bo_unaccent(first_name || ' ' || last_name) ILIKE bo_unaccent(?)", '%José%'],
      ['bo_unaccent(email) ILIKE bo_unaccent(?)', '%a\\_b\\%%'],
      ['? = ANY(companies)', 3],
    ]);
    expect(userFilterClauses(userSearchSchema.parse({ company: 4, name: '' }))).toEqual([['? = ANY(companies)', 4]]);
    expect(userSearchSchema.safeParse({ companyId: 0 }).success).toBe(false);
    expect(userSearchSchema.safeParse({ firstName: 'Ana' }).success).toBe(false);
    // Each sortable field sorts by its column (texts by lower case, as the default order compares them).
    expect(Object.keys(SORT_COLUMNS)).toEqual(sortableFields(users));
    expect(SORT_COLUMNS).toEqual({ firstName: 'lower(first_name)', lastName: 'lower(last_name)', email: 'lower(email)', active: 'active' });
  });
});
