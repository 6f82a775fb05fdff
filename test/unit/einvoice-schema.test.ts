import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_ERRORS, MAX_VALIDATED_CHARS, validateSchema } from '../../server/einvoice/schema';

/**
 * Issue 55: an e-invoice validated against its official schema, offline. The samples: the official FacturaE 3.2
 * example (MITyC's, signed), a FacturaE 3.2.2 invoice written for these tests (and the same as 3.2.1), and the CEN
 * TC 434 examples of EN 16931 in UBL 2.1 (an invoice, a credit note) and CII D16B (see the fixtures' README).
 */
const fixtures = join(import.meta.dirname, '../fixtures/einvoice-checks');
const read = (name: string) => readFileSync(join(fixtures, name), 'utf8');
const facturae322 = read('facturae-3.2.2.xml');
const ublInvoice = read('ubl-tc434-example1.xml');

/** The FacturaE 3.2.2 sample as a 3.2.1 document (same structure, the 3.2.1 namespace). */
const facturae321 = facturae322
  .replace('http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_2.xml', 'http://www.facturae.es/Facturae/2014/v3.2.1/Facturae')
  .replace('<SchemaVersion>3.2.2</SchemaVersion>', '<SchemaVersion>3.2.1</SchemaVersion>');

/** The 1-based line of the first occurrence of `text` in `xml`. */
const lineOf = (xml: string, text: string) => xml.slice(0, xml.indexOf(text)).split('\n').length;

describe('an e-invoice valid against its official schema (issue 55)', () => {
  it.each([
    ['the official FacturaE 3.2 example, signed', read('factura_ejemplo2_32v1.xml'), 'facturae', '3.2'],
    ['a FacturaE 3.2.1', facturae321, 'facturae', '3.2.1'],
    ['a FacturaE 3.2.2', facturae322, 'facturae', '3.2.2'],
    ['a UBL 2.1 invoice (EN 16931 example 1)', ublInvoice, 'ubl', '2.1'],
    ['a UBL 2.1 credit note, no UBLVersionID', read('ubl-tc434-creditnote1.xml'), 'ubl', ''],
    ['a CII D16B invoice (EN 16931 example 3)', read('CII_example3.xml'), 'cii', 'D16B'],
  ] as const)('%s', async (_name, xml, syntax, version) => {
    expect(await validateSchema(xml, syntax, version)).toEqual({ valid: true, errors: [] });
  });
});

describe('an e-invoice its schema refuses is reported with the lines, never thrown (issue 55)', () => {
  it('an amount written the Spanish way', async () => {
    const xml = facturae322.replace('<InvoiceTotal>1210.00</InvoiceTotal>', '<InvoiceTotal>1.210,00</InvoiceTotal>');
    const { valid, errors } = await validateSchema(xml, 'facturae', '3.2.2');
    expect(valid).toBe(false);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`^line ${lineOf(xml, '<InvoiceTotal>')}: Element 'InvoiceTotal': '1\\.210,00' is not a valid value`));
  });

  it('a UBL invoice without its issue date, an element the schema does not know', async () => {
    const xml = ublInvoice.replace(/<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/, '<cbc:IssuedOn>2017-11-13</cbc:IssuedOn>');
    const { valid, errors } = await validateSchema(xml, 'ubl', '2.1');
    expect(valid).toBe(false);
    expect(errors[0]).toMatch(new RegExp(`^line ${lineOf(xml, '<cbc:IssuedOn>')}: Element '\\{urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2\\}IssuedOn': This element is not expected`));
  });

  it(`at most ${MAX_ERRORS} errors`, async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `<InvoiceLine><ItemDescription>Artículo ${i}</ItemDescription><Quantity>muchos</Quantity></InvoiceLine>`).join('\n');
    const xml = facturae322.replace(/<Items>[\s\S]*<\/Items>/, `<Items>\n${lines}\n</Items>`);
    const { valid, errors } = await validateSchema(xml, 'facturae', '3.2.2');
    expect(valid).toBe(false);
    expect(errors).toHaveLength(MAX_ERRORS);
    for (const error of errors) expect(error).toMatch(/^line \d+: /);
  });

  it('a document of another version, syntax or kind than asked', async () => {
    expect(await validateSchema(read('factura_ejemplo2_32v1.xml'), 'facturae', '3.2.2')).toEqual({
      valid: false,
      errors: ['line 2: the root element is {http://www.facturae.es/Facturae/2009/v3.2/Facturae}Facturae, expected {http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_2.xml}Facturae'],
    });
    expect(await validateSchema(facturae322, 'facturae', '3.1')).toEqual({ valid: false, errors: ['no schema for FacturaE 3.1 (known: 3.2, 3.2.1, 3.2.2)'] });
    expect(await validateSchema(ublInvoice, 'cii', 'D16B')).toMatchObject({ valid: false, errors: [expect.stringMatching(/root element is \{urn:oasis:names:specification:ubl:schema:xsd:Invoice-2\}Invoice, expected/)] });
    // A global element of the UBL schemas is not an invoice.
    const party = '<cac:Party xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"/>';
    expect(await validateSchema(party, 'ubl', '2.1')).toMatchObject({ valid: false });
  });

  it('XML that is not well-formed', async () => {
    const xml = facturae322.replace('</InvoiceHeader>', '</InvoiceHeaders>');
    const { valid, errors } = await validateSchema(xml, 'facturae', '3.2.2');
    expect(valid).toBe(false);
    expect(errors[0]).toMatch(new RegExp(`^line ${lineOf(xml, '</InvoiceHeaders>')}: Opening and ending tag mismatch: InvoiceHeader`));
  });

  it('a Latin-1 declaration on a text already decoded', async () => {
    const xml = facturae322.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"');
    expect(await validateSchema(xml, 'facturae', '3.2.2')).toEqual({ valid: true, errors: [] });
  });
});

