/**
 * Issue 52: the issuer as a company lives it, on SROIE's 626 training receipts split by merchant (bench/sroie-626.ts,
 * from the cached OCR there: run `bench/sroie-626.ts --ocr` first).
 *
 *   SROIE626_DIR=/path/to/ICDAR-2019-SROIE/data node --import tsx bench/supplier-match.ts [-v]
 *
 * The company's suppliers: for every merchant with several receipts, its first receipt's true name, with the tax id
 * printed on that receipt (its GST number, else its company number, from the dataset's given words), as a company
 * that registered one bill of that shop holds it: every merchant's of both parts, a couple of hundred names. Each
 * merchant's other receipts are read against that whole list ("known"); the receipts of merchants with one receipt
 * only are the shops the company does not have ("new"). A known receipt is right when the supplier chosen is its
 * merchant's (whatever branch the receipt names); a new one when nothing stored is chosen and the name read is the
 * truth. An offer to create a supplier (the name read with confidence >= 0.7 and no stored one chosen) whose name is
 * not the truth is counted apart: that would be a junk supplier (and, of those, the ones that are the legal company
 * the truth names after a shop's name: see ownerOnly). Beside it, what the console did before (the rules' name, then
 * the near match of that one name).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { closestSupplier } from '../shared/domain/text';
import { groupRows, type Segment } from '../server/extract/fields';
import { extractDocumentFields } from '../server/extract/document-fields';
import { findKnownSupplier, type KnownSupplier } from '../server/extract/known-supplier';
import { valueHits } from './extraction-words';
import { readings, receipts, SROIE626, type Receipt } from './sroie-626';

const OFFER = 0.7;
const percent = (part: number, of: number) => `${((part / Math.max(1, of)) * 100).toFixed(1)}%`;
/**
 * A supplier as a company stores it: the merchant's name without legal form or branch in brackets (the split's
 * eight-letter stem would make every "PASARAYA ..." or "BHPETROL ..." station one supplier, which a company does not).
 */
const stem = (one: Receipt) => one.merchant;

/** The tax id printed on a receipt, from the dataset's given words: its GST number, else its company number. */
function printedTaxId(key: string): string | undefined {
  const text = readFileSync(join(SROIE626, 'box', `${key}.csv`), 'latin1')
    .split('\n')
    .map((line) => line.split(',').slice(8).join(','))
    .join('\n');
  const gst = /GST[^0-9\n]{0,20}(\d{12})/i.exec(text)?.[1];
  if (gst) return gst;
  return /\b(\d{5,8}-[A-Z])\b/.exec(text)?.[1] ?? /\b([A-Z]{2}\d{6,10}-[A-Z])\b/.exec(text)?.[1];
}

interface Supplier extends KnownSupplier {
  stem: string;
}
/** The tax id printed on each receipt: a supplier chosen by a tax id the receipt prints is its issuer's legal entity, whatever name it trades under. */
const sameEntity = (supplier: Supplier | undefined, one: Receipt) => !!supplier && (supplier.stem === stem(one) || (!!supplier.vat && supplier.vat === printedTaxId(one.key)));

/** Prints, for each part, the issuer as a company lives it (see above), from the cached tesseract reading. */
/** Letters and digits, capitals. */
const letters = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]/g, '');
/**
 * An offered name that is the truth's end and ends with a legal form: the company that owns the place, which SROIE's
 * truth joins to the shop's name printed above it ("DIMILIKI OLEH : DOVE HOLDINGS SDN BHD", "BECON STATIONER BECON
 * ENTERPRISE SDN BHD"), and which the rules take alone on purpose (fields.ts, cleanCompany).
 */
const ownerOnly = (offered: string, truth: string) => /\b(SDN\.?\s*BHD\.?|BHD|BERHAD|S\/B|ENTERPRISE|PLT)\s*$/i.test(offered.trim()) && letters(truth).endsWith(letters(offered)) && letters(truth) !== letters(offered);

