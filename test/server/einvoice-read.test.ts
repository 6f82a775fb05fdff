/**
 * Issue 55: supplier e-invoices read exactly. Every kept sample (test/fixtures/einvoice, see its README) is read into
 * the values written below, each taken from the sample's own text: number, dates, seller's name and tax id,
 * currency, totals, taxes, line count. A Factur-X PDF is made here with pdfkit, the CII credit note attached.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectEInvoice, EInvoiceError, profileName, readEInvoice } from '../../server/einvoice';
import { checkTotals, type EInvoice } from '../../shared/domain/einvoice';
import { pdfCarrying } from '../support/pdf-files';

const FIXTURES = join(import.meta.dirname, '../fixtures/einvoice');
const sample = (path: string) => readFileSync(join(FIXTURES, path));

type DeepPartial<T> = { [K in keyof T]?: NonNullable<T[K]> extends object ? DeepPartial<NonNullable<T[K]>> : T[K] };

/** What every sample is checked for: the header, the parties' names and tax ids, totals, taxes and line count. */
function expectRead(invoice: EInvoice, expected: DeepPartial<EInvoice> & { lineCount: number }) {
  const { lineCount, ...rest } = expected;
  expect(invoice).toMatchObject(rest);
  expect(invoice.lines).toHaveLength(lineCount);
}

describe('UBL 2.1 and CII samples of EN 16931 (CEN/TC 434)', () => {
  it('reads the UBL invoice ubl-tc434-example1.xml exactly', async () => {
    const invoice = await readEInvoice(sample('en16931/ubl-tc434-example1.xml'));
    expectRead(invoice, {
      format: 'ubl',
      version: '2.1',
      profile: 'urn:cen.eu:en16931:2017',
      label: 'UBL 2.1 (EN 16931)',
      kind: 'invoice',
      number: '12115118',
      issueDate: '2015-01-09',
      dueDate: '2015-01-09',
      currency: 'EUR',
      seller: { name: 'De Koksmaat', vat: 'NL8200.98.395.B.01', address: { street: 'Postbus 7l', city: 'Velsen-Noord', postalCode: '1950 AB', country: 'NL' } },
      buyer: { name: 'ODIN 59' },
      taxes: [
        { rate: 6, base: 183.23, amount: 10.99, category: 'S' },
        { rate: 21, base: 46.37, amount: 9.74, category: 'S' },
      ],
      totals: { lines: 229.6, net: 229.6, tax: 20.73, total: 250.33, payable: 250.33 },
      lineCount: 20,
    });
    expect(invoice.lines[0]).toEqual({ description: 'PATAT FRITES 10MM 10KG', quantity: 2, unitPrice: 9.95, net: 19.9, taxRate: 6 });
    // A name's trailing space in the XML ("KOFFIE BLIK 3,5KG SNELF ") is not part of it.
    expect(invoice.lines[4].description).toBe('KOFFIE BLIK 3,5KG SNELF');
    expect(checkTotals(invoice)).toEqual([]);
  });

  it('reads the UBL credit note ubl-tc434-creditnote1.xml as a credit note, its amounts positive', async () => {
    const invoice = await readEInvoice(sample('en16931/ubl-tc434-creditnote1.xml'));
    expectRead(invoice, {
      format: 'ubl',
      label: 'UBL 2.1 (EN 16931)',
      kind: 'creditNote',
      number: '018304 / 28865',
      issueDate: '2019-09-23',
      currency: 'EUR',
      seller: { name: 'My Supplier Company', vat: 'BE0000000196' },
      buyer: { name: 'My Customer Company', vat: 'BE0000000295' },
      taxes: [{ rate: 0, base: 100.11, amount: 0, category: 'E' }],
      totals: { net: 100.11, tax: 0, total: 100.11, payable: 100.11 },
      lineCount: 1,
    });
    expect(invoice.lines[0]).toMatchObject({ description: 'Exonération du versement du PP', net: 100.11 });
    expect(checkTotals(invoice)).toEqual([]);
  });

  it('reads the CII CII_example1.xml (dates in format 102) as the same invoice as its UBL twin', async () => {
    const invoice = await readEInvoice(sample('en16931/CII_example1.xml'));
    expectRead(invoice, {
      format: 'cii',
      version: 'D16B',
      profile: 'urn:cen.eu:en16931:2017',
      label: 'CII D16B (EN 16931)',
      kind: 'invoice',
      number: '12115118',
      issueDate: '2015-01-09',
      dueDate: '2015-01-09',
      currency: 'EUR',
      seller: { name: 'De Koksmaat', vat: 'NL8200.98.395.B.01', address: { street: 'Postbus 7l', city: 'Velsen-Noord', postalCode: '1950 AB', country: 'NL' } },
      buyer: { name: 'ODIN 59' },
      taxes: [
        { rate: 6, base: 183.23, amount: 10.99, category: 'S' },
        { rate: 21, base: 46.37, amount: 9.74, category: 'S' },
      ],
      totals: { lines: 229.6, net: 229.6, tax: 20.73, total: 250.33, payable: 250.33 },
      lineCount: 20,
    });
    expect(invoice.lines[0]).toMatchObject({ description: 'PATAT FRITES 10MM 10KG', net: 19.9, taxRate: 6 });
    expect(checkTotals(invoice)).toEqual([]);
  });
});

