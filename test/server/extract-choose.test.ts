import { describe, expect, it } from 'vitest';
import { chooseCompany, chooseDate, chooseTotal, COMPANY_FEATURES, companyCandidates, DATE_FEATURES, dateCandidates, FIELDS_MODEL, TOTAL_FEATURES, totalCandidates } from '../../server/extract/choose';
import { findCompany, findDate, findTotal, groupRows, mendLegalForm, type Segment } from '../../server/extract/fields';
import { extractDocumentFields } from '../../server/extract/document-fields';

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

  it("keeps the rules' total where they computed it (a 5-cent rounding added, a lost decimal point), and guesses none where nothing stands out", () => {
    expect(extractDocumentFields(page([['TOTAL', '9.97'], ['ROUNDING ADJ', '0.03'], ['CASH', '20.00']])).total).toBe('10.00');
    expect(extractDocumentFields(page([['Item', 'Amount'], ['Nasi lemak', '12.50'], ['Teh tarik', '3.30'], ['Sub total', '15.80'], ['Grand Total:', '9280']])).total).toBe('92.80');
    expect(extractDocumentFields(page([['gracias por su visita'], ['Cafe', '1,50'], ['Subtotal', '10,00'], ['Efectivo', '20,00']])).total).toBeUndefined();
  });

  it('where the rules find no total (its label misread), answers the amount the model is sure of, and none otherwise', () => {
    expect(extractDocumentFields(page([['KEDAI ABC'], ['ITEM A', '2', '6.30', '12.60'], ['Tetal Incl. GST:', '12.60'], ['CASH', '20.00'], ['CHANGE', '7.40']])).total).toBe('12.60');
    expect(extractDocumentFields(page([['gracias por su visita'], ['SUBTOTAL', '10,00'], ['EFECTIVO', '20,00'], ['CAMBIO', '10,00']])).total).toBe('10.00');
    // Two items and nothing else: no amount stands out, none is answered.
    expect(extractDocumentFields(page([['KEDAI ABC'], ['ITEM A', '12.60'], ['ITEM B', '3.00']])).total).toBeUndefined();
    expect(chooseTotal(groupRows(page([['KEDAI ABC'], ['Tetal Incl. GST:', '12.60']])), undefined, null)).toBeUndefined();
  });

  it("answers the rules' total when the model is not the code's, or there is nothing to choose from", () => {
    const rows = groupRows(page(RECEIPT));
    const rule = { text: '70.00', value: '70.00', row: 5 };
    expect(chooseTotal(rows, rule, null)).toEqual(rule);
    expect(chooseTotal(groupRows(page([['NO AMOUNTS HERE']])), undefined)).toBeUndefined();
  });
});

describe("the date's learned choice (issue 30)", () => {
  it('ships a model trained for the features the code computes', () => {
    expect(FIELDS_MODEL.date?.features).toEqual([...DATE_FEATURES]);
    expect(FIELDS_MODEL.date?.weights.every((weight) => Number.isFinite(weight))).toBe(true);
  });

  it('describes every printed date, each with every feature, the rules\' pick marked', () => {
    const rows = groupRows(page([['KEDAI ABC'], ['Inv No: 123', 'Date: 05/03/2018 10:21'], ['VALID UNTIL 30/06/2018'], ['TOTAL', '12.00'], ['Printed 06/03/2018']]));
    const candidates = dateCandidates(rows, findDate(rows));
    expect(candidates.map((one) => one.iso)).toEqual(['2018-03-05', '2018-06-30', '2018-03-06']);
    expect(candidates.every((one) => one.features.length === DATE_FEATURES.length)).toBe(true);
    const rule = DATE_FEATURES.indexOf('ruleChoice');
    expect(candidates.map((one) => one.features[rule])).toEqual([1, 0, 0]);
  });

  it('takes the sale\'s date, labelled or printed with its time, over a due date or a validity', () => {
    expect(extractDocumentFields(page([['Bar Central S.L.'], ['Fecha: 12/03/2026'], ['Vencimiento: 12/04/2026'], ['TOTAL', '12,10 €']])).date).toBe('2026-03-12');
    expect(extractDocumentFields(page([['KEDAI ABC'], ['VOUCHER VALID TILL 31/12/2018'], ['09/01/2018 20:01:11'], ['TOTAL', '31.00']])).date).toBe('2018-01-09');
  });

  it("answers the rules' date when there is no model, and none where nothing is printed", () => {
    const rows = groupRows(page([['Fecha: 12/03/2026'], ['Otra 13/03/2026']]));
    expect(chooseDate(rows, { text: '13/03/2026', iso: '2026-03-13' }, null)).toEqual({ text: '13/03/2026', iso: '2026-03-13' });
    expect(chooseDate(groupRows(page([['NO DATE HERE']])), undefined)).toBeUndefined();
  });
});

describe("the issuer's candidates (issue 30; the model is trained and measured, the rules still choose)", () => {
  it('offers each head row, and two and three rows together, once each, the rules\' name marked', () => {
    const rows = groupRows(page([['AIK HUAT HARDWARE'], ['ENTERPRISE (SETIA'], ['ALAM) SDN BHD'], ['(1234567-X)'], ['NO 5, JALAN MERANTI']]));
    const rule = findCompany(rows)?.name;
    const names = companyCandidates(rows, rule).map((one) => one.name);
    expect(names).toContain('AIK HUAT HARDWARE');
    expect(names).toContain('AIK HUAT HARDWARE ENTERPRISE (SETIA ALAM) SDN BHD');
    expect(new Set(names.map((one) => one.toUpperCase())).size).toBe(names.length);
    const marked = companyCandidates(rows, rule).filter((one) => one.features[COMPANY_FEATURES.indexOf('ruleChoice')] === 1);
    expect(marked.map((one) => one.name.toUpperCase())).toEqual([rule!.toUpperCase()]);
    expect(companyCandidates(rows, rule).every((one) => one.features.length === COMPANY_FEATURES.length)).toBe(true);
  });

  it("keeps the rules' name and tax id when no issuer model ships, and answers none where the rules find none", () => {
    expect(FIELDS_MODEL.company).toBeUndefined();
    const rows = groupRows(page([['Bar Central S.L.'], ['CIF: B12345678'], ['TOTAL', '12,10 €']]));
    const rule = findCompany(rows);
    expect(chooseCompany(rows, rule)).toEqual(rule);
    expect(chooseCompany(groupRows(page([['12.00']])), undefined)).toBeUndefined();
  });

  it('mends one misread letter of SDN BHD, in capitals only', () => {
    expect(mendLegalForm('SUBANG HEALTHCARE SIN BHD')).toBe('SUBANG HEALTHCARE SDN BHD');
    expect(mendLegalForm('SUBANG NEALTHCARE SDH BHD')).toBe('SUBANG NEALTHCARE SDN BHD');
    expect(mendLegalForm('MR. D.I.Y. (KUCHAI) SDN EHD')).toBe('MR. D.I.Y. (KUCHAI) SDN BHD');
    expect(mendLegalForm('Sin bhd')).toBe('Sin bhd');
    // A word that may be the name's own stays: "ORIENTAL SUN BHD".
    expect(mendLegalForm('ORIENTAL SUN BHD')).toBe('ORIENTAL SUN BHD');
  });
});
