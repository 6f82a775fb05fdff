/**
 * A receipt's or invoice's fields from its positioned words: the hand rules' finds (fields.ts) weighed by the learned
 * choices (choose.ts), apart from both so that the rules and the choices import one way only.
 */
import { chooseCompany, chooseDate, chooseTotal } from './choose';
import { companyConfidence, CORPORATE, dateFinds, findCompany, findConcept, findDate, findTotal, groupRows, roundedTotal, type DocumentFields, type Segment } from './fields';

export function extractDocumentFields(segments: readonly Segment[]): DocumentFields {
  const rows = groupRows(segments);
  const fields: DocumentFields = {};
  // The learned choices among the printed amounts, dates and names (choose.ts), the hand rules' pick being one of
  // each model's features.
  const total = roundedTotal(rows, chooseTotal(rows, findTotal(rows)));
  if (total) {
    fields.totalText = total.text;
    fields.total = total.value;
    if (rows[total.row]) fields.totalLine = rows[total.row].text;
  }
  const dates = dateFinds(rows);
  const date = chooseDate(rows, findDate(rows, dates), undefined, dates);
  if (date) {
    fields.dateText = date.text;
    fields.date = date.iso;
    const line = rows.find((row) => row.text.includes(date.text));
    if (line) fields.dateLine = line.text;
  }
  const company = chooseCompany(rows, findCompany(rows));
  if (company) {
    fields.company = company.name;
    const sure = companyConfidence(rows, company.name);
    if (sure !== undefined) fields.companyConfidence = sure;
    if (company.taxId) fields.taxId = company.taxId;
  }
  const concept = findConcept(rows, company?.name);
  if (concept) fields.concept = concept;
  return fields;
}

/**
 * How many of a receipt's main fields a read gives (0 to 3): a total, a date, and an issuer whose name has a
 * corporate word (SDN BHD, S.L., TRADING...). OCR (ocr.ts) reads a picture a second way when the first falls short.
 */
export function plausibleReceiptFields(segments: readonly Segment[]): number {
  const fields = extractDocumentFields(segments);
  return Number(fields.total !== undefined) + Number(fields.date !== undefined) + Number(fields.company !== undefined && CORPORATE.test(fields.company));
}
