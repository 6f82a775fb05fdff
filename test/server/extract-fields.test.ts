import { describe, expect, it } from 'vitest';
import { extractCardFields, groupRows, normaliseAmount, segmentsFromText, type Segment } from '../../server/extract/fields';
import { extractDocumentFields, plausibleReceiptFields } from '../../server/extract/document-fields';
import { PaddleEngine } from '../../server/extract/paddle';
import { createEngine, SECOND_OPINION_MIN_MEMORY_MB } from '../../server/extract/ocr-engines';
import { mendAmountDigits, mendDateDigits, mendNameLetters, missedEnds, replaceDateText, replaceRowText, secondOpinionOnDate, secondOpinionOnIssuer, secondOpinionOnTotal, splitInitials } from '../../server/extract/second-opinion';
import sharp from 'sharp';
import { dropRedInk, prepareImage, textLineHeight } from '../../server/extract/ocr';

/** Rows of segments: each inner array is one printed line, its parts spread left to right. */
function page(lines: string[][]): Segment[] {
  return lines.flatMap((parts, row) => parts.map((text, column) => ({ text, box: [column * 300, row * 30, column * 300 + text.length * 9, row * 30 + 20] as Segment['box'] })));
}

describe('amounts', () => {
  it('reads both separator conventions and currency marks', () => {
    expect(normaliseAmount('1.234,56')).toBe('1234.56');
    expect(normaliseAmount('1,234.56')).toBe('1234.56');
    expect(normaliseAmount('31,00 €')).toBe('31.00');
    expect(normaliseAmount('RM31.00')).toBe('31.00');
    expect(normaliseAmount('€ 1 234,5')).toBe('1234.50');
    expect(normaliseAmount('12.345')).toBe('12345.00');
    expect(normaliseAmount('abc')).toBeNull();
  });
});

