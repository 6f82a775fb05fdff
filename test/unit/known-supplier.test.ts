import { describe, expect, it } from 'vitest';
import { groupRows, segmentsFromText } from '../../server/extract/fields';
import { findKnownSupplier, type KnownSupplier } from '../../server/extract/known-supplier';

const rows = (text: string) => groupRows(segmentsFromText(text));

const suppliers: KnownSupplier[] = [
  { id: 1, name: 'LIAN HING STATIONERY SDN BHD', vat: '000306020352' },
  { id: 2, name: 'Suministros Levante, S.L.', vat: 'ESB46123456' },
  { id: 3, name: 'SUBANG HEALTHCARE SDN BHD', vat: false },
  { id: 4, name: 'MR. D.I.Y. (KUCHAI) SDN BHD', vat: false },
  { id: 5, name: 'AEON', vat: false },
  { id: 6, name: 'GARDENIA BAKERIES (KL) SDN BHD', vat: false },
  { id: 7, name: 'GARDENIA BAKERIES (PJ) SDN BHD', vat: false },
];

describe("the company's own supplier found on a document (issue 52)", () => {
  it('by its tax id printed anywhere, whatever the name reads', () => {
    const found = findKnownSupplier(rows('XQZ GARBLED NAME\nNO 12 JALAN 3\nGST ID NO: 000306020352\nTOTAL 12.00'), suppliers);
    expect(found).toMatchObject({ supplier: { id: 1 }, by: 'vat', likeness: 1 });
    // A Spanish CIF printed with its marks finds the VAT stored with its country prefix.
    expect(findKnownSupplier(rows('TICKET\nCIF: B-46.123.456\nTotal 3,20'), suppliers)?.supplier.id).toBe(2);
  });

  it("not by a short tax id inside a longer number", () => {
    expect(findKnownSupplier(rows('SOMETHING ELSE\nREF 912345678Z1\nTOTAL 1.00'), [{ id: 9, name: 'Otro SL', vat: '12345678Z' }])).toBeUndefined();
    // A long one (a GST number) is found even run into a label OCR misread ("GST 11): 00038 1399040").
    expect(findKnownSupplier(rows('XQZ\nGST 11): 00030 6020352\nTOTAL 1.00'), suppliers)?.supplier.id).toBe(1);
    // Two printed (a delivery note prints its customer's): the first, the issuer's heading.
    const both = rows('XQZ\nCIF B46123456\nCLIENTE: LIAN HING\nGST ID 000306020352\nTOTAL 1.00');
    expect(findKnownSupplier(both, suppliers)?.supplier.id).toBe(2);
  });

  it('by a long tax id of digits printed with one digit misread, when no other stored id is as near (issue 52)', () => {
    // "000306020352" stored; "000306020357" printed under a misread label.
    expect(findKnownSupplier(rows('XQZ\n657 ID, NO y 000306020357\nTOTAL 1.00'), suppliers)).toMatchObject({ supplier: { id: 1 }, by: 'vat' });
    // Two stored ids one digit from the printed number: neither is taken.
    const twins: KnownSupplier[] = [...suppliers, { id: 8, name: 'OTHER TRADING SDN BHD', vat: '000306020359' }];
    expect(findKnownSupplier(rows('XQZ\nGST 000306020357\nTOTAL 1.00'), twins)).toBeUndefined();
    // Two digits off, or a short id one digit off: not found.
    expect(findKnownSupplier(rows('XQZ\nGST 000306020457\nTOTAL 1.00'), suppliers)).toBeUndefined();
    expect(findKnownSupplier(rows('XQZ\nNIF 12345679Z\nTOTAL 1.00'), [{ id: 9, name: 'Otro SL', vat: '12345678Z' }])).toBeUndefined();
  });

  it('by a name whose legal form OCR misread ("5/8" for "S/B") and whose number is in a misread bracket', () => {
    const speedMart: KnownSupplier[] = [...suppliers, { id: 10, name: '99 SPEED MART S/B', vat: false }];
    expect(findKnownSupplier(rows('99 SPEED MART 5/8 {519537-X)\nLOT P.T. 2811, JALAN ANGSA'), speedMart)?.supplier.id).toBe(10);
  });

  it('by a name OCR garbled in a letter or two, on one row or two', () => {
    expect(findKnownSupplier(rows('LJAN HING STATIONERY SDN BHD\nNO 5 JALAN'), suppliers)).toMatchObject({ supplier: { id: 1 } });
    expect(findKnownSupplier(rows('SUBANG NEALTHCARE\nSDN BHD\nTAX INVOICE'), suppliers)).toMatchObject({ supplier: { id: 3 }, by: 'name' });
    // A branch the company does not have is its chain's stored supplier.
    expect(findKnownSupplier(rows('MR. D.I.Y. (JOHOR) SDN BHD\nCO-REG 860671-D'), suppliers)?.supplier.id).toBe(4);
  });

  it('a short name only when read exactly', () => {
    expect(findKnownSupplier(rows('AEON\nRECEIPT'), suppliers)?.supplier.id).toBe(5);
    expect(findKnownSupplier(rows('AEOM\nRECEIPT'), suppliers)).toBeUndefined();
  });

  it('none when two stored names are equally near, or none near enough', () => {
    expect(findKnownSupplier(rows('GARDENIA BAKERIES SDN BHD\nINVOICE'), suppliers)).toBeUndefined();
    expect(findKnownSupplier(rows('GARDENIA BAKERIES (KL) SDN BHD\nINVOICE'), suppliers)?.supplier.id).toBe(6);
    expect(findKnownSupplier(rows('POPULAR BOOK CO\nTOTAL 5.00'), suppliers)).toBeUndefined();
    expect(findKnownSupplier(rows('LIAN HING STATIONERY'), [])).toBeUndefined();
  });
});
