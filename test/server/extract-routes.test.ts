import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import { Extractor } from '../../server/extract';
import { freePort, startTestServer, type TestServer } from './helpers';
import { receiptPhoto } from '../support/receipt';

let server: TestServer;
let withModel: TestServer;
let model: Server;
let modelAnswer: { status: number; content: string } = { status: 200, content: '{}' };
const modelRequests: unknown[] = [];
// One OCR pool for every server of this file: the models load once.
const extractor = new Extractor({ timeoutMs: 60_000 });
const tokens: Record<string, string> = {};

function spanishInvoicePdf({ name = 'Suministros Levante S.L.', cif = 'CIF: B46123456' } = {}): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 50 });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.fontSize(16).text(name, 50, 50);
  doc.fontSize(10).text(cif, 50, 75).text('Avda. del Puerto 8, 46021 Valencia', 50, 90);
  doc.fontSize(14).text('FACTURA 2026-0381', 50, 130);
  doc.fontSize(10).text('Fecha: 14/10/2026', 50, 155);
  doc.text('Concepto', 50, 200).text('Importe', 450, 200);
  doc.text('Mantenimiento de climatización', 50, 220).text('1.500,00', 450, 220);
  doc.text('Base imponible', 300, 260).text('1.500,00', 450, 260);
  doc.text('IVA 21%', 300, 275).text('315,00', 450, 275);
  doc.fontSize(12).text('Total factura', 300, 300).text('1.815,00 €', 450, 300);
  doc.end();
  return done;
}


beforeAll(async () => {
  const port = await freePort();
  model = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      modelRequests.push({ url: request.url, authorization: request.headers.authorization, body: JSON.parse(body) });
      response.writeHead(modelAnswer.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ choices: [{ message: { content: modelAnswer.content } }] }));
    });
  });
  await new Promise<void>((resolve) => model.listen(port, '127.0.0.1', resolve));
  // Seeded: the company's suppliers are looked for on a document read for it (issue 52).
  server = await startTestServer({ seedErp: true, extractor });
  withModel = await startTestServer({ seedErp: false, extractor: undefined, env: { EXTRACT_LLM_URL: `http://127.0.0.1:${port}/v1`, EXTRACT_LLM_MODEL: 'test-model', EXTRACT_LLM_API_KEY: 'k-123' } });
  for (const who of ['staff', 'sales', 'manager']) tokens[who] = await server.tokenFor(`${who}@demo.example`);
  tokens.modelStaff = await withModel.tokenFor('staff@demo.example');
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await withModel?.stop();
  await extractor.close();
  await new Promise<void>((resolve) => model?.close(() => resolve()));
});

