/**
 * A list's totals row (issue 33, item 5; shared/domain/totals.ts): the declared `total` fields of a resource summed
 * by the ERP over every record of the list's domain, per currency. The domain is the list's own (moveSearchDomain,
 * orderSearchDomain), so the totals are of exactly what the list pages through.
 */
import { roundMoney } from '../../shared/domain/money';
import { sourceOf, totalFields, type ResourceDeclaration } from '../../shared/resources/types';
import type { CurrencyTotals, ListTotals } from '../../shared/domain/totals';
import { boundedCount, COUNT_LIMIT } from '../erp/page';
import type { Domain, ErpClient, GroupSums } from '../erp/types';

/**
 * The totals of `resource`'s list over `domain`. Grouped by the declared currency field, or by company and then
 * merged per company currency (two companies keeping their books in euros make one euro line).
 *
 * Bounded like the list's count (issue 54, item 5): over more than COUNT_LIMIT matches nothing is summed and the
 * answer says `limited` (the row offers "calcular"), unless `whole` asks for every match to be summed. Summing a
 * million moves on every list load, for every user, was the list's slowest part by forty times.
 */
export async function listTotals(erp: ErpClient, resource: ResourceDeclaration, domain: Domain, { whole = false }: { whole?: boolean } = {}): Promise<ListTotals> {
  if (!resource.totals || !resource.model) throw new Error(`${resource.name} declares no totals`);
  if (!whole) {
    const bounded = await boundedCount(erp, resource.model, domain, COUNT_LIMIT);
    if (bounded.limited) return { count: bounded.count, limited: true, currencies: [] };
  }
  const fields = totalFields(resource);
  const sources = fields.map((field) => sourceOf(resource, field));
  const grouped = await erp.readGroup(resource.model, domain, { groupBy: resource.totals.by, sums: sources });
  const { groups, currencyOf } = resource.totals.by === 'company_id' ? { groups: grouped, currencyOf: await companyCurrencies(erp, grouped) } : await byCurrencyField(erp, resource, domain, grouped, sources);
  const byCurrency = new Map<string, CurrencyTotals>();
  for (const group of groups) {
    const currency = currencyOf(group);
    const line = byCurrency.get(currency) ?? { currency, count: 0, sums: Object.fromEntries(fields.map((field) => [field, 0])) };
    line.count += group.count;
    fields.forEach((field, index) => (line.sums[field] += group.sums[sources[index]] ?? 0));
    byCurrency.set(currency, line);
  }
  const currencies = [...byCurrency.values()]
    .map((line) => ({ ...line, sums: Object.fromEntries(Object.entries(line.sums).map(([field, sum]) => [field, roundMoney(sum)])) }))
    .sort((a, b) => b.count - a.count || a.currency.localeCompare(b.currency));
  return { count: currencies.reduce((sum, line) => sum + line.count, 0), currencies };
}

type CurrencyOf = (group: GroupSums) => string;

/**
 * Groups by the record's own currency. Records saved without one (an order the embedded store created before it set
 * it, issue 51) are in their company's currency, as Odoo reads them: grouped again by company, they join its line
 * rather than making a line with no currency.
 */
async function byCurrencyField(erp: ErpClient, resource: ResourceDeclaration, domain: Domain, grouped: GroupSums[], sources: string[]): Promise<{ groups: GroupSums[]; currencyOf: CurrencyOf }> {
  const named = grouped.filter((group) => group.group);
  const companyField = resource.company?.field;
  if (named.length === grouped.length || !companyField) return { groups: grouped, currencyOf: (group) => (group.group ? group.group[1] : '') };
  const byCompany = await erp.readGroup(resource.model!, [...domain, [resource.totals!.by, '=', false]], { groupBy: companyField, sums: sources });
  const ofCompany = await companyCurrencies(erp, byCompany);
  const codes = new Map<GroupSums, string>([...named.map((group): [GroupSums, string] => [group, group.group ? group.group[1] : '']), ...byCompany.map((group): [GroupSums, string] => [group, ofCompany(group)])]);
  return { groups: [...named, ...byCompany], currencyOf: (group) => codes.get(group) ?? '' };
}

/** Each company's currency code, for sums grouped by company (Odoo's `*_signed` amounts are in it). */
async function companyCurrencies(erp: ErpClient, groups: GroupSums[]): Promise<CurrencyOf> {
  const ids = groups.flatMap((group) => (group.group ? [group.group[0]] : []));
  const companies = ids.length ? await erp.read('res.company', ids, ['currency_id']) : [];
  const codes = new Map(companies.map((company) => [company.id, Array.isArray(company.currency_id) ? String(company.currency_id[1]) : '']));
  return (group) => (group.group ? (codes.get(group.group[0]) ?? '') : '');
}
