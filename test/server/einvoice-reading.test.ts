/**
 * Issue 55 through the server as the Move page asks it: POST /ocr/move/ with a FacturaE (signed here), a UBL, a
 * Factur-X PDF answers the e-invoice's own values at once (no OCR), what could be checked (totals, schema, signature,
 * the buyer against the user's companies), and the company's supplier found by its tax id. Hostile or foreign XML is
 * refused with a 4xx naming why, in the user's language. A bill registered with the XML keeps it as its attachment.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEInvoice, readEInvoiceXml } from '../../server/einvoice';
import { pdfXmlAttachments } from '../../server/einvoice/pdf';
import { makeSigner, sign } from '../fixtures/einvoice-checks/signing';
import { pdfCarrying } from '../support/pdf-files';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
let token: string;
let signedFacturae: string;

const fixture = (path: string) => readFileSync(`test/fixtures/${path}`);
const dataUrl = (buffer: Buffer | string, type: string) => `data:${type};base64,${Buffer.from(buffer).toString('base64')}`;

beforeAll(async () => {
  server = await startTestServer({ seedErp: true });
  token = await server.tokenFor('staff@demo.example');
  const signer = await makeSigner('MARÍA LÓPEZ GARCÍA - 12345678Z', 'Suministros Peñalara, S.L.');
  signedFacturae = await sign(fixture('einvoice-checks/facturae-3.2.2.xml').toString('utf8'), signer);
}, 120_000);
afterAll(() => server?.stop());

async function read(file: string, { companyId, language = 'es' }: { companyId?: number; language?: string } = {}) {
  const response = await server.app.inject({
    method: 'POST',
    url: '/ocr/move/',
    headers: { authorization: token, 'accept-language': language },
    payload: { file, ...(companyId ? { companyId } : {}) },
  });
  const body = response.json();
  return { status: response.statusCode, body, fields: response.statusCode === 200 ? JSON.parse(body.result) : undefined };
}

describe('POST /ocr/move/ with an e-invoice', () => {
  it('answers a signed FacturaE 3.2.2 from its XML: the amounts, dates and issuer exactly, schema valid, the signer named', async () => {
    const { status, fields } = await read(dataUrl(signedFacturae, 'application/xml'));
    expect(status).toBe(200);
    expect(fields).toMatchObject({ importe: '1210.00', date: '2026-11-02', provider: 'Suministros Peñalara SL', vat: 'ESB12345674' });
    expect(fields.providerConfidence).toBeUndefined();
    expect(fields.einvoice).toMatchObject({
      label: 'FacturaE 3.2.2',
      seller: { name: 'Suministros Peñalara SL', vat: 'ESB12345674' },
      buyer: { vat: 'ESA87654321' },
      totals: { total: 1210 },
      checks: { totals: [], schema: { valid: true, errors: [] }, signature: { status: 'valid', signer: 'MARÍA LÓPEZ GARCÍA - 12345678Z, Suministros Peñalara, S.L.' } },
    });
  });

  it('says a FacturaE changed after it was signed, and one not signed, without refusing it', async () => {
    const altered = signedFacturae.replace('<InvoiceTotal>1210.00</InvoiceTotal>', '<InvoiceTotal>1310.00</InvoiceTotal>');
    const changed = await read(dataUrl(altered, 'application/xml'));
    expect(changed.status).toBe(200);
    expect(changed.fields.importe).toBe('1310.00');
    expect(changed.fields.einvoice.checks.signature).toMatchObject({ status: 'invalid', reason: 'altered' });
    expect(changed.fields.einvoice.checks.totals).toEqual([{ key: 'einvoice.totalMismatch', params: { computed: 1210, stated: 1310 } }]);
    const unsigned = await read(dataUrl(fixture('einvoice-checks/facturae-3.2.2.xml'), 'application/xml'));
    expect(unsigned.fields.einvoice.checks.signature).toEqual({ status: 'unsigned' });
  });

  it("finds the company's supplier by the invoice's tax id, and checks the buyer against the user's companies", async () => {
    const erp = server.app.services.erp.client;
    const supplier = await erp.create('res.partner', { name: 'Peñalara Suministros (ficha antigua)', vat: 'ESB12345674', is_company: true, supplier_rank: 1, company_id: 1 });
    const [company] = await erp.read('res.company', [1], ['vat']);
    await erp.write('res.company', [1], { vat: 'ESA87654321' });
    try {
      const { fields } = await read(dataUrl(signedFacturae, 'application/xml'), { companyId: 1 });
      expect(fields).toMatchObject({ providerId: supplier, provider: 'Peñalara Suministros (ficha antigua)', providerMatch: 'vat', providerRead: 'Suministros Peñalara SL' });
      expect(fields.einvoice.checks.buyer).toBe('ours');
      await erp.write('res.company', [1], { vat: 'ESB99999999' });
      expect((await read(dataUrl(signedFacturae, 'application/xml'), { companyId: 1 })).fields.einvoice.checks.buyer).toBe('other');
    } finally {
      await erp.write('res.company', [1], { vat: company.vat || false });
    }
  });

  it('reads a UBL 2.1 invoice and the CII a Factur-X PDF carries (no OCR), saying which', async () => {
    const ubl = await read(dataUrl(fixture('einvoice/en16931/ubl-tc434-example1.xml'), 'application/xml'));
    expect(ubl.status).toBe(200);
    expect(ubl.fields.einvoice).toMatchObject({ format: 'ubl', version: '2.1', checks: { schema: { valid: true } } });
    expect(ubl.fields.einvoice.checks.signature).toBeUndefined();
    const pdf = await pdfCarrying([{ name: 'factur-x.xml', data: fixture('einvoice/own/cii-credit-note.xml') }]);
    const facturX = await read(dataUrl(pdf, 'application/pdf'));
    expect(facturX.status).toBe(200);
    expect(facturX.fields).toMatchObject({ importe: '145.20', date: '2026-11-20', vat: 'ESA12345674' });
    expect(facturX.fields.einvoice).toMatchObject({ label: 'Factur-X EN 16931', kind: 'creditNote', attachment: 'factur-x.xml' });
  });

  it('reads a FacturaE declared ISO-8859-1 with its accents, and its signature made over them verifies', async () => {
    const signer = await makeSigner('Firma Latina', 'Suministros Peñalara SL');
    const latinText = fixture('einvoice-checks/facturae-3.2.2.xml').toString('utf8').replace('encoding="UTF-8"', 'encoding="ISO-8859-1"');
    const signed = await sign(latinText, signer);
    const { fields } = await read(dataUrl(Buffer.from(signed, 'latin1'), 'application/xml'));
    expect(fields.provider).toBe('Suministros Peñalara SL');
    expect(fields.einvoice.checks.signature).toMatchObject({ status: 'valid', signer: 'Firma Latina, Suministros Peñalara SL' });
  });

  it('refuses hostile or foreign XML with a 4xx naming why, in the user language', async () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><Invoice>&lol2;</Invoice>`;
    const hostile = await read(dataUrl(laughs, 'application/xml'));
    expect(hostile.status).toBeGreaterThanOrEqual(400);
    expect(hostile.status).toBeLessThan(500);
    expect(hostile.body.message).toMatch(/DOCTYPE|declaración/i);
    const foreign = await read(dataUrl('<?xml version="1.0"?><note><to>Ana</to></note>', 'application/xml'), { language: 'en' });
    expect(foreign.status).toBe(422);
    expect(foreign.body.message).toBe('This XML is not an e-invoice we can read (FacturaE 3.2.x, UBL 2.1, CII).');
  });
});

describe('a bill registered with its e-invoice XML', () => {
  it('stores a readable PDF of it carrying the XML byte for byte, read back the same; XML that is no e-invoice is refused and nothing is created', async () => {
    const create = (file: { name: string; data: string }) =>
      server.app.inject({
        method: 'POST',
        url: '/odoo/moves/create',
        headers: { authorization: token, 'accept-language': 'en' },
        payload: { type: 'invoice', company_id: 1, date: '2026-11-02', amount: 1210, concept: 'Material de oficina', paymentStatus: 'unpaid', file },
      });
    const created = await create({ name: 'FA-2026-001.xsig', data: dataUrl(signedFacturae, 'application/xml') });
    expect(created.statusCode).toBe(201);
    const [attachment] = await server.app.services.erp.client.read('ir.attachment', created.json().attachment_ids, ['name', 'mimetype', 'datas']);
    expect(attachment).toMatchObject({ name: 'FA-2026-001.pdf', mimetype: 'application/pdf' });
    const pdf = Buffer.from(String(attachment.datas), 'base64');
    // The XML inside, under its own name, unchanged: its signature still verifies; read back, the same invoice.
    const [inside] = await pdfXmlAttachments(pdf);
    expect(inside.name).toBe('FA-2026-001.xsig');
    expect(inside.content.toString('utf8')).toBe(signedFacturae);
    expect(await readEInvoice(pdf)).toEqual(readEInvoiceXml(Buffer.from(signedFacturae)));
    // What a person reads: the rendering's text in the uploader's language (English here).
    const { extractText, getDocumentProxy } = await import('unpdf');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
    expect(text).toContain('Invoice F20260042');
    expect(text).toContain('Suministros Peñalara SL');
    expect(text).toContain('€1,210.00');
    // Registered again, the same XML is the same file: its rendering does not depend on the clock.
    const again = await create({ name: 'FA-2026-001.xsig', data: dataUrl(signedFacturae, 'application/xml') });
    const [second] = await server.app.services.erp.client.read('ir.attachment', again.json().attachment_ids, ['datas']);
    expect(second.datas).toBe(attachment.datas);
    const before = await server.app.services.erp.client.searchCount('account.move', []);
    const refused = await create({ name: 'note.xml', data: dataUrl('<?xml version="1.0"?><note/>', 'application/xml') });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ field: 'file' });
    expect(await server.app.services.erp.client.searchCount('account.move', [])).toBe(before);
  });
});

describe('a bill registered from an e-invoice with its lines, or as a refund', () => {
  const create = (body: Record<string, unknown>) =>
    server.app.inject({
      method: 'POST',
      url: '/odoo/moves/create',
      headers: { authorization: token, 'accept-language': 'es' },
      payload: { type: 'invoice', company_id: 1, date: '2026-11-02', amount: 1210, concept: 'F20260042', paymentStatus: 'unpaid', file: { name: 'F2026-0042.xsig', data: dataUrl(signedFacturae, 'application/xml') }, ...body },
    });
  const lines = [
    { description: 'Papel A4 80 g, caja de 5 paquetes', quantity: 20, unitPrice: 25, net: 500, taxRate: 21 },
    { description: 'Tóner negro para impresora láser', quantity: 4, unitPrice: 125, net: 500, taxRate: 21 },
  ];

  it("books each line with the company's purchase VAT of its rate, making the invoice's total", async () => {
    const created = await create({ lines });
    expect(created.statusCode).toBe(201);
    const erp = server.app.services.erp.client;
    const [move] = await erp.read('account.move', [created.json().id], ['move_type', 'amount_untaxed', 'amount_tax', 'amount_total', 'invoice_line_ids']);
    expect(move).toMatchObject({ move_type: 'in_invoice', amount_untaxed: 1000, amount_tax: 210, amount_total: 1210 });
    const booked = await erp.read('account.move.line', move.invoice_line_ids as number[], ['name', 'quantity', 'price_unit', 'tax_ids']);
    const [purchase21] = await erp.searchRead('account.tax', [['company_id', '=', 1], ['type_tax_use', '=', 'purchase'], ['amount', '=', 21]], { fields: ['id'] });
    expect(booked.map((line) => [line.name, line.quantity, line.price_unit, line.tax_ids])).toEqual([
      ['Papel A4 80 g, caja de 5 paquetes', 20, 25, [purchase21.id]],
      ['Tóner negro para impresora láser', 4, 125, [purchase21.id]],
    ]);
  });

  it('books a credit note as a refund', async () => {
    const created = await create({ refund: true, concept: 'Abono AB-2026-0009' });
    expect(created.statusCode).toBe(201);
    const [move] = await server.app.services.erp.client.read('account.move', [created.json().id], ['move_type', 'amount_total']);
    expect(move).toMatchObject({ move_type: 'in_refund', amount_total: 1210 });
  });

  it('refuses lines that do not make the amount, a rate the company has no VAT for, and lines on an expense, creating nothing', async () => {
    const before = await server.app.services.erp.client.searchCount('account.move', []);
    const short = await create({ lines: lines.slice(0, 1) });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ field: 'lines', message: 'Las líneas con su IVA suman 605,00, pero el importe es 1.210,00: deben dar el mismo total' });
    const rate = await create({ lines: lines.map((line) => ({ ...line, taxRate: 7 })), amount: 1070 });
    expect(rate.statusCode).toBe(400);
    expect(rate.json()).toMatchObject({ field: 'lines', message: expect.stringMatching(/no tiene un IVA soportado del 7 %/) });
    const expense = await create({ type: 'expense', paymentMethod: 'corporate_card', lines });
    expect(expense.statusCode).toBe(400);
    expect(expense.json()).toMatchObject({ field: 'lines' });
    expect(await server.app.services.erp.client.searchCount('account.move', [])).toBe(before);
  });
});

describe("a supplier created from an e-invoice's issuer (issue 55, item 3)", () => {
  it('gets its name, tax id and address, the country by its ISO code; a country the ERP does not list is left out', async () => {
    const erp = server.app.services.erp.client;
    const spain = await erp.create('res.country', { name: 'España', code: 'ES' });
    const create = (name: string, vat: string, country: string) =>
      server.app.inject({
        method: 'POST',
        url: '/odoo/providers/create',
        headers: { authorization: token },
        payload: { companyId: 1, name, vat, address: { street: 'Calle Mayor 12, bajo', city: 'Zaragoza', postalCode: '50001', country } },
      });
    const created = await create('Suministros Gil & Hijos S.L.', 'B12345678', 'ES');
    expect(created.statusCode).toBe(201);
    const [partner] = await erp.read('res.partner', [created.json().id], ['name', 'vat', 'street', 'city', 'zip', 'country_id']);
    expect(partner).toMatchObject({ name: 'Suministros Gil & Hijos S.L.', vat: 'B12345678', street: 'Calle Mayor 12, bajo', city: 'Zaragoza', zip: '50001', country_id: [spain, 'España'] });
    const elsewhere = await create('Fournitures Dupont SARL', 'FR12345678901', 'FR');
    expect(elsewhere.statusCode).toBe(201);
    const [french] = await erp.read('res.partner', [elsewhere.json().id], ['city', 'country_id']);
    expect(french).toMatchObject({ city: 'Zaragoza', country_id: false });
    const bad = await server.app.inject({ method: 'POST', url: '/odoo/providers/create', headers: { authorization: token }, payload: { companyId: 1, name: 'Otro SL', address: { country: 'España' } } });
    expect(bad.statusCode).toBe(400);
  });
});