export function scoreSuppliers(verbose = false): void {
  const all = receipts();
  const cache = readings('tesseract');
  const byMerchant = new Map<string, Receipt[]>();
  for (const one of all) byMerchant.set(stem(one), [...(byMerchant.get(stem(one)) ?? []), one]);
  /**
   * The company's suppliers when `heldOut`'s part is read: the first receipt's name and tax id of every merchant of the
   * other part, and of every merchant of this part with several receipts (whose first receipt is then not read).
   */
  function supplierList(byMerchant: ReadonlyMap<string, Receipt[]>, heldOut: boolean): { suppliers: Supplier[]; firsts: Set<string> } {
    const suppliers: Supplier[] = [];
    const firsts = new Set<string>();
    for (const [merchant, some] of byMerchant) {
      const first = some[0];
      if (first.heldOut === heldOut && some.length < 2) continue;
      if (first.heldOut === heldOut) firsts.add(first.key);
      suppliers.push({ id: suppliers.length + 1, name: first.truth.company, vat: printedTaxId(first.key) ?? false, stem: merchant });
    }
    return { suppliers, firsts };
  }

  const nameRight = (name: string | undefined, truth: string) => valueHits({ company: name }, { company: truth, date: '', total: '' }).company;

  for (const [label, heldOut] of [['held out (merchants never tuned on)', true], ['tuning part', false]] as const) {
    const { suppliers, firsts } = supplierList(byMerchant, heldOut);
    const part = all.filter((one) => one.heldOut === heldOut && !firsts.has(one.key));
    const known = part.filter((one) => (byMerchant.get(stem(one))?.length ?? 0) >= 2);
    const fresh = part.filter((one) => (byMerchant.get(stem(one))?.length ?? 0) < 2);
    const now = { knownRight: 0, byVat: 0, byName: 0, byNear: 0, knownWrong: 0, freshRight: 0, freshWrongMatch: 0, badOffers: 0, ownerOnly: 0, offers: 0 };
    const before = { knownRight: 0, freshRight: 0, badOffers: 0 };
    let milliseconds = 0;
    let unread = 0;
    for (const one of part) {
      const reading = cache.get(one.key);
      const isKnown = known.includes(one);
      if (!reading) {
        unread++;
        continue;
      }
      const segments = reading.segments as Segment[];
      const fields = extractDocumentFields(segments);
      const started = performance.now();
      const found = findKnownSupplier(groupRows(segments), suppliers);
      milliseconds += performance.now() - started;
      const near = !found && fields.company ? closestSupplier(fields.company, suppliers) : undefined;
      const chosen = found?.supplier ?? near;
      const offered = !chosen && fields.company !== undefined && (fields.companyConfidence ?? 1) >= OFFER;
      if (offered) now.offers++;
      if (offered && !nameRight(fields.company, one.truth.company)) {
        now.badOffers++;
        if (ownerOnly(fields.company!, one.truth.company)) now.ownerOnly++;
        if (verbose) console.log(`  offer ${one.key}: «${fields.company}» (${fields.companyConfidence}) for «${one.truth.company}»${isKnown ? ' (a supplier the company has)' : ''}`);
      }
      // Before: the rules' name looked up, then its near match.
      const beforeChosen = fields.company ? closestSupplier(fields.company, suppliers) ?? suppliers.find((s) => nameRight(s.name, fields.company!)) : undefined;
      const beforeOffered = !beforeChosen && fields.company !== undefined && (fields.companyConfidence ?? 1) >= OFFER;
      if (beforeOffered && !nameRight(fields.company, one.truth.company)) before.badOffers++;
      if (isKnown) {
        if (sameEntity(chosen, one)) {
          now.knownRight++;
          if (found?.by === 'vat') now.byVat++;
          else if (found) now.byName++;
          else now.byNear++;
        } else {
          if (chosen) now.knownWrong++;
          if (verbose) console.log(`  known ${one.key}: ${chosen ? `chose «${chosen.name}»` : `none, read «${fields.company ?? ''}»`}, want «${one.truth.company}»`);
        }
        if (sameEntity(beforeChosen, one)) before.knownRight++;
      } else {
        if (chosen && sameEntity(chosen, one)) now.freshRight++;
        else if (chosen) {
          now.freshWrongMatch++;
          if (verbose) console.log(`  new ${one.key}: chose «${chosen.name}» (${found ? `${found.by} ${found.likeness}` : 'near'}) for «${one.truth.company}»`);
        } else if (nameRight(fields.company, one.truth.company)) now.freshRight++;
        if (!beforeChosen && nameRight(fields.company, one.truth.company)) before.freshRight++;
      }
    }
    const n = part.length;
    console.log(`\n${label}: the company has ${suppliers.length} suppliers (${suppliers.filter((one) => one.vat).length} with a tax id): every merchant of the other part, and those of this part with several receipts; ${n} receipts read against the list (${known.length} of merchants the company has, ${fresh.length} of merchants it has not; ${unread} not in the OCR cache, counted as missed)`);
    console.log(`  known merchants: right supplier ${percent(now.knownRight, known.length)} (${now.knownRight}/${known.length}: ${now.byVat} by tax id, ${now.byName} by name, ${now.byNear} by the near match of the name read), a wrong supplier ${now.knownWrong}; before ${percent(before.knownRight, known.length)}`);
    console.log(`  new merchants: name read right ${percent(now.freshRight, fresh.length)} (${now.freshRight}/${fresh.length}), taken for a stored supplier ${now.freshWrongMatch}; before ${percent(before.freshRight, fresh.length)}`);
    console.log(`  issuer, all: ${percent(now.knownRight + now.freshRight, n)} (before ${percent(before.knownRight + before.freshRight, n)}); offers to create a supplier whose name is not the truth: ${now.badOffers} (${percent(now.badOffers, n)}; before ${before.badOffers}, ${percent(before.badOffers, n)}), of ${now.offers} offers; of those, ${now.ownerOnly} are the legal company the truth names after a shop's name (truth "DIMILIKI OLEH : DOVE HOLDINGS SDN BHD", offered "Dove Holdings Sdn Bhd"), ${now.badOffers - now.ownerOnly} (${percent(now.badOffers - now.ownerOnly, n)}) another name`);
    console.log(`  matching against ${suppliers.length} suppliers: ${(milliseconds / Math.max(1, n - unread)).toFixed(1)} ms a receipt`);
  }
}

if (process.argv[1]?.endsWith('supplier-match.ts')) scoreSuppliers(process.argv.includes('-v'));