async function post(path: string, who: string, body: unknown, target = server) {
  const response = await fetch(`${target.url}${path}`, {
    method: 'POST',
    headers: { authorization: tokens[who], 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { result?: string; message?: string };
  return { status: response.status, message: json.message, fields: json.result ? (JSON.parse(json.result) as Record<string, unknown>) : undefined };
}

const dataUrl = (buffer: Buffer, type: string) => `data:${type};base64,${buffer.toString('base64')}`;

describe('POST /ocr/move/', () => {
  it('reads a born-digital Spanish invoice from its text layer', async () => {
    const answer = await post('/ocr/move/', 'staff', { file: dataUrl(await spanishInvoicePdf(), 'application/pdf') });
    expect(answer.status).toBe(200);
    expect(answer.fields).toEqual({ importe: '1815.00', date: '2026-10-14', provider: 'Suministros Levante S.L.', concept: 'Mantenimiento de climatización', vat: 'B46123456', lines: { importe: 'Total factura 1.815,00 €', date: 'Fecha: 14/10/2026' } });
  });

  it('reads a photographed Spanish receipt through OCR', async () => {
    const answer = await post('/ocr/move/', 'staff', { file: (await receiptPhoto()).toString('base64') });
    expect(answer.status).toBe(200);
    expect(answer.fields).toMatchObject({ importe: '5.70', date: '2026-11-21', provider: 'CAFETERIA LA PLAZA S.L.' });
  }, 60_000);

  it('reads a scanned PDF (a page that is only a picture) through OCR of its page image', async () => {
    const scan = await new Promise<Buffer>((resolve) => {
      void receiptPhoto().then((photo) => {
        const doc = new PDFDocument({ size: 'A4', margin: 0 });
        const chunks: Buffer[] = [];
        doc.on('data', (chunk: Buffer) => chunks.push(chunk));
        doc.on('end', () => resolve(Buffer.concat(chunks)));
        doc.image(photo, 40, 40, { width: 500 });
        doc.end();
      });
    });
    const answer = await post('/ocr/move/', 'staff', { file: dataUrl(scan, 'application/pdf') });
    expect(answer.status).toBe(200);
    expect(answer.fields).toMatchObject({ importe: '5.70', date: '2026-11-21', provider: 'CAFETERIA LA PLAZA S.L.' });
  }, 60_000);

  it('downscales a huge photo (6000 px wide) and still reads it', async () => {
    const huge = await sharp(await receiptPhoto()).resize({ width: 6000 }).jpeg({ quality: 80 }).toBuffer();
    expect((await sharp(huge).metadata()).width).toBe(6000);
    const answer = await post('/ocr/move/', 'staff', { file: huge.toString('base64') });
    expect(answer.status).toBe(200);
    expect(answer.fields).toMatchObject({ importe: '5.70', date: '2026-11-21' });
  }, 60_000);

  it('keeps answering other requests while a photo is read (the OCR runs in workers)', async () => {
    const order: string[] = [];
    const reading = post('/ocr/move/', 'staff', { file: (await sharp(await receiptPhoto()).resize({ width: 3000 }).jpeg().toBuffer()).toString('base64') }).then((answer) => {
      order.push('ocr');
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const me = await fetch(`${server.url}/users/me`, { headers: { authorization: tokens.staff } });
    order.push('me');
    expect(me.status).toBe(200);
    expect((await reading).status).toBe(200);
    expect(order).toEqual(['me', 'ocr']);
  }, 60_000);

  it('abandons a document that takes longer than the limit with a clear 504', async () => {
    // The limit on the reader's work alone. The safety cap for a reader that makes no progress (4 x the limit: 20 ms
    // here) caught a reader not yet given a core on a busy machine, and answered its own 504, "did not finish"
    // (extract.stalled, which test/server/extract-isolation.test.ts tests).
    const hurried = new Extractor({ timeoutMs: 5, wallCapMs: 60_000 });
    const quick = await startTestServer({ seedErp: false, extractor: hurried });
    try {
      const response = await fetch(`${quick.url}/ocr/move/`, {
        method: 'POST',
        headers: { authorization: await quick.tokenFor('staff@demo.example'), 'content-type': 'application/json' },
        body: JSON.stringify({ file: (await receiptPhoto()).toString('base64') }),
      });
      expect(response.status).toBe(504);
      expect(((await response.json()) as { message: string }).message).toMatch(/took longer than .* s to read: try a sharper or smaller photo/);
    } finally {
      await quick.stop();
      await hurried.close();
    }
  }, 60_000);

  it('answers a clear 4xx for an empty, corrupt, foreign, HEIC, scanned or huge file', async () => {
    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#fff' } }).png().toBuffer();
    const corrupt = Buffer.concat([png.subarray(0, 40), Buffer.alloc(200, 7)]);
    const zip = Buffer.from('PK\u0003\u0004 this is a zip archive, not a document');
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(64)]);
    const blankPdf = await new Promise<Buffer>((resolve) => {
      const doc = new PDFDocument();
      const chunks: Buffer[] = [];
      doc.on('data', (chunk: Buffer) => chunks.push(chunk));
      doc.on('end', () => resolve(Buffer.concat(chunks)));
      doc.rect(50, 50, 200, 100).fill('#333');
      doc.end();
    });
    const cases: Array<[unknown, number, RegExp]> = [
      [{ file: '' }, 400, /empty/],
      [{}, 400, /base64/],
      [{ file: 'this is not base64!' }, 400, /base64/],
      [{ file: corrupt.toString('base64') }, 422, /damaged or not a photo/],
      [{ file: zip.toString('base64') }, 415, /PDF, JPEG or PNG/],
      [{ file: heic.toString('base64') }, 415, /HEIC/],
      [{ file: dataUrl(blankPdf, 'application/pdf') }, 422, /neither text nor a scanned page/],
      [{ file: dataUrl(Buffer.from('%PDF-1.4 broken'), 'application/pdf') }, 422, /PDF could not be read/],
      [{ file: 'A'.repeat(28 * 1024 * 1024) }, 413, /^\[Error\] File too large$/],
    ];
    for (const [body, status, message] of cases) {
      const answer = await post('/ocr/move/', 'staff', body);
      expect(answer.status, JSON.stringify(body).slice(0, 60)).toBe(status);
      expect(answer.message).toMatch(message);
    }
  }, 60_000);

  it('needs moves.create', async () => {
    expect((await post('/ocr/move/', 'sales', { file: dataUrl(await spanishInvoicePdf(), 'application/pdf') })).status).toBe(403);
  });
});

describe("POST /ocr/move/ for a company: its own suppliers first (issue 52)", () => {
  const me = async () => (await (await fetch(`${server.url}/users/me`, { headers: { authorization: tokens.staff } })).json()) as { companies: number[] };
  async function supplier(companyId: number, name: string, vat?: string): Promise<number> {
    const response = await fetch(`${server.url}/odoo/providers/create`, { method: 'POST', headers: { authorization: tokens.staff, 'content-type': 'application/json' }, body: JSON.stringify({ companyId, name, ...(vat ? { vat } : {}) }) });
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { id: number }).id;
  }

  it("answers the stored supplier found by the tax id printed, or by a name like its own; else the name as read", async () => {
    const [company] = (await me()).companies;
    const levante = await supplier(company, 'Suministros Levante, S.L.', 'ESB46123456');
    const plaza = await supplier(company, 'Talleres Ribera Hermanos S.L.');
    // The tax id printed finds the stored supplier, whatever name the document trades under.
    const byVat = await post('/ocr/move/', 'staff', { file: dataUrl(await spanishInvoicePdf({ name: 'Levante Suministros Integrales' }), 'application/pdf'), companyId: company });
    expect(byVat.fields).toMatchObject({ provider: 'Suministros Levante, S.L.', providerId: levante, providerMatch: 'vat', vat: 'ESB46123456', importe: '1815.00' });
    // A name a letter off (OCR's slip) and no tax id: the stored one, its id and stored name.
    const byName = await post('/ocr/move/', 'staff', { file: dataUrl(await spanishInvoicePdf({ name: 'TALLERES RIBFRA HERMANOS SL', cif: 'Valencia' }), 'application/pdf'), companyId: String(company) });
    expect(byName.fields).toMatchObject({ provider: 'Talleres Ribera Hermanos S.L.', providerId: plaza, providerMatch: 'name', providerRead: 'TALLERES RIBFRA HERMANOS SL' });
    // None like it: the name as read, no id.
    const unknown = await post('/ocr/move/', 'staff', { file: dataUrl(await spanishInvoicePdf({ name: 'Ferreteria Ruzafa S.L.', cif: 'Valencia' }), 'application/pdf'), companyId: company });
    expect(unknown.fields).toMatchObject({ provider: 'Ferreteria Ruzafa S.L.' });
    expect(unknown.fields).not.toHaveProperty('providerId');
    // Without a company, as before: the name as printed.
    expect((await post('/ocr/move/', 'staff', { file: dataUrl(await spanishInvoicePdf({ name: 'Levante Suministros Integrales' }), 'application/pdf') })).fields).toMatchObject({ provider: 'Levante Suministros Integrales', vat: 'B46123456' });
  }, 60_000);

  it("refuses a company that is not the user's, or no id, before reading anything", async () => {
    const file = dataUrl(await spanishInvoicePdf(), 'application/pdf');
    const started = extractor.pool.status().readers.length;
    const foreign = await post('/ocr/move/', 'staff', { file, companyId: 999999 });
    expect(foreign.status).toBe(403);
    const bad = await post('/ocr/move/', 'staff', { file, companyId: 'abc' });
    expect(bad.status).toBe(400);
    expect(bad.message).toMatch(/companyId/);
    expect(extractor.pool.status().readers.length).toBe(started);
  });

  it('reads the name as printed when the suppliers cannot be had (the ERP not answering)', async () => {
    const fields = await extractor.readMove(dataUrl(await spanishInvoicePdf({ name: 'Levante Suministros Integrales' }), 'application/pdf'), undefined, undefined, Promise.reject(new Error('ERP down')));
    expect(fields).toMatchObject({ provider: 'Levante Suministros Integrales', vat: 'B46123456', importe: '1815.00' });
    expect(fields).not.toHaveProperty('providerId');
  });
});

describe('POST /ocr/contact/', () => {
  it('reads a business card image and leaves out what is not on it', async () => {
    const lines = ['Grupo Norte Digital', 'Lucia Ferrer', 'Directora Comercial', 'Tel: +34 600 111 222', 'lucia.ferrer@gruponorte.es'];
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1050" height="600"><rect width="100%" height="100%" fill="#fff"/>${lines
      .map((line, at) => `<text x="60" y="${100 + at * 70}" font-family="DejaVu Sans, sans-serif" font-size="40" fill="#111">${line}</text>`)
      .join('')}</svg>`;
    const answer = await post('/ocr/contact/', 'sales', { file: (await sharp(Buffer.from(svg)).png().toBuffer()).toString('base64'), method: 'card' });
    expect(answer.status).toBe(200);
    expect(answer.fields).toEqual({ name: 'Lucia Ferrer', position: 'Directora Comercial', phone: '+34 600 111 222', email: 'lucia.ferrer@gruponorte.es' });
  }, 60_000);

  it('needs contacts.create', async () => {
    expect((await post('/ocr/contact/', 'staff', { file: 'aGVsbG8=' })).status).toBe(403);
  });
});

describe('the optional language model', () => {
  it('is asked with the recognised text; its valid fields win, the offline ones fill the rest', async () => {
    modelAnswer = { status: 200, content: 'Here you are: {"importe": "1.815,00", "date": "2026-10-14", "provider": "Suministros Levante, S.L.", "concept": null}' };
    const answer = await post('/ocr/move/', 'modelStaff', { file: dataUrl(await spanishInvoicePdf(), 'application/pdf') }, withModel);
    expect(answer.fields).toEqual({ importe: '1815.00', date: '2026-10-14', provider: 'Suministros Levante, S.L.', concept: 'Mantenimiento de climatización', vat: 'B46123456', lines: { importe: 'Total factura 1.815,00 €', date: 'Fecha: 14/10/2026' } });
    const request = modelRequests[modelRequests.length - 1] as { url: string; authorization: string; body: { model: string; messages: Array<{ content: string }> } };
    expect(request.url).toBe('/v1/chat/completions');
    expect(request.authorization).toBe('Bearer k-123');
    expect(request.body.model).toBe('test-model');
    expect(request.body.messages[1].content).toContain('Total factura');
  });

  it('falls back to the offline result when the model fails or answers nonsense', async () => {
    for (const failure of [{ status: 500, content: 'boom' }, { status: 200, content: '{"date": "14 de octubre"}' }, { status: 200, content: 'no json here' }]) {
      modelAnswer = failure;
      const answer = await post('/ocr/move/', 'modelStaff', { file: dataUrl(await spanishInvoicePdf(), 'application/pdf') }, withModel);
      expect(answer.fields, failure.content).toEqual({ importe: '1815.00', date: '2026-10-14', provider: 'Suministros Levante S.L.', concept: 'Mantenimiento de climatización', vat: 'B46123456', lines: { importe: 'Total factura 1.815,00 €', date: 'Fecha: 14/10/2026' } });
    }
  });
});