describe('receipts and invoices', () => {
  it('a Spanish invoice: issuer by its CIF, written date, total a pagar with thousands', () => {
    const fields = extractDocumentFields(page([
      ['Papelería Sol S.L.'],
      ['CIF: B12345674'],
      ['C/ Mayor 12, 28013 Madrid'],
      ['FACTURA Nº 2026/0142'],
      ['Fecha: 3 de noviembre de 2026'],
      ['Concepto', 'Importe'],
      ['Tóner impresora láser', '1.000,00'],
      ['Base imponible', '1.000,00'],
      ['IVA 21%', '210,00'],
      ['Total a pagar', '1.210,00 €'],
    ]));
    expect(fields).toMatchObject({ company: 'Papelería Sol S.L.', date: '2026-11-03', dateText: '3 de noviembre de 2026', total: '1210.00', totalText: '1.210,00', concept: 'Tóner impresora láser' });
    expect(fields.taxId).toBe('B12345674');
  });

  it('an English receipt: rounded total after the adjustment, day-first numeric date, legal form', () => {
    const fields = extractDocumentFields(page([
      ['GREEN LEAF TRADING SDN BHD', '(123456-X)'],
      ['GST ID: 000123456789'],
      ['TAX INVOICE'],
      ['DATE: 09/01/2019 8:01 PM'],
      ['DESCRIPTION', 'QTY', 'AMOUNT'],
      ['PLASTIC CONTAINER', '2', '31.02'],
      ['SUB TOTAL', '31.02'],
      ['TOTAL (INCL GST)', '31.02'],
      ['ROUNDING ADJ', '-0.02'],
      ['ROUNDED TOTAL', '31.00'],
      ['CASH', '50.00'],
      ['CHANGE', '19.00'],
    ]));
    expect(fields).toMatchObject({ company: 'GREEN LEAF TRADING SDN BHD', dateText: '09/01/2019', date: '2019-01-09', totalText: '31.00', total: '31.00' });
  });

  it('other date forms: ISO, month names in English, dots, two-digit years', () => {
    const date = (line: string) => extractDocumentFields(page([[line]])).date;
    expect(date('Invoice date 2026-03-12')).toBe('2026-03-12');
    expect(date('Date: March 12, 2026')).toBe('2026-03-12');
    expect(date('Date 12 Mar 2026')).toBe('2026-03-12');
    expect(date('Fecha 12.03.26')).toBe('2026-03-12');
    expect(date('Fecha 12-mar-2026')).toBe('2026-03-12');
    expect(date('Date 13/25/2026')).toBeUndefined();
  });

  it('a ticket without an items header: the first item line below the date is the concept, quantity kept in its words', () => {
    const fields = extractDocumentFields(page([['HOTEL PLAZA MAYOR S.L.'], ['CIF B28765432'], ['Factura simplificada 0042'], ['Fecha: 14/10/2026'], ['2 Alojamiento 1 noche', '98,00'], ['IVA 10%', '9,80'], ['TOTAL', '107,80 EUR']]));
    expect(fields).toMatchObject({ company: 'HOTEL PLAZA MAYOR S.L.', date: '2026-10-14', total: '107.80', concept: 'Alojamiento 1 noche' });
    expect(extractDocumentFields(page([['PEPE Y HIJOS S.L.'], ['Fecha 01/02/2026'], ['IVA 10%', '1,00'], ['TOTAL', '11,00']])).concept).toBeUndefined();
    // An invoice's line with its quantity in units and no amount of its own; the quantity is not the concept's.
    const invoice = page([['Talleres Peña y Asociados S.L.'], ['CIF: B12345674'], ['FACTURA Nº 2026-0315'], ['Fecha: 30/09/2026 10:42'], ['Reparación y mantenimiento   1 ud'], ['Base imponible 250,00 €'], ['IVA 21% 52,50 €'], ['Total factura 302,50 €']]);
    expect(extractDocumentFields(invoice)).toMatchObject({ total: '302.50', concept: 'Reparación y mantenimiento' });
    expect(extractDocumentFields(page([['PEPE Y HIJOS S.L.'], ['Fecha 01/02/2026'], ['Tóner impresora 2 uds.'], ['TOTAL', '11,00']])).concept).toBe('Tóner impresora');
    // A turned photo puts the line's quantity, or its amount, on a row of its own below.
    expect(extractDocumentFields(page([['PEPE Y HIJOS S.L.'], ['Fecha 01/02/2026'], ['Reparación y mantenimiento'], ['1 ud'], ['TOTAL', '11,00']])).concept).toBe('Reparación y mantenimiento');
    expect(extractDocumentFields(page([['PEPE Y HIJOS S.L.'], ['Fecha 01/02/2026'], ['2 Café con leche'], ['3,40'], ['TOTAL', '3,40']])).concept).toBe('Café con leche');
    // Item codes before the words are not the concept; a totals row with OCR's speck run into it is no item.
    expect(extractDocumentFields(page([['BOOK TA .K (TAMAN DAYA) SDN BHD'], ['Date: 25/12/2018'], ['Item', 'Qty', 'Price', 'Amount'], ['95569 9040116 MODELLING CLAY KIDDY FISH'], ['1 PC * 9.00', '9.00'], ['TOTAL', '9.00']])).concept).toBe('MODELLING CLAY KIDDY FISH');
    expect(extractDocumentFields(page([['INDAH GIFT & HOME DECO'], ['Date: 19/10/2018'], ['Item', 'Qty', 'Amount'], ['62483 1', '55.90'], ['HTotal Qty 2'], ['TOTAL', '60.31']])).concept).toBeUndefined();
    // An address line with a number is no item.
    expect(extractDocumentFields(page([['PEPE Y HIJOS S.L.'], ['Fecha 01/02/2026'], ['Calle Mayor 12'], ['TOTAL', '11,00']])).concept).toBeUndefined();
    // Issue 52: OCR's noise read as words under an items header is no concept; the next clean item line is.
    expect(extractDocumentFields(page([['PEPE Y HIJOS S.L.'], ['Fecha 01/02/2026'], ['Descripción', 'Importe'], ['A 2 double ,mínt te', '4,50'], ['TOTAL', '4,50']])).concept).toBeUndefined();
    expect(extractDocumentFields(page([['PEPE Y HIJOS S.L.'], ['Fecha 01/02/2026'], ['Descripción', 'Importe'], ['ee ,a5 rt Bb', '1,00'], ['Papel A4 500 h', '3,50'], ['TOTAL', '4,50']])).concept).toBe('Papel A4 500 h');
  });

  it('never takes a line of OCR noise, taxes, payment or the footer for the concept; without a clean item, the supplier\'s activity', () => {
    // OCR's words with its confidence: the first line under the date is noise it was unsure of.
    const read = (lines: Array<Array<[string, number]>>): Segment[] =>
      lines.flatMap((words, row) => words.map(([text, confidence], column) => ({ text, confidence, box: [column * 120, row * 30, column * 120 + text.length * 9, row * 30 + 20] as Segment['box'] })));
    const noisy = read([
      [['BOOK', 93], ['TA.K', 88], ['SDN', 86], ['BHD', 91]],
      [['Date:', 95], ['25/12/2018', 94]],
      [['Q1Y', 35], ['RI', 68], ['RIM', 55], ['9.00', 80]],
      [['MODELLING', 93], ['CLAY', 95], ['KIDDY', 90], ['FISH', 92], ['9.00', 95]],
      [['TOTAL', 96], ['9.00', 95]],
    ]);
    expect(extractDocumentFields(noisy).concept).toBe('MODELLING CLAY KIDDY FISH');
    const onlyNoise = read([
      [['GNISC', 40], ['12,00', 90]],
      [['Fecha', 95], ['03/11/2026', 94]],
      [['Q1Y', 35], ['RIMA', 45], ['12,00', 80]],
      [['TAX', 92], ['ANT', 93], ['(5)', 77], ['12,00', 89]],
      [['Tender', 95], ['12,00', 95]],
      [['*Goods', 91], ['Sold', 95], ['are', 93], ['non-refundable', 91], ['0,00', 90]],
      [['TOTAL', 96], ['12,00', 95]],
    ]);
    expect(extractDocumentFields(onlyNoise).concept).toBeUndefined();
    const stationer = read([
      [['Papelería', 95], ['Sol', 96], ['S.L.', 94]],
      [['Fecha', 95], ['03/11/2026', 94]],
      [['Q1Y', 35], ['RIMA', 45], ['12,00', 80]],
      [['TOTAL', 96], ['12,00', 95]],
    ]);
    expect(extractDocumentFields(stationer)).toMatchObject({ company: 'Papelería Sol S.L.', concept: 'Papelería' });
  });

  it('mends common OCR slips: an amount split at its point, a lost point in a labelled total, slashes read as 1', () => {
    // "49." and "40" as two words of the total row.
    const split = extractDocumentFields([
      { text: 'Total', box: [0, 0, 50, 20] }, { text: 'RM', box: [60, 0, 90, 20] }, { text: '49.', box: [300, 0, 330, 20] }, { text: '40', box: [336, 0, 356, 20] },
      { text: 'Rounding', box: [0, 30, 80, 50] }, { text: '0.01', box: [300, 30, 340, 50] },
    ]);
    expect(split.total).toBe('49.40');
    // Every other amount shows cents: "9280" on the grand total line is 92.80; a whole amount read elsewhere wins.
    const lost = page([['Item', 'Amount'], ['Nasi lemak', '12.50'], ['Teh tarik', '3.30'], ['Sub total', '15.80'], ['Grand Total:', '9280']]);
    expect(extractDocumentFields(lost).total).toBe('92.80');
    expect(extractDocumentFields(page([['TOTAL', '1200']])).total).toBeUndefined();
    expect(extractDocumentFields(page([['Salesperson: Date: 1210212018']])).date).toBe('2018-02-12');
    // A lone compact date, when nothing else on the receipt is a date; never a longer number.
    expect(extractDocumentFields(page([['GST ID 002139201536'], ['27032018', 'No. CS-20322']])).date).toBe('2018-03-27');
    expect(extractDocumentFields(page([['9556641320027']])).date).toBeUndefined();
  });

  it("takes the issuer's name alone from the rows around it: no owner's words, outlet number, company number, address or e-mail", () => {
    const company = (lines: string[][]) => extractDocumentFields(page(lines)).company;
    // "Owned by" before the owning company, in English or Malay; the company's number after it.
    expect(company([['OLD ASIA'], ['OWN BY: CHEF LEE SDN BHD CO.NO.'], ['(458592-T)'], ['LG226']])).toBe('CHEF LEE SDN BHD');
    expect(company([['SIZZLING STONEGRILL'], ['DIMILIKI OLEH : DOVE HOLDINGS SDN BHD'], ['REG NO : 91694-X']])).toBe('DOVE HOLDINGS SDN BHD');
    // A company number after the legal form, and whatever follows it; an outlet's number before the name.
    expect(company([["KING'S CONFECTIONERY S/B 273500-U (KSB)"], ['NO.41'], ['TAMAN SRI BINTANG']])).toBe("KING'S CONFECTIONERY S/B");
    expect(company([['MYNEWS RETAIL SB(306295-X) FKA BISON STORES SB'], ['NO.9']])).toBe('MYNEWS RETAIL SB');
    expect(company([['#000002 BAIFU (M) SDN BHD'], ['COMPANY NO(814198-X)'], ['DAISO JAPAN']])).toBe('BAIFU (M) SDN BHD');
    // A label with its number in brackets, a postcode and its town, an e-mail address: never the name.
    expect(company([['LIM SENG THO HARDWARE TRADING'], ['NO 7. SIMPANG OFF BATU VILLAGE.'], ['MALAYSIA'], ['COMPANY REG NO. : (002231061-T)']])).toBe('LIM SENG THO HARDWARE TRADING');
    expect(company([['SLF CASH & CARRY'], ['NO.15'], ['40000 SHAH ALAM'], ['GST NO: 001169362944']])).toBe('SLF CASH & CARRY');
    expect(company([['HAPPY SNACKS ENTYERPRISE'], ['(002022599 - U)'], ['03-60570314'], ['HAPPYSNACKS69@HOTMAIL.COM'], ['GST REG NO: 000129863680']])).toBe('HAPPY SNACKS ENTERPRISE');
    // A web address is the name when it carries the legal form.
    expect(company([['ECOSWAY.COM SDN BHD'], ['(CO. NO. 123456-X)'], ['2ND FLOOR']])).toBe('ECOSWAY.COM SDN BHD');
    // A name on two rows: the second starts with the branch in brackets, or with a trade word before the legal form.
    expect(company([['PASAR RAYA MEGA MAJU'], ['(SEMENYIH) SDN BHD'], ['(767840-W)']])).toBe('PASAR RAYA MEGA MAJU (SEMENYIH) SDN BHD');
    expect(company([['WESTERN EASTERN'], ['STATIONERY SDN. BHD'], ['CO REG NO : 210038-K']])).toBe('WESTERN EASTERN STATIONERY SDN. BHD');
    // A plural is not a slip: "RESTAURANTS" stays.
    expect(company([['GOLDEN ARCHES RESTAURANTS SDN BHD'], ['(65351-M)']])).toBe('GOLDEN ARCHES RESTAURANTS SDN BHD');
  });

  it('without a labelled total, takes the cash handed over less the change when that amount is printed above', () => {
    const total = (lines: string[][]) => extractDocumentFields(page(lines));
    const read = [['PASAR MINI JIN SENG'], ['1 VEGETABLES', '2.20'], ['1 FISH BALL', '26.40'], ['SUBTOTAL: 28 6 -'], ['28.60'], ['CASH', '100.00'], ['CASH CHANGE', '71.40']];
    expect(total(read)).toMatchObject({ total: '28.60', totalText: '28.60' });
    // Not printed above the payment: nothing is made up.
    expect(total([['PASAR MINI JIN SENG'], ['1 VEGETABLES', '2.20'], ['CASH', '100.00'], ['CHANGE', '71.40']]).total).toBeUndefined();
    // A labelled total wins over an unlabelled amount...
    expect(total([['SHOP'], ['TOTAL', '30.00'], ['28.60'], ['CASH', '100.00'], ['CHANGE', '70.00']]).total).toBe('30.00');
    // ...unless the cash less the change is that amount: what was paid (issue 30's learned choice weighs the arithmetic).
    expect(total([['SHOP'], ['TOTAL', '30.00'], ['28.60'], ['CASH', '100.00'], ['CHANGE', '71.40']]).total).toBe('28.60');
    // The payment nearest above the change: a card payment higher up is another figure.
    expect(total([['SHOP'], ['1 TEA', '4.00'], ['1 CAKE', '24.60'], ['28.60'], ['PAID BY VISA', '4.00'], ['CASH', '50.00'], ['CHANGE', '21.40']]).total).toBe('28.60');
    // A concept that holds "total" inside a word is still an item.
    expect(extractDocumentFields(page([['GASOLINERA SUR S.L.'], ['Fecha 01/02/2026'], ['Gasóleo A TotalEnergies', '45,20'], ['TOTAL', '45,20']])).concept).toBe('Gasóleo A TotalEnergies');
    // Spanish: efectivo and cambio.
    expect(total([['BAR PEPE S.L.'], ['2 Café', '3,40'], ['3,40'], ['Efectivo', '5,00'], ['Cambio', '1,60']]).total).toBe('3.40');
  });

  it('reads the issuer through OCR slips: a mis-read legal form, a note in lower case, a label row, specks', () => {
    const company = (lines: string[][]) => extractDocumentFields(page(lines)).company;
    // "SON BHD", "SDN 8HD", "5/B": the legal form as printed; the reader's letter case is kept.
    expect(company([['SUN WONG KUT SON BHD'], ['No: 20965-4']])).toBe('SUN WONG KUT SDN BHD');
    expect(company([['BOOK TA .K (TAMAN DAYA) SDN 8HD'], ['789417-W']])).toBe('BOOK TA .K (TAMAN DAYA) SDN BHD');
    expect(company([['99 SPEED MART 5/B (519537-X)'], ['LOT P.T. 2811, JALAN ANGSA,']])).toBe('99 SPEED MART S/B');
    expect(company([['99 SPEED MART 5/0 (519537)'], ['LOT P.T. 2811, JALAN ANGSA,']])).toBe('99 SPEED MART S/B');
    expect(company([['99 SPEED MART S/D'], ['LOT P.T. 2811, JALAN ANGSA,']])).toBe('99 SPEED MART S/B');
    // Issue 52: a letter read as its digit in a word of capitals, "&" read "8:", specks after the legal form.
    expect(company([['URBAN 1DEA SDN BHD'], ['NO 5 JALAN']])).toBe('URBAN IDEA SDN BHD');
    expect(company([['L TWO FLORIST 8: HANDICRAFT'], ['NO 5 JALAN']])).toBe('L TWO FLORIST & HANDICRAFT');
    expect(company([['ANN GIAP TRADING SDN BHD SE'], ['NO 5 JALAN']])).toBe('ANN GIAP TRADING SDN BHD');
    expect(company([['Timeless Kitchenette Sdn Bhd'], ['Company ro ; 1174703-K'], ['GST Reg no + 0000 6771 0976']])).toBe('Timeless Kitchenette Sdn Bhd');
    expect(company([['KHE ELECTRICAL. TRADING'], ['NO 5 JALAN']])).toBe('KHE ELECTRICAL TRADING');
    expect(company([['MAKASSAR FRESH MARKET S/B.'], ['NO 5 JALAN']])).toBe('MAKASSAR FRESH MARKET S/B');
    expect(company([['VERBENA CONFECTIUNERY SDN BHD'], ['NO 5 JALAN']])).toBe('VERBENA CONFECTIONERY SDN BHD');
    // A slogan is not the name.
    expect(company([['TQ FOR SHOPPING WITH myNEWS'], ['MYNEWS RETAIL SB'], ['NO 5 JALAN']])).toBe('MYNEWS RETAIL SB');
    // A Spanish form with full stops that lost its last one gets it back; one written without them is kept.
    expect(company([['Distribuciones Ibáñez S.L'], ['CIF: B98765431']])).toBe('Distribuciones Ibáñez S.L.');
    expect(company([['Distribuciones Ibáñez S.L,'], ['CIF: B98765431']])).toBe('Distribuciones Ibáñez S.L.');
    expect(company([['FERRETERÍA GONZÁLEZ S.A'], ['CIF: A08123456']])).toBe('FERRETERÍA GONZÁLEZ S.A.');
    expect(company([['TALLERES PEÑA S.L.U'], ['CIF: B12345674']])).toBe('TALLERES PEÑA S.L.U.');
    expect(company([['Talleres Peña SL'], ['CIF: B12345674']])).toBe('Talleres Peña SL');
    // "S/O" ("son of") inside a name is the name's own.
    expect(company([['KEDAI MUTHU S/O RAMAN'], ['LOT P.T. 2811, JALAN ANGSA,']])).toBe('KEDAI MUTHU S/O RAMAN');
    expect(company([['Banh Mi CafE'], ['Dimiliki: banh mi cafe son bhd 1110644-W']])).toBe('banh mi cafe sdn bhd');
    // A name in lower case only above the header (a stamp, a note) is not the issuer.
    expect(company([['tan woon yann'], ['INDAH GIFT & HOME DECO'], ['27,JALAN DEDAF 13,']])).toBe('INDAH GIFT & HOME DECO');
    // "Company No. : 1174703-K" is a label with its number, not the name above it.
    expect(company([['Home of Sticky Bones'], ['Timeless Kitchenette Sdn Bhd'], ['Company No : 1174703-K'], ['GST Reg no : 0000 6771 0976']])).toBe('Timeless Kitchenette Sdn Bhd');
    // A speck before a name in capitals, and a full stop read before the legal form.
    expect(company([['To UNIHAKKA INTERNATIONAL. SDN BHD'], ['(867388-U)']])).toBe('UNIHAKKA INTERNATIONAL SDN BHD');
    // Single letters belong to the name; an abbreviation keeps its full stop.
    expect(company([['C W KHOO HARDWARE SDN BHD'], ['(481500-M)']])).toBe('C W KHOO HARDWARE SDN BHD');
    expect(company([['POPULAR BOOK CO. SDN BHD'], ['(Co. No. 113825-W)']])).toBe('POPULAR BOOK CO. SDN BHD');
    // "&" read as a digit between words in capitals; a name broken after its "&" (read "4") ends on the row below.
    expect(company([['TED HENG STATIONERY 5 BOOKS'], ['(001451637-M)']])).toBe('TED HENG STATIONERY & BOOKS');
    expect(company([['HOME MASTER HARDWARE 4'], ['ELECTRICAL'], ['NO.113 JALAN SETIA']])).toBe('HOME MASTER HARDWARE & ELECTRICAL');
    expect(company([['RESTORAN 2020 CAFE']])).toBe('RESTORAN 2020 CAFE');
    // Neither a label with its number nor the address's state or country line is the name.
    expect(company([['GL HANDICRAFT & TAILORING'], ['19, JALAN KANCIL,'], ['MALAYSIA'], ['Company Reg No. :75495-W']])).toBe('GL HANDICRAFT & TAILORING');
    // One letter misread in a long trade word is mended; a real word one letter away is left alone.
    expect(company([['UNIHAKKA INTERNATIGNAL SDN BHD'], ['(867388-U)']])).toBe('UNIHAKKA INTERNATIONAL SDN BHD');
    expect(company([['ARTRANGE STATIONERS & PRINT SDN BHD']])).toBe('ARTRANGE STATIONERS & PRINT SDN BHD');
    // "(M)" read "CM)", and an initialism's last full stop read as a comma.
    expect(company([['MR D.I.Y, CM) SON BHD'], ['(CO.REG : 860671-D)']])).toBe('MR D.I.Y. (M) SDN BHD');
    // A name on two rows in mixed case, the legal form alone on the second.
    expect(company([['Nando \'s Chickenland Malaysia'], ['Sdn Bhd'], ['Nando\'s 1 Mont Kiara']])).toBe("Nando's Chickenland Malaysia Sdn Bhd");
  });

  it('picks the issuer\'s rows: the name above a line saying what the place is, a name on two rows over its number, a legal form read apart', () => {
    const company = (lines: string[][]) => extractDocumentFields(page(lines)).company;
    // "BISTRO & CAFE" says what the place is; the name is the row above it.
    expect(company([['THREE STOOGES'], ['BISTRO & CAFE'], ['109, 9921/1A,'], ['DAMANSARA UTAMA'], ['GST ID : 001661886464'], ['TAX INVOICE']])).toBe('THREE STOOGES');
    // ... but a name with its trade word stays whole, and a trade word under a name that is a company keeps its row.
    expect(company([['LEMON TREE'], ['RESTAURANT'], ['NO. 3, JALAN SS2/24']])).toBe('LEMON TREE RESTAURANT');
    expect(company([['RESTORAN 2020 CAFE'], ['BISTRO & CAFE']])).toBe('RESTORAN 2020 CAFE');
    // A name on two rows right above the company's number alone: both rows.
    expect(company([['RESTAURANT JIAWEI'], ['JIAWEI HOUSE'], ['002693074-K'], ['13, JLN TASIK UTAMA 8'], ['57000 KL']])).toBe('RESTAURANT JIAWEI JIAWEI HOUSE');
    // A name that ends with its legal form is whole; the row under it is the address.
    expect(company([['LIAN HING STATIONERY SDN BHD'], ['TAMAN SERDANG RAYA'], ['(162761-M)']])).toBe('LIAN HING STATIONERY SDN BHD');
    // The legal form read on its own row above the rest of the name ("SDE" for "SDN").
    expect(company([['BHD'], ['LIGHTROOM GALLERY SDE'], ['No: 28, JALAN ASTANA 1A,'], ['GST No. : 000584089600']])).toBe('LIGHTROOM GALLERY SDN BHD');
    // A margin mark read as the same letter before each row is not the name's; a lone letter of the name stays.
    expect(company([['E THANK YOU FOR SHOPPING'], ['E PAGOH REST AND SERVICE AREA'], ['E LOT RL, KWS REHAT & RAWAT PAGOH'], ['SIMPANG AMPAT PAGOH']])).toBe('PAGOH REST AND SERVICE AREA');
    expect(company([['C W KHOO HARDWARE SDN BHD'], ['NO.50 JALAN PBS 14/11,']])).toBe('C W KHOO HARDWARE SDN BHD');
  });

  it('without a date label, takes the date printed with a time over another date above it', () => {
    const fields = extractDocumentFields(page([['PASAR MINI JIN SENG'], ['TAX ID :002-1560040 18/03/16'], ['1 VEGETABLES', '2.20'], ['TOTAL', '28.60'], ['18/03/18 09:03']]));
    expect(fields).toMatchObject({ date: '2018-03-18', dateText: '18/03/18' });
    // A labelled date still wins over a timed one.
    expect(extractDocumentFields(page([['Date: 01/02/2018'], ['05/02/2018 10:15']])).date).toBe('2018-02-01');
  });

  it('takes "Amt Due" and "Total Amt Payable" as the amount payable', () => {
    expect(extractDocumentFields(page([['Chicken', '129.30'], ['Sub Total', '129.30'], ['Amt Due', '129.30'], ['Cash', '150.00']])).total).toBe('129.30');
    // Its decimal point lost by OCR, on a document whose other amounts show cents.
    expect(extractDocumentFields(page([['Pen', '12.00'], ['Total Amt Payable :', '1200'], ['Paid Amount', '20.00'], ['Change :', '8.00']])).total).toBe('12.00');
  });

  it('adds a 5-cent rounding adjustment printed below the total when no rounded total follows', () => {
    const fields = extractDocumentFields(page([['GIFT BOX', '60.31'], ['TOTAL', 'RM 60.31'], ['ROUNDING ADJ', '-0.01'], ['CASH:', 'RM 70.30'], ['CHANGE', 'RM 10.00']]));
    expect(fields).toMatchObject({ total: '60.30', totalText: '60.30' });
    // Already a multiple of 5 cents, or a rounded total printed below: left as read.
    expect(extractDocumentFields(page([['TOTAL', '31.00'], ['ROUNDING ADJ', '0.00'], ['CASH', '50.00']])).total).toBe('31.00');
    expect(extractDocumentFields(page([['TOTAL', '31.02'], ['ROUNDING ADJ', '-0.02'], ['ROUNDED TOTAL', '31.00']])).total).toBe('31.00');
  });

  it('rounds a total to 5 cents when a rounding adjustment is printed below it, its amount read or not (issue 52)', () => {
    // The adjustment's amount and the rounded total lost ("Rounding Adjustment:" and "Net Total" with no amount).
    expect(extractDocumentFields(page([['Grand Total :', '87.08'], ['Rounding Adjustment:'], ['Net Total'], ['GST Summary']])).total).toBe('87.10');
    // A payment between the total and the adjustment.
    expect(extractDocumentFields(page([['TOTAL INCL)', '38.37'], ['CASH', '40.35'], ['ROUNDING ADJUSTMENTS', '0.02-'], ['CHANGE DUE', '2.00']])).total).toBe('38.35');
    // No adjustment below the total, or one further than four rows: the total as printed.
    expect(extractDocumentFields(page([['TOTAL', '87.08'], ['CASH', '100.00'], ['CHANGE', '12.92']])).total).toBe('87.08');
    expect(extractDocumentFields(page([['TOTAL', '87.08'], ['CASH', '100.00'], ['CHANGE', '12.92'], ['GST 6%', '4.93'], ['THANK YOU'], ['ROUNDING ADJ']])).total).toBe('87.08');
  });

  it("takes a total whose point OCR lost or split from the cash less the change it ends with (issue 52)", () => {
    // (As SROIE 161 reads: a rule's dashes under the total, then the tax note.)
    expect(extractDocumentFields(page([['NADEJE PRESTIGE SDN BHD'], ['Original Slice 2', 'RM26.00'], ['Grand Total 39 00'], ['—'], ['(Bill Inclusive of 6% GST : RM2.21)'], ['Cash', 'RM50.00'], ['Change', 'RM11.00']])).total).toBe('39.00');
    // "29.30" read "9 30": the digits it ends with.
    expect(extractDocumentFields(page([['YAM FRESH'], ['Oyster Mee 1', 'RM3.90'], ['Grand Total we 9 30'], ['—'], ['Cash', 'RM30.30'], ['Change', 'RM1.00']])).total).toBe('29.30');
    // Digits the cash less the change does not end with: nothing is made up.
    expect(extractDocumentFields(page([['YAM FRESH'], ['Grand Total 41 00'], ['—'], ['Cash', 'RM50.00'], ['Change', 'RM11.00']])).total).toBeUndefined();
  });

  it('does not take the cash handed over for the total where change was given (issue 52)', () => {
    const fields = extractDocumentFields(page([['99 SPEED MART S/B'], ['BIN BIN RICE CRACKER', 'RM11.90'], ['Total Sales (Inclusive GST) RM', '72.74'], ['Rounding Adjustment RM', '.01'], ['Rounding RM', '77,75'], ['CASH RM', '100.00'], ['CHANGE RM', '27.75']]));
    expect(fields.total).toBe('72.75');
  });

  it('counts the main fields a read gives, the issuer only with a corporate word (OCR reads again below 3)', () => {
    expect(plausibleReceiptFields(page([['GREEN LEAF TRADING SDN BHD'], ['DATE: 09/01/2019'], ['TOTAL', '31.00']]))).toBe(3);
    expect(plausibleReceiptFields(page([['PASAR MINI JIN SENG'], ['DATE: 09/01/2019'], ['TOTAL', '31.00']]))).toBe(2);
    expect(plausibleReceiptFields(page([['gracias por su visita']]))).toBe(0);
  });

  it('leaves out what it cannot find, and does not take cash or subtotals for the total', () => {
    // (Cash less change is 15,00, the subtotal 10,00: nothing says which the total is. Were the change 10,00, both would
    // agree on 10,00, and the learned chooser answers that: extract-choose.test.ts.)
    const fields = extractDocumentFields(page([['gracias por su visita'], ['SUBTOTAL', '10,00'], ['EFECTIVO', '20,00'], ['CAMBIO', '5,00']]));
    expect(fields.total).toBeUndefined();
    expect(fields.date).toBeUndefined();
    expect(fields.company).toBeUndefined();
  });
});