describe('FacturaE 3.2.2 samples of gobl.facturae', () => {
  it('reads invoice-vat.xml: the seller is the SellerParty (not the third party that issued the file)', async () => {
    const invoice = await readEInvoice(sample('gobl-facturae/invoice-vat.xml'));
    expectRead(invoice, {
      format: 'facturae',
      version: '3.2.2',
      label: 'FacturaE 3.2.2',
      kind: 'invoice',
      number: 'TEST01001F',
      issueDate: '2021-12-08',
      dueDate: '2021-12-30',
      currency: 'EUR',
      seller: { name: 'Hypeprop Sl', vat: 'B23103039', address: { postalCode: '28023', city: 'Torrejón De La Calzada', country: 'ES' } },
      buyer: { name: 'Moniward Sl', vat: 'B77436020' },
      taxes: [{ rate: 21, base: 4202, amount: 882.42, category: 'IVA' }],
      totals: { lines: 4202, net: 4202, tax: 882.42, withheld: 0, total: 5084.42, payable: 5084.42 },
      lineCount: 2,
    });
    expect(invoice.lines.map((line) => line.net)).toEqual([4000, 202]);
    expect(checkTotals(invoice)).toEqual([]);
  });

  it('reads the rectificativa credit-note.xml (negative totals) as a credit note with positive amounts', async () => {
    const invoice = await readEInvoice(sample('gobl-facturae/credit-note.xml'));
    expectRead(invoice, {
      kind: 'creditNote',
      number: 'TEST01001R',
      issueDate: '2021-12-08',
      currency: 'EUR',
      seller: { name: 'Hypeprop Sl', vat: 'B23103039' },
      taxes: [{ rate: 21, base: 4202, amount: 882.42, category: 'IVA' }],
      totals: { net: 4202, tax: 882.42, total: 5084.42, payable: 5084.42 },
      lineCount: 2,
    });
    expect(invoice.lines.map((line) => line.net)).toEqual([4000, 202]);
    expect(checkTotals(invoice)).toEqual([]);
  });

  it('reads invoice-vat-irpf.xml: a self-employed seller, two VAT rates, IRPF withheld; its InvoiceTotal does not subtract the IRPF', async () => {
    const invoice = await readEInvoice(sample('gobl-facturae/invoice-vat-irpf.xml'));
    expectRead(invoice, {
      number: 'TEST01002F',
      issueDate: '2021-12-08',
      currency: 'EUR',
      seller: { name: 'Maria Remedios Sanchez Nuñez', vat: '37221735F' },
      buyer: { name: 'Moniward Sl', vat: 'B77436020' },
      taxes: [
        { rate: 21, base: 4002, amount: 840.42, category: 'IVA' },
        { rate: 10, base: 35, amount: 3.5, category: 'IVA' },
      ],
      withholdings: [{ rate: 15, base: 4002, amount: 600.3, category: 'IRPF' }],
      totals: { lines: 4037, charges: 200, net: 4237, tax: 843.92, withheld: 600.3, total: 5080.92, payable: 4480.62 },
      lineCount: 3,
    });
    // FacturaE's InvoiceTotal is base + taxes - withheld (4480.62): the sample says 5080.92 (see the fixtures' README).
    expect(checkTotals(invoice)).toEqual([{ key: 'einvoice.totalMismatch', params: { computed: 4480.62, stated: 5080.92 } }]);
  });
});

