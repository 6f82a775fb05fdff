/** Issue 28: what the companies guard does with a search's domain, as Odoo reads domains (prefix &, |, !). */
import { describe, expect, it } from 'vitest';
import { CompanyRefusedError, guardCompanies, type CompanyAccess } from '../../server/erp/companies';
import type { Domain, ErpClient } from '../../server/erp/types';
import { answered } from '../support/answered';

/** An ERP that gives the server companies 1 and 2 and answers every search with the domain it was asked. */
function guarded() {
  const asked: Domain[] = [];
  const leftOut: number[][] = [];
  const erp = { searchRead: async (_model: string, domain: Domain) => (asked.push(domain), []), searchCount: async () => 0 } as unknown as ErpClient;
  const access: CompanyAccess = { ids: async () => new Set([1, 2]), refused: async (wanted) => [...new Set(wanted)].filter((id) => id !== 1 && id !== 2).sort((a, b) => a - b) };
  return { erp: guardCompanies(erp, access, (companies) => leftOut.push(companies)), asked, leftOut };
}

describe('the companies guard', () => {
  it('leaves out a refused company of several and names it', async () => {
    const { erp, asked, leftOut } = guarded();
    await erp.searchRead('account.move', [['company_id', 'in', [1, 2, 3]], ['state', '=', 'posted']]);
    expect(asked).toEqual([[['company_id', 'in', [1, 2]], ['state', '=', 'posted']]]);
    expect(leftOut).toEqual([[3]]);
  });

  it('refuses, naming it, a search over a refused company alone (the user filtered to it)', async () => {
    const { erp, asked } = guarded();
    await expect(erp.searchRead('account.move', [['company_id', 'in', [1, 3]], ['company_id', 'in', [3]]])).rejects.toBeInstanceOf(CompanyRefusedError);
    await expect(erp.searchCount('sale.order', [['company_id', '=', 3]]).catch(answered)).resolves.toMatchObject({ statusCode: 502, companies: [3] });
    expect(asked).toEqual([]);
  });

  it("passes on, as it is, a filter on a company the user does not have: the search is empty whatever the ERP gives", async () => {
    const { erp, asked, leftOut } = guarded();
    const domain: Domain = [['company_id', 'in', [1, 2]], '|', ['name', 'ilike', 'a'], ['work_email', 'ilike', 'a'], ['company_id', '=', 6]];
    await erp.searchRead('hr.employee', domain);
    expect(asked).toEqual([domain]);
    expect(leftOut).toEqual([]);
  });

  it('reads shared records (company_id = false) as no company: only the refused one is left out', async () => {
    const { erp, asked, leftOut } = guarded();
    await erp.searchRead('res.partner', ['|', ['company_id', '=', false], ['company_id', 'in', [1, 99]]]);
    expect(asked).toEqual([['|', ['company_id', '=', false], ['company_id', 'in', [1]]]]);
    expect(leftOut).toEqual([[99]]);
  });

  it('reads a refused company among alternatives (companies by id or by name) as matching nothing; the others still answer', async () => {
    const { erp, asked, leftOut } = guarded();
    await erp.searchRead('account.move', [['company_id', 'in', [1, 2]], '|', ['company_id', 'in', [5, 59]], ['company_id.name', 'in', ['Beta SL']], ['state', 'in', ['draft']]]);
    expect(asked).toEqual([[['company_id', 'in', [1, 2]], '|', ['company_id', 'in', []], ['company_id.name', 'in', ['Beta SL']], ['state', 'in', ['draft']]]]);
    expect(leftOut).toEqual([]);
  });
});
