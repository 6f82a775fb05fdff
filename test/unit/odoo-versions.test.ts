/**
 * What differs between Odoo 16, 17 and 18 where the product meets it (issue 13, item 6): Odoo 16 keeps a locked
 * sale order as 'done'; Odoo 18 shares accounts between companies (`company_ids` instead of `company_id`). Day
 * filters on datetimes run from midnight to midnight in the companies' time zone.
 */
import { describe, expect, it } from 'vitest';
import { accountByCode } from '../../server/services/move-create';
import { orderSearchSchema } from '../../server/routes/orders';
import { orderRow, orderSearchDomain } from '../../server/services/orders';
import { messageDescription, messageDescriptionFields, orderPricelist, shorten, standardFields, STANDARD_FIELDS } from '../../server/erp/odoo/requirements';
import { moveNumber } from '../../src/resources/moves/number';
import type { Domain, ErpClient, SearchOptions } from '../../server/erp/types';
import { answered } from '../support/answered';

/**
 * Accounts as each version keeps them. On Odoo 18 an account's code belongs to a company: `code` is compared with
 * the code of the context's company (allowed_company_ids[0], else the API user's default company 1), so an account
 * of company 2 has no code at all in company 1's eyes.
 */
function fakeErp(version: number | undefined, accounts: Array<{ id: number; code: string; company: number }>) {
  const asked: Domain[] = [];
  const erp = {
    ...(version === undefined ? {} : { version: async () => version }),
    searchRead: async (_model: string, domain: Domain, options?: SearchOptions) => {
      asked.push(domain);
      const [[, , code], [field, , companies]] = domain as Array<[string, string, unknown]>;
      const contextCompany = (options?.context?.allowed_company_ids as number[] | undefined)?.[0] ?? 1;
      const codeOf = (one: { code: string; company: number }) => ((version ?? 17) >= 18 && one.company !== contextCompany ? false : one.code);
      return accounts.filter((one) => codeOf(one) === code && (companies as number[]).includes(one.company) && (field === 'company_id' || field === 'company_ids')).map((one) => ({ id: one.id }));
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

  it("finds a code of company 2 on Odoo 18, where codes are each company's and the API user's default company is 1", async () => {
    const { erp } = fakeErp(18, chart);
    expect(await accountByCode(erp, 2, '600000', 'ES Company')).toBe(396);
    expect(await accountByCode(erp, 1, '600000', 'YourCompany')).toBe(30);
  });

  it('refuses a code the chart does not have, naming it and the company', async () => {
    const { erp } = fakeErp(17, chart);
    await expect(accountByCode(erp, 2, '629999', 'ES Company').catch(answered)).resolves.toMatchObject({ statusCode: 400, message: 'The account 629999 does not exist in the chart of accounts of ES Company' });
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

describe("a chatter message's short description", () => {
  it('is read as description up to Odoo 17 and made from subject and preview on 18 and 19, which have no description', () => {
    expect(messageDescriptionFields(16)).toEqual(['description']);
    expect(messageDescriptionFields(17)).toEqual(['description']);
    expect(messageDescriptionFields(18)).toEqual(['subject', 'preview']);
    expect(messageDescriptionFields(19)).toEqual(['subject', 'preview']);
    expect(standardFields(17)).toEqual(STANDARD_FIELDS);
    expect(standardFields(18)['mail.message']).not.toContain('description');
    expect(standardFields(18)['mail.message']).toEqual(expect.arrayContaining(['body', 'subject', 'preview', 'email_from']));
  });

  it("reads as Odoo 17's description: the subject, else the body's first 30 characters in whole words", () => {
    expect(messageDescription({ description: 'Revisado CT1' })).toBe('Revisado CT1');
    expect(messageDescription({ subject: 'Factura 12', preview: 'Revisado' })).toBe('Factura 12');
    expect(messageDescription({ subject: false, preview: 'Revisado CT1' })).toBe('Revisado CT1');
    // Python: textwrap.shorten('La factura no cuadra con el pedido de octubre', 30) == 'La factura no cuadra con [...]'
    expect(messageDescription({ subject: false, preview: 'La factura no cuadra con el pedido de octubre' })).toBe('La factura no cuadra con [...]');
    expect(messageDescription({ subject: false, preview: 'La factura no cuadra conmigo el pedido' })).toBe('La factura no cuadra [...]');
    expect(shorten('  Hola   mundo  ', 30)).toBe('Hola mundo');
    expect(shorten('Supercalifragilisticoespialidoso y más', 30)).toBe('[...]');
    expect(messageDescription({ subject: false, preview: false })).toBe(false);
  });
});

describe("a draft move's number", () => {
  const translate = (key: string) => (key === 'app.moves.draftNumber' ? 'Borrador' : key);
  it("reads 'Borrador' whether Odoo names the draft '/' (16, 17) or false (18)", () => {
    expect(moveNumber('/', translate)).toBe('Borrador');
    expect(moveNumber(false, translate)).toBe('Borrador');
    expect(moveNumber('FACTU/2026/11/0001', translate)).toBe('FACTU/2026/11/0001');
  });
});

describe('the pricelist a new order is created with', () => {
  it('leaves it out on Odoo 16 when none is chosen (16 refuses false: its pricelist is required), sends false on 17+', () => {
    expect(orderPricelist(16, null)).toEqual({});
    expect(orderPricelist(16, undefined)).toEqual({});
    expect(orderPricelist(17, null)).toEqual({ pricelist_id: false });
    expect(orderPricelist(18, undefined)).toEqual({ pricelist_id: false });
  });

  it('sends the chosen one on every version', () => {
    for (const major of [16, 17, 18, 19]) expect(orderPricelist(major, 3)).toEqual({ pricelist_id: 3 });
  });
});
