/**
 * What differs between Odoo 16, 17 and 18 where the product meets it (issue 13, item 6): Odoo 16 keeps a locked
 * sale order as 'done'; Odoo 18 shares accounts between companies (`company_ids` instead of `company_id`). Day
 * filters on datetimes run from midnight to midnight in the companies' time zone.
 */
import { describe, expect, it } from 'vitest';
import { accountByCode } from '../../server/routes/moves';
import { orderRow, orderSearchDomain, orderSearchSchema } from '../../server/routes/orders';
import type { Domain, ErpClient, SearchOptions } from '../../server/erp/types';

function fakeErp(version: number | undefined, accounts: Array<{ id: number; code: string; company: number }>) {
  const asked: Domain[] = [];
  const erp = {
    ...(version === undefined ? {} : { version: async () => version }),
    searchRead: async (_model: string, domain: Domain, _options?: SearchOptions) => {
      asked.push(domain);
      const [[, , code], [field, , companies]] = domain as Array<[string, string, unknown]>;
      return accounts.filter((one) => one.code === code && (companies as number[]).includes(one.company) && (field === 'company_id' || field === 'company_ids')).map((one) => ({ id: one.id }));
    },
  } as unknown as ErpClient;
  return { erp, asked };
}

describe('the account of a line, by code in the company chart', () => {
  const chart = [{ id: 30, code: '600000', company: 1 }, { id: 396, code: '600000', company: 2 }];

  it('asks company_id on Odoo 16 and 17 (and the embedded store), company_ids on 18', async () => {
    for (const [version, field] of [[16, 'company_id'], [17, 'company_id'], [undefined, 'company_id'], [18, 'company_ids']] as const) {
      const { erp, asked } = fakeErp(version, chart);
      expect(await accountByCode(erp, 2, '600000', 'ES Company')).toBe(396);
      expect(asked[0]).toEqual([['code', '=', '600000'], [field, 'in', [2]]]);
    }
  });

  it('refuses a code the chart does not have, naming it and the company', async () => {
    const { erp } = fakeErp(17, chart);
    await expect(accountByCode(erp, 2, '629999', 'ES Company')).rejects.toMatchObject({ statusCode: 400, message: 'The account 629999 does not exist in the chart of accounts of ES Company' });
  });
});

describe('sale order states across versions', () => {
  it("shows Odoo 16's locked 'done' as a sale order and finds it with the sale filter", () => {
    expect(orderRow({ id: 1, state: 'done' }).state).toBe('sale');
    expect(orderRow({ id: 1, state: 'sale' }).state).toBe('sale');
    const domain = orderSearchDomain(orderSearchSchema.parse({ state: ['sale'] }), [1]);
    expect(domain).toContainEqual(['state', 'in', ['sale', 'done']]);
    expect(orderSearchDomain(orderSearchSchema.parse({ state: ['draft'] }), [1])).toContainEqual(['state', 'in', ['draft']]);
  });
});

describe('day filters on datetimes', () => {
  it("run from midnight to midnight in the companies' time zone, in winter and in summer", () => {
    const winter = orderSearchDomain(orderSearchSchema.parse({ dateFrom: '2026-11-23', dateTo: '2026-11-23' }), [1], 'Europe/Madrid');
    expect(winter).toContainEqual(['date_order', '>=', '2026-11-22 23:00:00']);
    expect(winter).toContainEqual(['date_order', '<=', '2026-11-23 22:59:59']);
    const summer = orderSearchDomain(orderSearchSchema.parse({ dateFrom: '2026-07-01', dateTo: '2026-07-01' }), [1], 'Europe/Madrid');
    expect(summer).toContainEqual(['date_order', '>=', '2026-06-30 22:00:00']);
    expect(summer).toContainEqual(['date_order', '<=', '2026-07-01 21:59:59']);
  });
});
