import { describe, expect, it } from 'vitest';
import { chooseTotal, FIELDS_MODEL, TOTAL_FEATURES, totalCandidates } from '../../server/extract/choose';
import { extractDocumentFields, findTotal, groupRows, type Segment } from '../../server/extract/fields';

/** Rows of segments: each inner array is one printed line, its parts spread left to right. */
function page(lines: string[][]): Segment[] {
  return lines.flatMap((parts, row) => parts.map((text, column) => ({ text, box: [column * 300, row * 30, column * 300 + text.length * 9, row * 30 + 20] as Segment['box'] })));
}

const RECEIPT = [
  ['ABC HO TRADING'],
  ['DATE : 09/01/2019 8:01:11 PM'],
  ['PLASTIC', '2', '15.50', '31.00'],
  ['TOTAL :', '31.00'],
  ['CASH RECEIVED :', '101.00'],
  ['CHANGE :', '70.00'],
];

describe("the total's learned choice (issue 30)", () => {
  it('ships a model trained for the features the code computes', () => {
    expect(FIELDS_MODEL.total?.features).toEqual([...TOTAL_FEATURES]);
    expect(FIELDS_MODEL.total?.weights.every((weight) => Number.isFinite(weight))).toBe(true);
  });

  it('takes the total, not the cash received, the change or an item', () => {
    expect(extractDocumentFields(page(RECEIPT)).total).toBe('31.00');
    // The same receipt with the total's label lost to OCR: cash less change, as printed above.
    const unlabelled = RECEIPT.map((row) => (row[0] === 'TOTAL :' ? ['TOTA1 ;', '31.00'] : row));
    expect(extractDocumentFields(page(unlabelled)).total).toBe('31.00');
  });

  it('takes the amount including tax over the subtotal and the tax, Spanish and English', () => {
    expect(extractDocumentFields(page([['Bar Central S.L.'], ['Fecha: 12/03/2026'], ['Base imponible', '10,00'], ['IVA 21%', '2,10'], ['TOTAL', '12,10 €'], ['Efectivo', '20,00'], ['Cambio', '7,90']])).total).toBe('12.10');
    expect(extractDocumentFields(page([['KEDAI ROTI SDN BHD'], ['SUB TOTAL', '50.00'], ['GST 6%', '3.00'], ['ROUNDING', '0.00'], ['TOTAL (RM)', '53.00'], ['TOTAL QTY', '4.00']])).total).toBe('53.00');
  });

  it('describes every printed amount once, each with every feature', () => {
    const rows = groupRows(page(RECEIPT));
    const candidates = totalCandidates(rows, findTotal(rows));
    expect(candidates.map((one) => one.cents)).toEqual([1550, 3100, 3100, 10100, 7000]);
    expect(candidates.every((one) => one.features.length === TOTAL_FEATURES.length)).toBe(true);
    const rule = TOTAL_FEATURES.indexOf('ruleChoice');
    expect(candidates.map((one) => one.features[rule])).toEqual([0, 1, 1, 0, 0]);
  });

  it("keeps the rules' total where they computed it (a 5-cent rounding added, a lost decimal point), and guesses none where they found none", () => {
    expect(extractDocumentFields(page([['TOTAL', '9.97'], ['ROUNDING ADJ', '0.03'], ['CASH', '20.00']])).total).toBe('10.00');
    expect(extractDocumentFields(page([['Item', 'Amount'], ['Nasi lemak', '12.50'], ['Teh tarik', '3.30'], ['Sub total', '15.80'], ['Grand Total:', '9280']])).total).toBe('92.80');
    expect(extractDocumentFields(page([['gracias por su visita'], ['Cafe', '1,50'], ['Subtotal', '10,00'], ['Efectivo', '20,00']])).total).toBeUndefined();
  });

  it("answers the rules' total when the model is not the code's, or there is nothing to choose from", () => {
    const rows = groupRows(page(RECEIPT));
    const rule = { text: '70.00', value: '70.00', row: 5 };
    expect(chooseTotal(rows, rule, null)).toEqual(rule);
    expect(chooseTotal(groupRows(page([['NO AMOUNTS HERE']])), undefined)).toBeUndefined();
  });
});