describe("the official FacturaE 3.2 example (MITyC's, signed, as esig/dss keeps it)", () => {
  it('reads it exactly: the series-less number, the seller, the buyer abroad, IVA with recargo, the IRPF withheld, the total', async () => {
    const invoice = await readEInvoice(readFileSync(join(FIXTURES, '../einvoice-checks/factura_ejemplo2_32v1.xml')));
    expectRead(invoice, {
      format: 'facturae',
      version: '3.2',
      label: 'FacturaE 3.2',
      kind: 'invoice',
      number: '18',
      issueDate: '2010-03-10',
      dueDate: '2010-03-10',
      currency: 'EUR',
      seller: { name: 'Company Comp SA', vat: 'A82735122' },
      buyer: { vat: '0000000000B' },
      totals: { net: 59.75, tax: 4.42, withheld: 1.04, total: 63.13 },
      lineCount: 2,
    });
    expect(invoice.lines.map((line) => [line.description, line.quantity, line.net])).toEqual([['Flores', 1, 33.75], ['Mate', 2, 26]]);
    expect(checkTotals(invoice)).toEqual([]);
  });
});

describe("the project's own samples", () => {
  it('reads a signed FacturaE 3.2.1 (.xsig): series and number, recargo de equivalencia, a general discount, the first instalment due', async () => {
    const buffer = sample('own/facturae-321-signed.xsig');
    expect(await detectEInvoice(buffer, 'FA2026-0042.xsig')).toEqual({ format: 'facturae', version: '3.2.1', container: 'xml', signed: true });
    const invoice = await readEInvoice(buffer);
    expectRead(invoice, {
      label: 'FacturaE 3.2.1',
      kind: 'invoice',
      number: 'FA2026-0042',
      issueDate: '2026-11-15',
      dueDate: '2026-12-15',
      currency: 'EUR',
      // &amp; in the XML is the ampersand.
      seller: { name: 'Suministros Gil & Hijos S.L.', vat: 'B12345678', address: { street: 'Calle Mayor 12, bajo', city: 'Zaragoza', postalCode: '50001', country: 'ES' } },
      buyer: { name: 'Acme Iberia S.L.', vat: 'B87654321' },
      taxes: [
        { rate: 21, base: 153, amount: 32.13, category: 'IVA' },
        { rate: 5.2, base: 153, amount: 7.96, category: 'RE' },
        { rate: 4, base: 12, amount: 0.48, category: 'IVA' },
        { rate: 0.5, base: 12, amount: 0.06, category: 'RE' },
      ],
      totals: { lines: 168.85, allowances: 3.85, charges: 0, net: 165, tax: 40.63, withheld: 0, total: 205.63, payable: 205.63 },
      lineCount: 3,
    });
    expect(invoice.lines).toEqual([
      { description: 'Papel A4 80 g (caja de 5 paquetes)', quantity: 4, unitPrice: 18.5, net: 66.6, taxRate: 21 },
      // Character references and the predefined entities are decoded; nothing else is expanded.
      { description: 'Tóner negro HP 305A', quantity: 2, unitPrice: 45.125, net: 90.25, taxRate: 21 },
      { description: 'Libro de registro <tapa dura>', quantity: 1, unitPrice: 12, net: 12, taxRate: 4 },
    ]);
    expect(checkTotals(invoice)).toEqual([]);
  });

  it('reads a FacturaE 3.2 of a self-employed seller abroad, with IRPF withheld from the total', async () => {
    const invoice = await readEInvoice(sample('own/facturae-32-irpf.xml'));
    expectRead(invoice, {
      version: '3.2',
      label: 'FacturaE 3.2',
      number: '2026/117',
      issueDate: '2026-11-30',
      currency: 'EUR',
      seller: { name: 'Lucía Martín Pérez', vat: '12345678Z', address: { street: '12 rue de la Paix', city: 'Paris', postalCode: '75002', country: 'FR' } },
      buyer: { name: 'Acme Iberia S.L.', vat: 'ESB87654321' },
      taxes: [{ rate: 21, base: 600, amount: 126, category: 'IVA' }],
      withholdings: [{ rate: 15, base: 600, amount: 90, category: 'IRPF' }],
      totals: { net: 600, tax: 126, withheld: 90, total: 636, payable: 636 },
      lineCount: 1,
    });
    expect(invoice.dueDate).toBeUndefined();
    expect(checkTotals(invoice)).toEqual([]);
  });

  it('reads a Peppol invoice with negative totals as a credit note: amounts and quantity positive, the tax in the invoice currency', async () => {
    const invoice = await readEInvoice(sample('own/ubl-negative-invoice.xml'));
    expectRead(invoice, {
      label: 'UBL 2.1 (Peppol BIS 3.0)',
      profile: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
      kind: 'creditNote',
      number: 'INV-NEG-7',
      issueDate: '2026-10-31',
      dueDate: '2026-11-30',
      currency: 'USD',
      seller: { name: 'Industrias Norte S.A.', vat: 'ESA12345674', address: { street: 'Gran Vía 1 Planta 3', city: 'Bilbao', postalCode: '48001', country: 'ES' } },
      buyer: { name: 'Acme Iberia S.L.', vat: 'ESB87654321' },
      taxes: [{ rate: 21, base: 50, amount: 10.5, category: 'S' }],
      totals: { lines: 50, net: 50, tax: 10.5, total: 60.5, payable: 60.5 },
      lineCount: 1,
    });
    // 250.00 for a base quantity of 10: 25 a unit.
    expect(invoice.lines[0]).toEqual({ description: 'Returned cable drums', quantity: 2, unitPrice: 25, net: 50, taxRate: 21 });
    expect(checkTotals(invoice)).toEqual([]);
  });

  it('reads a CII credit note (type 381)', async () => {
    const invoice = await readEInvoice(sample('own/cii-credit-note.xml'));
    expectRead(invoice, {
      label: 'CII D16B (EN 16931)',
      kind: 'creditNote',
      number: 'AB-2026-0009',
      issueDate: '2026-11-20',
      dueDate: '2026-12-20',
      currency: 'EUR',
      // Its VAT id (scheme VA), not its fiscal number (FC) listed first.
      seller: { name: 'Industrias Norte S.A.', vat: 'ESA12345674', address: { street: 'Gran Vía 1', city: 'Bilbao', postalCode: '48001', country: 'ES' } },
      buyer: { name: 'Acme Iberia S.L.', vat: 'ESB87654321' },
      taxes: [{ rate: 21, base: 120, amount: 25.2, category: 'S' }],
      totals: { lines: 120, net: 120, tax: 25.2, total: 145.2, payable: 145.2 },
      lineCount: 1,
    });
    expect(invoice.lines[0]).toEqual({ description: 'Devolución: silla de oficina', quantity: 2, unitPrice: 60, net: 120, taxRate: 21 });
  });
});