describe('business cards', () => {
  it('reads name, position, email, phone and website, English and Spanish', () => {
    expect(extractCardFields(segmentsFromText('ASYMMETRIK LTD\nMike Smith\nSenior Software Engineer\n(410)555-1234\nmsmith@asymmetrik.com'))).toEqual({
      name: 'Mike Smith', position: 'Senior Software Engineer', phone: '(410)555-1234', email: 'msmith@asymmetrik.com',
    });
    expect(extractCardFields(segmentsFromText('Grupo Norte Digital\nLucía Ferrer Gómez\nDirectora Comercial\nMóvil: +34 600 111 222\nFax: 91 555 00 00\nlucia.ferrer@gruponorte.es\nwww.gruponorte.es'))).toEqual({
      name: 'Lucía Ferrer Gómez', position: 'Directora Comercial', phone: '+34 600 111 222', email: 'lucia.ferrer@gruponorte.es', website: 'www.gruponorte.es',
    });
  });
  it('returns nothing for a card without those fields', () => {
    expect(extractCardFields(segmentsFromText('1234\n!!!'))).toEqual({});
  });
});

describe('preparing a photo for OCR', () => {
  /** A page of text lines at a given font size (about 1.2 times that in line height). */
  const page = (width: number, height: number, fontSize: number) => {
    const lines = Array.from({ length: Math.floor((height - 40) / (fontSize * 2)) }, (_, at) => `<text x="20" y="${40 + at * fontSize * 2}" font-family="DejaVu Sans" font-size="${fontSize}" fill="#111">TOTAL 12,50 EUR FACTURA 0042</text>`);
    return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fafafa"/>${lines.join('')}</svg>`)).jpeg().toBuffer();
  };
  const sizes = async (buffer: Buffer) => {
    const { width, height, channels } = await sharp(await prepareImage(buffer)).metadata();
    return { width: width!, height: height!, channels };
  };

  it('measures the printed line height', async () => {
    expect(await textLineHeight(sharp(await page(600, 900, 10)).grayscale())).toBeGreaterThanOrEqual(7);
    expect(await textLineHeight(sharp(await page(600, 900, 10)).grayscale())).toBeLessThanOrEqual(11);
    expect(await textLineHeight(sharp(await page(1200, 900, 40)).grayscale())).toBeGreaterThanOrEqual(28);
    expect(await textLineHeight(sharp({ create: { width: 300, height: 300, channels: 3, background: '#fff' } }).png())).toBe(0);
  });

  it('enlarges small print, leaves large print, brings big photos down to about 4 megapixels, grey', async () => {
    const small = await sizes(await page(500, 1000, 10));
    expect(small.width).toBeGreaterThanOrEqual(1000);
    expect(small.width).toBeLessThanOrEqual(1250);
    expect(small.channels).toBe(1);
    expect(await sizes(await page(1050, 600, 40))).toEqual({ width: 1050, height: 600, channels: 1 });
    const photo = await sizes(await page(4032, 3024, 60));
    expect(photo.width * photo.height).toBeGreaterThan(3_950_000);
    expect(photo.width * photo.height).toBeLessThan(4_050_000);
    // A portrait photo stored landscape with its EXIF orientation is turned upright first.
    const stored = await sharp(await page(4032, 3024, 60)).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const turned = await sizes(stored);
    expect(turned.height).toBeGreaterThan(turned.width);
  });

  it("takes a red stamp off black print, and leaves a picture printed in red or without red as it was", async () => {
    // Black print (a row of bars) with a red "PAID" stamp (a thick red ring) over part of it, on white paper.
    const svg = (ink: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400"><rect width="100%" height="100%" fill="#fff"/>${[0, 1, 2, 3, 4, 5]
      .map((at) => `<rect x="40" y="${40 + at * 55}" width="520" height="22" fill="${ink}"/>`)
      .join('')}<circle cx="300" cy="200" r="120" fill="none" stroke="#e0283c" stroke-width="30" style="mix-blend-mode:multiply"/></svg>`;
    const grey = async (picture: Buffer) => sharp(await prepareImage(picture)).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    const at = (image: { data: Buffer; info: { width: number; height: number } }, x: number, y: number) => image.data[Math.round((y * image.info.height) / 400) * image.info.width + Math.round((x * image.info.width) / 600)];
    const stamped = await grey(await sharp(Buffer.from(svg('#111'))).jpeg({ quality: 80 }).toBuffer());
    // The ring's top, between the first two bars, reads as paper.
    expect(at(stamped, 300, 80)).toBeGreaterThan(200);
    // The print stays black, where the ring crosses it too (its left side over the fourth bar).
    expect(at(stamped, 100, 51)).toBeLessThan(80);
    expect(at(stamped, 180, 216)).toBeLessThan(80);
    // Printed in red (the red is most of the ink): read as grey, the ring stays as dark as any print.
    const red = await grey(await sharp(Buffer.from(svg('#c8102e'))).jpeg({ quality: 80 }).toBuffer());
    expect(at(red, 100, 51)).toBeLessThan(120);
    // The pure rule: red ink light, black dark; nothing to do without red.
    expect(Array.from(dropRedInk(new Uint8Array([230, 40, 60, 20, 20, 20, 20, 20, 20, 255, 255, 255]), 3) ?? [])).toEqual([230, 20, 20, 255]);
    expect(dropRedInk(new Uint8Array([20, 20, 20, 255, 255, 255, 250, 250, 250]), 3)).toBeUndefined();
  });
});

describe('how many times a picture is read', () => {
  it('reads a receipt lacking its fields a second way, and a business card once', async () => {
    const { OcrEngine } = await import('../../server/extract/ocr');
    const engine = new OcrEngine(null);
    try {
      const worker = (await engine.start())!;
      let readings = 0;
      const recognize = worker.recognize.bind(worker);
      worker.recognize = ((...args: Parameters<typeof recognize>) => (readings++, recognize(...args))) as typeof worker.recognize;
      // A card: a name, a position and an e-mail; no total, date or company's legal form.
      const lines = ['Laura Gómez', 'Directora comercial', 'laura@example.com'];
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="700" height="300"><rect width="100%" height="100%" fill="#fff"/>${lines
        .map((line, at) => `<text x="40" y="${80 + at * 70}" font-family="DejaVu Sans" font-size="36" fill="#111">${line}</text>`)
        .join('')}</svg>`;
      const card = await sharp(Buffer.from(svg)).png().toBuffer();
      const asCard = await engine.read(card, { receipt: false });
      expect(readings).toBe(1);
      expect(extractCardFields(asCard.segments)).toMatchObject({ email: 'laura@example.com' });
      readings = 0;
      await engine.read(card);
      expect(readings).toBe(2);
    } finally {
      await engine.close();
    }
  }, 60_000);

  it('reads faint print on grey paper with a dark edge, which a first reading sees nothing of, with its contrast raised (issue 52)', async () => {
    const { OcrEngine, prepareImage } = await import('../../server/extract/ocr');
    const lines = ['SPEED MART SDN BHD', 'LOT 12 JALAN ANGSA', 'INVOICE NO : 18124', 'DATE: 14/08/2017', 'MINERAL WATER     1.40', 'GOAT MILK BODY     3.99', 'TOTAL        RM 5.39', 'CASH         RM 10.00', 'CHANGE       RM 4.61'];
    // Light grey print on grey paper, a torn black edge below and a dark margin on the left (SROIE 387, 415).
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800"><rect width="100%" height="100%" fill="#e0e0e0"/><rect y="740" width="600" height="60" fill="#000"/><rect width="25" height="800" fill="#111"/>${lines
      .map((line, at) => `<text x="60" y="${80 + at * 50}" font-family="DejaVu Sans Mono" font-size="24" fill="#b0b0b0">${line}</text>`)
      .join('')}</svg>`;
    const picture = await sharp(Buffer.from(svg)).png().toBuffer();
    const engine = new OcrEngine(null);
    try {
      const worker = (await engine.start())!;
      const plain = await worker.recognize(await prepareImage(picture));
      expect(plain.data.text).not.toMatch(/TOTAL|SPEED/);
      const read = await engine.read(picture);
      expect(extractDocumentFields(read.segments)).toMatchObject({ total: '5.39', date: '2017-08-14', company: 'SPEED MART SDN BHD' });
    } finally {
      await engine.close();
    }
  }, 60_000);
});

/** A stand-in for PP-OCR's recognition: every crop (kept in `crops`) reads `text`, `mean` sure. */
function recogniser(text: string, mean: number, crops: Buffer[] = []): PaddleEngine {
  return {
    recogniseLine: async (crop: Buffer) => {
      crops.push(crop);
      return { text, mean };
    },
  } as unknown as PaddleEngine;
}

describe("a second opinion on the date's digits (PP-OCR on a crop of the date's words)", () => {
  it('takes the second reading when it differs from the first only in digits, keeping the first reading\'s spacing', () => {
    expect(mendDateDigits('29 Mar 2015', '29Mar2018')).toBe('29 Mar 2018');
    expect(mendDateDigits('2016-03-23', '2018-03-23')).toBe('2018-03-23');
    // The crop's text may hold more than the date (a label, the time run into the year).
    expect(mendDateDigits('20/03/2013', 'Date:20/03/201813:01')).toBe('20/03/2018');
  });

  it('keeps the first reading when the two agree, differ in more than digits, or the second is no valid past date', () => {
    expect(mendDateDigits('20/03/2018', '20/03/2018')).toBeUndefined();
    expect(mendDateDigits('10 Mar 2018', '10Mar20181')).toBeUndefined();
    expect(mendDateDigits('20-03-2013', '20/03/2018')).toBeUndefined();
    expect(mendDateDigits('21032018', '2703/2018')).toBeUndefined();
    expect(mendDateDigits('20/03/2013', '20/08/2013')).toBe('20/08/2013');
    expect(mendDateDigits('20/03/2013', '20/83/2013')).toBeUndefined();
    expect(mendDateDigits('20/03/2013', '20/03/2028', new Date('2026-11-24T00:00:00Z'))).toBeUndefined();
  });

  it('mends the words the date falls on, so the receipt reads the right day', () => {
    const words = page([['SHOP SDN BHD'], ['Date:', '20/03/2013', '13:01'], ['TOTAL', '9.00']]);
    const mended = replaceDateText(words, groupRows(words), '20/03/2013', '20/03/2018');
    expect(extractDocumentFields(mended)).toMatchObject({ date: '2018-03-20', dateText: '20/03/2018', total: '9.00' });
    const split = page([['29', 'Mar', '2015', '10:02'], ['TOTAL', '9.00']]);
    expect(extractDocumentFields(replaceDateText(split, groupRows(split), '29 Mar 2015', '29 Mar 2018'))).toMatchObject({ date: '2018-03-29', dateText: '29 Mar 2018' });
  });

  it("reads a crop around the date's words and takes a sure reading only", async () => {
    const picture = await sharp({ create: { width: 900, height: 120, channels: 3, background: '#fff' } }).png().toBuffer();
    const words = page([['SHOP SDN BHD'], ['Date:', '20/03/2013', '13:01'], ['TOTAL', '9.00']]);
    const crops: Buffer[] = [];
    const reader = (text: string, mean: number) => recogniser(text, mean, crops);
    expect(extractDocumentFields(await secondOpinionOnDate(reader('20/03/2018', 0.98), picture, words))).toMatchObject({ date: '2018-03-20', dateText: '20/03/2018' });
    // The crop is the date's word with a small margin, not the whole row.
    const crop = await sharp(crops[0]).metadata();
    expect(crop.width).toBeLessThan(120);
    expect(crop.height).toBeLessThan(30);
    expect(extractDocumentFields(await secondOpinionOnDate(reader('20/03/2018', 0.6), picture, words))).toMatchObject({ date: '2013-03-20' });
  });

  it('reads again the word printed as a date where tesseract read no valid one, and takes a sure past date only (issue 52)', async () => {
    const picture = await sharp({ create: { width: 900, height: 160, channels: 3, background: '#fff' } }).png().toBuffer();
    // A phone number above, a day 72 on the bill's row: the bill's date-like word is read again.
    const words = page([['B & BEST RESTAURANT'], ['TEL:', '03-7859', '9863'], ['BILL DT:', '72/01/2017', '09:09:16'], ['TOTAL', '9.00']]);
    expect(extractDocumentFields(words).date).toBeUndefined();
    const crops: Buffer[] = [];
    const mended = await secondOpinionOnDate(recogniser('22/01/2017', 0.99, crops), picture, words);
    expect(extractDocumentFields(mended)).toMatchObject({ date: '2017-01-22', dateText: '22/01/2017' });
    expect(crops).toHaveLength(1);
    expect(groupRows(mended)[1].text).toBe('TEL: 03-7859 9863');
    // A date lost its slash ("27/0618"), on a labelled row.
    expect(extractDocumentFields(await secondOpinionOnDate(recogniser('27/06/18', 0.99), picture, page([['SHOP'], ['Date', '27/0618', '50732PM']]))).date).toBe('2018-06-27');
    // Unsure, no date in the reading, or a day to come: the words as read.
    expect(extractDocumentFields(await secondOpinionOnDate(recogniser('22/01/2017', 0.5), picture, words)).date).toBeUndefined();
    expect(extractDocumentFields(await secondOpinionOnDate(recogniser('72/01/2017', 0.99), picture, words)).date).toBeUndefined();
    expect(extractDocumentFields(await secondOpinionOnDate(recogniser('22/01/2099', 0.99), picture, words)).date).toBeUndefined();
  });

  it('reads the place right of a date label tesseract read nothing after (issue 52)', async () => {
    const picture = await sharp({ create: { width: 1200, height: 160, channels: 3, background: '#fff' } }).png().toBuffer();
    const words = page([['SLF CASH & CARRY'], ['Doc No', 'CS00241999', 'Date:'], ['TOTAL', '21.20']]);
    const crops: Buffer[] = [];
    const mended = await secondOpinionOnDate(recogniser('Date03/02/2018', 0.89, crops), picture, words);
    expect(extractDocumentFields(mended)).toMatchObject({ date: '2018-02-03' });
    // The crop runs from the label some twelve heights of line to its right.
    expect((await sharp(crops[0]).metadata()).width).toBeGreaterThan(200);
    expect(extractDocumentFields(await secondOpinionOnDate(recogniser('Date03/02/2018', 0.8), picture, words)).date).toBeUndefined();
    expect(extractDocumentFields(await secondOpinionOnDate(recogniser('Date', 0.99), picture, words)).date).toBeUndefined();
  });
});

describe("a second opinion on the total's digits (PP-OCR on a crop of the total's words)", () => {
  it('takes digits of the second reading that differ in at most two places, nothing else', () => {
    expect(mendAmountDigits('141.00', 'RM141.50')).toBe('141.50');
    expect(mendAmountDigits('343.99', 'Total: 343.95')).toBe('343.95');
    expect(mendAmountDigits('1,234.56', '1,234.58')).toBe('1,234.58');
    // Issue 52: the decimal sign read otherwise, a digit lost or added (the second's amount as it reads).
    expect(mendAmountDigits('83,95', 'lotal After Adj 88.95')).toBe('88,95');
    expect(mendAmountDigits('343.9', '343.95')).toBe('343.95');
    expect(mendAmountDigits('733.55', 'Total Pay: 73.55')).toBe('73.55');
    expect(mendAmountDigits('3.20', '23.20')).toBe('23.20');
    // Agreeing (whatever the sign), two digits more, three digits, no cents, or no amount at all: the first reading stays.
    expect(mendAmountDigits('141.50', '141.50')).toBeUndefined();
    expect(mendAmountDigits('141.50', '141,50')).toBeUndefined();
    expect(mendAmountDigits('41.50', '9141.50')).toBeUndefined();
    expect(mendAmountDigits('41.50', '42.60')).toBe('42.60');
    expect(mendAmountDigits('141.50', '898.50')).toBeUndefined();
    expect(mendAmountDigits('9280', '92.80')).toBeUndefined();
    expect(mendAmountDigits('12.00', 'TOTAL')).toBeUndefined();
  });

  it("reads a crop of the total's word on the total's row, not an item's of the same amount, and takes a sure reading only", async () => {
    const picture = await sharp({ create: { width: 900, height: 160, channels: 3, background: '#fff' } }).png().toBuffer();
    const words = page([['SHOP SDN BHD'], ['Date:', '20/03/2018'], ['ITEM', 'A', '141.00'], ['TOTAL', '141.00'], ['CASH', '150.00']]);
    const asked: Buffer[] = [];
    const reader = (text: string, mean: number) => recogniser(text, mean, asked);
    const mended = await secondOpinionOnTotal(reader('141.50', 0.97), picture, words);
    expect(extractDocumentFields(mended)).toMatchObject({ total: '141.50', totalText: '141.50' });
    // The item's amount is left as read.
    expect(groupRows(mended)[2].text).toBe('ITEM A 141.00');
    expect(asked).toHaveLength(1);
    expect(extractDocumentFields(await secondOpinionOnTotal(reader('141.50', 0.6), picture, words))).toMatchObject({ total: '141.00' });
    // Issue 52: a digit tesseract added, mended in the total's word; the other words as read.
    const added = await secondOpinionOnTotal(reader('Total Pay: 73.55', 0.99), picture, page([['SHOP SDN BHD'], ['ITEM', 'A', '73.55'], ['Total Payable:', '733.55'], ['CASH', '100.00']]));
    expect(extractDocumentFields(added)).toMatchObject({ total: '73.55' });
    expect(groupRows(added)[2].text).toBe('Total Payable: 73.55');
  });
});

describe("a second opinion on the issuer's letters (PP-OCR on a crop of the issuer's row)", () => {
  it("takes the second reading's letters where the two differ, keeping tesseract's spacing", () => {
    expect(mendNameLetters('laste Ot The World Sdn Bhd', 'Taste Of The Wor ld Sdn Bhd')).toBe('Taste Of The World Sdn Bhd');
    expect(mendNameLetters('MR D.I.Y. (JOHGR) SDN BHD', 'MR D.I.Y.(JOHOR) SDN BHD')).toBe('MR D.I.Y. (JOHOR) SDN BHD');
    expect(mendNameLetters('[ED HENG STATIONERY 6 BOOKS', 'TEO HENG STATIONERY & BOOKS')).toBe('TEO HENG STATIONERY 6 BOOKS');
  });

  it("keeps tesseract's reading for digits and signs, accents and case, other lengths, or too many changes", () => {
    expect(mendNameLetters('PERNIAGAAN ZHENG HUI', 'PERNIAGAAN ZHENG HU1')).toBeUndefined();
    expect(mendNameLetters('PANADERÍA LA ESPAÑOLA S.L.', 'PANADERiA LA ESPANOLA S.L.')).toBeUndefined();
    expect(mendNameLetters('LJAN HING STATIONERY SDN BHD', 'UANHING STATIONERY SDN BHD')).toBeUndefined();
    expect(mendNameLetters('PESAR MINT JIN SENG', 'PASAF MINI JAN SANG')).toBeUndefined();
    expect(mendNameLetters('BHD', 'BHD')).toBeUndefined();
  });

  it('with two readings of the row, changes a letter only where both read the same other letter', () => {
    expect(mendNameLetters('PESAR MINT JIN SENG', ['PASAF MINI JIN SENG', 'PASAR MINI JIN SENG'])).toBe('PASAR MINI JIN SENG');
    expect(mendNameLetters('TEO HENG STATIONERY & BOOKS', ['TEOHENG STATIONERY&BOOKS', 'TEOHENE STATIONERY&BOOKS'])).toBeUndefined();
    // A reading of another length is left out: the other decides alone.
    expect(mendNameLetters('PESAR MINT JIN SENG', ['PASARMINIJINSENGG', 'PASAR MINI JIN SENG'])).toBe('PASAR MINI JIN SENG');
  });

  it('splits initials tesseract ran together where the second reading prints them spaced', () => {
    expect(splitInitials('CW KHOO HARDWARE SDN BHD', 'C W KHOO HARDWARE SDN BHD')).toBe('C W KHOO HARDWARE SDN BHD');
    expect(splitInitials('CW KHOO HARDWARE SDN BHD', 'C W KHOOHARDWARESDNBHD')).toBe('C W KHOO HARDWARE SDN BHD');
    // Nothing to split: the second reading runs them together too, or holds the word as well, or spaces other letters.
    expect(splitInitials('CW KHOO HARDWARE SDN BHD', 'CW KHOO HARDWARE SDN BHD')).toBeUndefined();
    expect(splitInitials('SDN BHD', 'S DN BHD')).toBeUndefined();
    expect(splitInitials('AB MART', 'A B MART AB')).toBeUndefined();
  });

  it('adds the capitals tesseract left out at a row\'s ends, as a crop past them reads them joined to the word', () => {
    expect(missedEnds('HREE STOOGES', 'THREE STOOGES')).toEqual({ before: 'T', after: '' });
    expect(missedEnds('HREE STOOGES', 'THREESTOOGES')).toEqual({ before: 'T', after: '' });
    expect(missedEnds('SOON HUAT MACHINERY ENTERPRIS', 'SOON HUAT MACHINERY ENTERPRISE')).toEqual({ before: '', after: 'E' });
    // Not joined to the word (another word, a stamp's letter), more than two letters, not capitals, or a word not in
    // capitals: nothing is added.
    expect(missedEnds('99 SPEED MART', '99 SPEED MART S')).toBeUndefined();
    expect(missedEnds('HREE STOOGES', 'T HREE STOOGES')).toBeUndefined();
    expect(missedEnds('STOOGES', 'THREESTOOGES')).toBeUndefined();
    expect(missedEnds('HREE STOOGES', 'tHREE STOOGES')).toBeUndefined();
    expect(missedEnds('Banh Mi Cafe', 'Banh Mi CafeS')).toBeUndefined();
    expect(missedEnds('HREE STOOGES', '1HREE STOOGES')).toBeUndefined();
    // The reading must hold the row as it is: another letter inside, or the same text, says nothing of its ends.
    expect(missedEnds('HREE STOOGES', 'THREE STODGES')).toBeUndefined();
    expect(missedEnds('THREE STOOGES', 'THREE STOOGES')).toBeUndefined();
  });

  it("mends the issuer's words, so the receipt reads the right name", async () => {
    const picture = await sharp({ create: { width: 900, height: 120, channels: 3, background: '#fff' } }).png().toBuffer();
    const words = page([['TED', 'HENG', 'STATIONERY', '&', 'BOOKS'], ['Date:', '20/03/2018'], ['TOTAL', '9.00']]);
    const reader = (text: string, mean: number) => recogniser(text, mean);
    expect(extractDocumentFields(await secondOpinionOnIssuer(reader('TEO HENG STATIONERY&BOOKS', 0.97), picture, words))).toMatchObject({ company: 'TEO HENG STATIONERY & BOOKS', date: '2018-03-20' });
    expect(extractDocumentFields(await secondOpinionOnIssuer(reader('TEO HENG STATIONERY&BOOKS', 0.7), picture, words)).company).toBe('TED HENG STATIONERY & BOOKS');
    const initials = page([['CW', 'KHOO', 'HARDWARE', 'SDN', 'BHD'], ['Date:', '20/03/2018'], ['TOTAL', '9.00']]);
    expect(extractDocumentFields(await secondOpinionOnIssuer(reader('C W KHOOHARDWARE SDN BHD', 0.95), picture, initials)).company).toBe('C W KHOO HARDWARE SDN BHD');
    // A faded first letter tesseract did not see: the crop past the row's start reads it.
    const faded = page([['HREE', 'STOOGES'], ['BISTRO', '&', 'CAFE'], ['Date:', '20/03/2018'], ['TOTAL', '9.00']]);
    const crops: Buffer[] = [];
    expect(extractDocumentFields(await secondOpinionOnIssuer(recogniser('THREE STOOGES', 0.97, crops), picture, faded)).company).toBe('THREE STOOGES');
    // Three crops of the row, each wider: narrow, wide, and the one past its ends that read the T.
    const widths = await Promise.all(crops.map(async (crop) => (await sharp(crop).metadata()).width ?? 0));
    expect(widths).toHaveLength(3);
    expect(widths[2]).toBeGreaterThan(widths[1]);
    expect(widths[1]).toBeGreaterThan(widths[0]);
    expect(extractDocumentFields(await secondOpinionOnIssuer(recogniser('THREE STOOGES', 0.7), picture, faded)).company).toBe('HREE STOOGES');
    const mended = replaceRowText(words, groupRows(words)[0], 'TEO HENG STATIONERY & BOOKS');
    expect(mended.slice(0, 5).map((word) => word.text)).toEqual(['TEO', 'HENG', 'STATIONERY', '&', 'BOOKS']);
  });
});

describe('which readers ask PP-OCR for a second opinion', () => {
  it('a tesseract reader capped at 768 MiB or more loads PP-OCR recognition for it; one capped lower reads alone', () => {
    const reader = (memoryMb?: number) => (createEngine('tesseract', { memoryMb }) as unknown as { dateReader: unknown }).dateReader;
    expect(reader(1024)).toBeInstanceOf(PaddleEngine);
    expect(reader(SECOND_OPINION_MIN_MEMORY_MB)).toBeInstanceOf(PaddleEngine);
    expect(reader(400)).toBeNull();
  });
});

describe("how sure the reading is of the issuer's name (issue 51)", () => {
  /** A receipt's rows of words, each word with OCR's confidence. */
  const receipt = (name: Array<[string, number]>): Segment[] => {
    const rows: Array<Array<[string, number]>> = [name, [['NO.', 90], ['12', 92], ['JALAN', 91], ['MERU', 90]], [['DATE:', 95], ['21/11/2026', 94]], [['TOTAL', 96], ['5.70', 95]]];
    return rows.flatMap((row, at) => row.map(([text, confidence], index) => ({ text, confidence, box: [index * 120, at * 30, index * 120 + 100, at * 30 + 20] as Segment['box'] })));
  };
  it('is high for a name OCR read surely, and under the console offer threshold (0.7) for a garbled one', () => {
    const clean = extractDocumentFields(receipt([['PERNIAGAAN', 93], ['ZHENG', 91], ['HUI', 90]]));
    expect(clean.company).toBe('PERNIAGAAN ZHENG HUI');
    expect(clean.companyConfidence).toBeGreaterThanOrEqual(0.7);
    const garbled = extractDocumentFields(receipt([['DIST', 58], ['PERNIAGAAN', 84], ['ZHENG', 80], ['HU)', 41]]));
    expect(garbled.company).toBe('DIST PERNIAGAAN ZHENG HU)');
    expect(garbled.companyConfidence).toBeLessThan(0.7);
    // A PDF's text layer has no doubt to tell.
    expect(extractDocumentFields(segmentsFromText('PERNIAGAAN ZHENG HUI\nTOTAL 5.70')).companyConfidence).toBeUndefined();
  });

  it('is under the offer threshold for an address taken for the name, or a word of letters and digits mixed (issue 52)', () => {
    const sure = (words: Array<[string, number]>) => extractDocumentFields(receipt(words)).companyConfidence ?? 1;
    expect(sure([['1237-TMN', 92], ['INDAH', 93], ['PERDANA', 94]])).toBeLessThan(0.7);
    expect(sure([['SELASTH', 80], ['50H', 78], ['SDN', 80], ['BHD', 80]])).toBeLessThan(0.7);
    // Fewer than three letters left but for the legal form and the branch: what OCR kept of a name.
    expect(sure([['ME.', 85], ['(M)', 85], ['SDN', 90], ['BHD', 90]])).toBeLessThan(0.7);
    // Digits of a name's own ("99 SPEED MART", "T2") are not a slip.
    expect(sure([['99', 93], ['SPEED', 94], ['MART', 95], ['SDN', 93], ['BHD', 94]])).toBeGreaterThanOrEqual(0.9);
  });
});
