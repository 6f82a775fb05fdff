/**
 * A supplier read from a document that none of the company's matches (issue 17): created for that company, the way
 * Odoo's own form creates a vendor (a company, supplier rank 1). One with the same tax id, or the same name, among
 * the partners the company sees is refused naming it, so that a second click or a second reader does not double it.
 */
import { vatCore } from '../../shared/domain/text';
import type { Domain, ErpClient } from '../erp/types';
import { HttpError } from '../http-error';
import { companyDomain } from './domains';

/** Text as compared for "the same name": without accents, case or repeated spaces. */
const plain = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
/** A tax id as stored may carry marks ('B-46123456'): its longest run of digits finds it. */
const digitsOf = (printed: string) => (vatCore(printed).match(/\d+/g) ?? []).sort((a, b) => b.length - a.length)[0] ?? vatCore(printed);

/** A supplier's address as an e-invoice gives it (issue 55); the country by its ISO 3166 code. */
export interface ProviderAddress {
  street?: string;
  city?: string;
  postalCode?: string;
  country?: string;
}

/** The address as res.partner's fields; a country the ERP does not list is left out rather than guessed. */
async function addressValues(erp: ErpClient, address: ProviderAddress | undefined): Promise<Record<string, unknown>> {
  if (!address) return {};
  const [country] = address.country ? await erp.searchRead('res.country', [['code', '=ilike', address.country]], { fields: ['id'], limit: 1 }).catch(() => []) : [];
  return {
    ...(address.street ? { street: address.street } : {}),
    ...(address.city ? { city: address.city } : {}),
    ...(address.postalCode ? { zip: address.postalCode } : {}),
    ...(country ? { country_id: country.id } : {}),
  };
}

export async function createProvider(erp: ErpClient, companyId: number, name: string, vat: string | undefined, address?: ProviderAddress): Promise<{ id: number; name: string; vat: string | false }> {
  // Candidates by Odoo's ilike on the name's longest plain word (a database's ilike may not fold accented
  // capitals), then exactly: the same name but for case and accents, or the same tax id without its marks.
  const word = name.split(/\s+/).filter((one) => /^[A-Za-z]{3,}$/.test(one)).sort((a, b) => b.length - a.length)[0] ?? name;
  const candidates = await erp.searchRead(
    'res.partner',
    [['active', '=', true], ...companyDomain([companyId]), ...(vat ? ['|', ['vat', 'ilike', digitsOf(vat)]] : []), ['name', 'ilike', word]] as Domain,
    { fields: ['name', 'vat'], limit: 200 },
  );
  const sameVat = vat ? candidates.find((one) => typeof one.vat === 'string' && vatCore(one.vat) === vatCore(vat)) : undefined;
  const sameName = candidates.find((one) => plain(String(one.name)) === plain(name));
  const same = sameVat ?? sameName;
  if (same) throw new HttpError(409, same === sameVat ? 'providers.vatExists' : 'providers.nameExists', { name: String(same.name) }, { field: same === sameVat ? 'vat' : 'name' });
  const id = await erp.create('res.partner', { name, ...(vat ? { vat } : {}), ...(await addressValues(erp, address)), is_company: true, supplier_rank: 1, company_id: companyId });
  return { id, name, vat: vat ?? false };
}

/**
 * The company's suppliers a document is matched against when read (issue 52): the partners the supplier box offers
 * (any active partner the company sees, suppliers with bills first), with their tax ids; at most
 * KNOWN_SUPPLIERS_LIMIT.
 */
export const KNOWN_SUPPLIERS_LIMIT = 5000;
export async function companySuppliers(erp: ErpClient, companyId: number): Promise<Array<{ id: number; name: string; vat: string | false }>> {
  const partners = await erp.searchRead('res.partner', [['active', '=', true], ...companyDomain([companyId])] as Domain, { fields: ['name', 'vat'], order: 'supplier_rank desc, name, id', limit: KNOWN_SUPPLIERS_LIMIT });
  return partners.map((one) => ({ id: one.id, name: String(one.name ?? ''), vat: typeof one.vat === 'string' ? one.vat : false }));
}