describe('PDFs carrying an e-invoice (Factur-X, ZUGFeRD, XRechnung)', () => {
  const cii = sample('own/cii-credit-note.xml');

  it('reads the CII a Factur-X PDF carries as factur-x.xml, and says so', async () => {
    const pdf = await pdfCarrying([{ name: 'factur-x.xml', data: cii }]);
    expect(await detectEInvoice(pdf, 'AB-2026-0009.pdf')).toEqual({ format: 'cii', version: 'D16B', container: 'pdf', attachment: 'factur-x.xml', signed: false });
    const invoice = await readEInvoice(pdf);
    expect(invoice).toMatchObject({ format: 'cii', label: 'Factur-X EN 16931', kind: 'creditNote', number: 'AB-2026-0009', issueDate: '2026-11-20', seller: { vat: 'ESA12345674' }, totals: { total: 145.2 } });
  });

  it("names a ZUGFeRD PDF by its attachment's name, and finds the invoice among other attachments", async () => {
    const pdf = await pdfCarrying([
      { name: 'delivery-note.xml', data: Buffer.from('<?xml version="1.0"?><DeliveryNote><Number>7</Number></DeliveryNote>') },
      { name: 'zugferd-invoice.xml', data: cii },
    ]);
    expect(await readEInvoice(pdf)).toMatchObject({ label: 'ZUGFeRD EN 16931', number: 'AB-2026-0009' });
  });

  it('reads a UBL a PDF carries under a name of its own', async () => {
    const pdf = await pdfCarrying([{ name: 'INV-NEG-7.xml', data: sample('own/ubl-negative-invoice.xml') }]);
    expect(await readEInvoice(pdf)).toMatchObject({ format: 'ubl', number: 'INV-NEG-7', kind: 'creditNote' });
  });

  it('refuses a PDF without an e-invoice (422), and one whose XML is not one read here; detection says null for both', async () => {
    const plain = await pdfCarrying([]);
    const other = await pdfCarrying([{ name: 'zugferd-invoice.xml', data: Buffer.from('<?xml version="1.0"?><rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0"/>') }]);
    expect(await detectEInvoice(plain)).toBeNull();
    expect(await detectEInvoice(other)).toBeNull();
    await expect(readEInvoice(plain)).rejects.toMatchObject({ statusCode: 422, key: 'einvoice.pdfWithout' });
    await expect(readEInvoice(other)).rejects.toMatchObject({ statusCode: 422, key: 'einvoice.notEInvoice' });
  });

  it('refuses a damaged PDF (422)', async () => {
    const error = await readEInvoice(Buffer.from('%PDF-1.7\nnot a PDF at all')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EInvoiceError);
    expect(error).toMatchObject({ statusCode: 422, key: 'extract.pdfDamaged' });
  });
});

