import { closestSupplier, supplierSearchTerms, vatCore } from '../../../shared/domain/text';
import type { Provider, SupplierRead, SupplierSearch, UnmatchedSupplier } from './moveTypes';

/**
 * The supplier box's choices: the company's stored suppliers, then those a server search found and the one chosen
 * outside that list, each once. In alphabetical order, as a person looks a name up (the server sends the suppliers
 * with bills first, so that its list of at most PROVIDER_LIST_LIMIT holds the ones in use).
 */
export function supplierOptions(providers: readonly Provider[], searched: readonly Provider[], picked: Provider | null, locale: string): Provider[] {
  const known = new Set(providers.map((one) => one.id));
  const extra = [...searched, ...(picked ? [picked] : [])].filter((one) => !known.has(one.id) && (known.add(one.id), true));
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
  return [...providers, ...extra].sort((a, b) => collator.compare(a.name, b.name));
}

/**
 * Issue 51: a name read below this confidence (the reading's providerConfidence) is not offered for creation, only
 * said for the user to look up or type: on SROIE's 80 development images (bench/supplier-confidence.ts) every garbled
 * name ("ALAM) ) © SUN BHD", "SHH, MOTOR ( SUNGAL RENGIT ) SON. BHD.", "RESTAURANT SILV 5") is under it, and about
 * nine right names in ten are above it.
 */
export const SUPPLIER_OFFER_CONFIDENCE = 0.7;

/** What a supplier lookup does with what it finds. `current`: whether this lookup still stands. */
export interface SupplierMatchSteps {
  search: SupplierSearch;
  choose: (provider: Provider) => void;
  sayUnmatched: (unmatched: UnmatchedSupplier) => void;
  current: () => boolean;
}

/**
 * The supplier a reading found, for `company`: by the tax id read from the document when there is one (exact where
 * names differ), then by name, the first search that finds one winning; when none does, the company's stored
 * supplier (`stored`) whose name is the one read but for an OCR slip or two; else the name read is said under the
 * box, with a way to create it when it was read with confidence (else it is only said, `unsure`). Whether a supplier
 * was chosen.
 */
export async function matchSupplier(company: number, read: SupplierRead, stored: readonly Provider[], { search, choose, sayUnmatched, current }: SupplierMatchSteps): Promise<boolean> {
  // Issue 52: the server found this company's own supplier on the document (by its tax id or its name).
  if (read.id !== undefined && read.company === company && read.provider) {
    choose(stored.find((one) => one.id === read.id) ?? { id: read.id, name: read.provider });
    // Found by a name read otherwise: what was read is said, as for the console's own near match.
    if (read.read) sayUnmatched({ name: read.read, near: true });
    return true;
  }
  const vat = read.vat && vatCore(read.vat).length >= 8 ? read.vat : undefined;
  const searches = [...(vat ? [{ vat }] : []), ...(read.provider ? supplierSearchTerms(read.provider).map((name) => ({ name })) : [])];
  for (const one of searches) {
    const found = await search({ companyId: company, ...one });
    // Overtaken meanwhile (another company, another reading, a send): this company's answer is not written.
    if (!current()) return false;
    if (found[0]) {
      choose(found[0]);
      return true;
    }
  }
  if (!read.provider) return false;
  const near = closestSupplier(read.provider, stored);
  if (near) {
    choose(near);
    sayUnmatched({ name: read.provider, near: true });
    return true;
  }
  const unsure = read.confidence !== undefined && read.confidence < SUPPLIER_OFFER_CONFIDENCE;
  sayUnmatched({ name: read.provider, ...(vat ? { vat } : {}), ...(unsure ? { unsure } : {}), ...(read.address ? { address: read.address } : {}) });
  return false;
}