describe('hostile XML is refused fast, never read beyond itself (issue 55)', () => {
  const NS = 'http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_2.xml';

  it('entity expansion ("billion laughs")', async () => {
    const entities = ['<!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">'];
    for (const [previous, name] of [['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'e'], ['e', 'f'], ['f', 'g'], ['g', 'h']]) entities.push(`<!ENTITY ${name} "${`&${previous};`.repeat(16)}">`);
    const xml = `<?xml version="1.0"?><!DOCTYPE fe:Facturae [${entities.join('')}]><fe:Facturae xmlns:fe="${NS}"><FileHeader><SchemaVersion>&h;</SchemaVersion></FileHeader></fe:Facturae>`;
    const started = performance.now();
    const { valid, errors } = await validateSchema(xml, 'facturae', '3.2.2');
    expect(valid).toBe(false);
    expect(errors.join('\n')).toMatch(/amplification/);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('an external entity naming a file of the server', async () => {
    const file = join(fixtures, 'facturae-3.2.2.xml');
    const xml = `<?xml version="1.0"?><!DOCTYPE fe:Facturae [<!ENTITY x SYSTEM "file://${file}">]><fe:Facturae xmlns:fe="${NS}"><FileHeader><SchemaVersion>&x;</SchemaVersion></FileHeader></fe:Facturae>`;
    const { valid, errors } = await validateSchema(xml, 'facturae', '3.2.2');
    expect(valid).toBe(false);
    expect(errors[0]).toBe(`line 1: failed to load external entity "file://${file}"`);
    expect(errors.join('\n')).not.toContain('Peñalara');
  });

  it('nesting thousands of levels deep', async () => {
    const xml = `<fe:Facturae xmlns:fe="${NS}">${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}</fe:Facturae>`;
    expect(await validateSchema(xml, 'facturae', '3.2.2')).toMatchObject({ valid: false, errors: [expect.stringMatching(/^line 1: Excessive depth in document: 257/)] });
  });

  it('a document past the size validated', async () => {
    const xml = `<fe:Facturae xmlns:fe="${NS}"><!--${' '.repeat(MAX_VALIDATED_CHARS)}--></fe:Facturae>`;
    expect(await validateSchema(xml, 'facturae', '3.2.2')).toEqual({ valid: false, errors: [`the document is larger than ${MAX_VALIDATED_CHARS} characters; it was not validated`] });
  });

  it('several at once each get their answer', async () => {
    const answers = await Promise.all([facturae322, facturae322.replace('<Quantity>20', '<Quantity>veinte'), facturae322, facturae322].map((xml) => validateSchema(xml, 'facturae', '3.2.2')));
    expect(answers.map((answer) => answer.valid)).toEqual([true, false, true, true]);
  });
});