describe('detection', () => {
  it('tells each format by its root element and namespace, and nothing else', async () => {
    expect(await detectEInvoice(sample('en16931/ubl-tc434-creditnote1.xml'))).toEqual({ format: 'ubl', version: '2.1', container: 'xml', signed: false });
    expect(await detectEInvoice(sample('en16931/CII_example1.xml'))).toEqual({ format: 'cii', version: 'D16B', container: 'xml', signed: false });
    // gobl's FacturaE is XAdES-signed inside a .xml: the signature, not the name, says so.
    expect(await detectEInvoice(sample('gobl-facturae/invoice-vat.xml'), 'invoice.xml')).toEqual({ format: 'facturae', version: '3.2.2', container: 'xml', signed: true });
    expect(await detectEInvoice(sample('own/facturae-32-irpf.xml'), 'invoice.xml')).toEqual({ format: 'facturae', version: '3.2', container: 'xml', signed: false });
    // An Invoice in another namespace, FacturaE 3.1, a photo, a text: none.
    expect(await detectEInvoice(Buffer.from('<Invoice xmlns="urn:example:invoice"><ID>1</ID></Invoice>'))).toBeNull();
    expect(await detectEInvoice(Buffer.from('<fe:Facturae xmlns:fe="http://www.facturae.es/Facturae/2007/v3.1/Facturae"/>'))).toBeNull();
    expect(await detectEInvoice(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'photo.jpg')).toBeNull();
    expect(await detectEInvoice(Buffer.from('Invoice 12, total 100 EUR'))).toBeNull();
  });

  it('reads a UTF-8 file with its byte order mark, and a UTF-16 one', async () => {
    const text = sample('own/cii-credit-note.xml').toString('utf8');
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.replace('encoding="UTF-8"', 'encoding="UTF-16"'), 'utf16le')]);
    for (const buffer of [withBom, utf16]) expect(await readEInvoice(buffer)).toMatchObject({ number: 'AB-2026-0009', seller: { address: { street: 'Gran Vía 1' } } });
  });

  it('names the specifications a profile id says', () => {
    expect(profileName('urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0')).toBe('XRechnung 3.0');
    expect(profileName('urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic')).toBe('Factur-X BASIC');
    expect(profileName('urn:factur-x.eu:1p0:basicwl')).toBe('Factur-X BASIC WL');
    expect(profileName('urn:cen.eu:en16931:2017#conformant#urn:zugferd.de:2p0:extended')).toBe('Factur-X EXTENDED');
    expect(profileName('urn:cen.eu:en16931:2017')).toBe('EN 16931');
    expect(profileName('urn:example:other')).toBeUndefined();
  });
});
