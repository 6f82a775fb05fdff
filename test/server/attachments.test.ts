/**
 * Attachments of moves (issue 29, items 4 and 8): prepared off the server's thread with the readings' limits, PDFs
 * with active content or past the readings' page, pixel and memory limits refused, the stored file served inert.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import PDFDocument from 'pdfkit';
import { demoPdf, demoPng } from '../../server/erp/embedded/files';
import { Extractor } from '../../server/extract';
import { blankPng, pdfInflatingTo, pdfOfPages, pdfWithCatalog, pdfWithImage, pdfWithPackedCatalog } from '../support/bombs';
import { pdfCarrying } from '../support/pdf-files';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
let narrow: TestServer;
let narrowExtractor: Extractor;
let token: string;
let narrowToken: string;
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  server = await startTestServer({ seedErp: true });
  // One attachment process and no queue: a second file at once is refused busy.
  narrowExtractor = new Extractor({ workers: 1, attachmentQueue: 0 });
  narrow = await startTestServer({ seedErp: true, extractor: narrowExtractor });
  token = await server.tokenFor('staff@demo.example');
  narrowToken = await narrow.tokenFor('staff@demo.example');
}, 240_000);
afterAll(async () => {
  await server?.stop();
  await narrow?.stop();
  await narrowExtractor?.close();
});

const dataUrl = (buffer: Buffer, type: string) => `data:${type};base64,${buffer.toString('base64')}`;

function create(file: { name: string; data: string }, { target = server, who = token, language = 'en' } = {}) {
  return fetch(`${target.url}/odoo/moves/create`, {
    method: 'POST',
    headers: { authorization: who, 'content-type': 'application/json', 'accept-language': language },
    body: JSON.stringify({ type: 'expense', company_id: 1, date: today, amount: 12.5, concept: 'Attachment check', paymentMethod: 'corporate_card', file }),
  });
}

const moveCount = (target = server) => target.app.services.erp.client.searchCount('account.move', []);

function pdfkitText(lines: string[]): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', compress: true });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  for (const line of lines) doc.text(line);
  doc.end();
  return done;
}

describe('attachments off the server thread', () => {
  it('resizes four 7000 x 7000 photos in attachment processes while GET /users/me answers first', async () => {
    const png = dataUrl(await blankPng(7000, 7000), 'image/png');
    const pool = server.app.services.extractor.attachments;
    const order: string[] = [];
    const creations = Array.from({ length: 4 }, (_, index) =>
      create({ name: `scan-${index}.png`, data: png }).then(async (response) => {
        order.push(`create ${response.status}`);
        return response;
      }),
    );
    // Asked once the photos are in the attachment processes' hands (two at work, the others waiting).
    await expect.poll(() => pool.status().running, { timeout: 60_000, interval: 20 }).toBe(pool.workers);
    const status = pool.status();
    expect(status.readers.every((reader) => reader.pid > 0 && reader.pid !== process.pid)).toBe(true);
    expect(status.readers.some((reader) => reader.busy)).toBe(true);
    const me = await fetch(`${server.url}/users/me`, { headers: { authorization: token } });
    order.push(`me ${me.status}`);
    const answers = await Promise.all(creations);
    expect(order[0]).toBe('me 200');
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201]);
    const [created] = await Promise.all(answers.map((answer) => answer.json()));
    const [file] = await server.app.services.erp.client.read('ir.attachment', created.attachment_ids, ['datas', 'mimetype']);
    const stored = await sharp(Buffer.from(String(file.datas), 'base64')).metadata();
    expect([stored.width, stored.height]).toEqual([2200, 2200]);
  }, 240_000);

  it('answers 503 with Retry-After and a message in the user language when the attachment queue is full, storing nothing', async () => {
    const png = dataUrl(await blankPng(7000, 7000), 'image/png');
    const pool = narrowExtractor.attachments;
    const first = create({ name: 'big.png', data: png }, { target: narrow, who: narrowToken });
    await expect.poll(() => pool.status().running, { timeout: 60_000, interval: 20 }).toBe(1);
    const before = await moveCount(narrow);
    const refused = await create({ name: 'second.png', data: png }, { target: narrow, who: narrowToken, language: 'es' });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({ field: 'file', message: 'Se están preparando demasiados archivos en este momento: inténtelo de nuevo en unos segundos' });
    expect((await first).status).toBe(201);
    expect(await moveCount(narrow)).toBe(before + 1);
  }, 240_000);
});

describe('stored PDFs are inert and within the readings limits', () => {
  const refusals: Array<[string, () => Buffer | Promise<Buffer>, string, string]> = [
    [
      'JavaScript run on opening',
      () => pdfWithCatalog('/OpenAction << /S /JavaScript /JS (app.alert\\(1\\)) >>'),
      'File: the PDF holds active content (/JS, /JavaScript), which is not accepted: print it to a new PDF or scan it, and send that',
      'Archivo: el PDF contiene contenido activo (/JS, /JavaScript), que no se admite: imprímalo en un PDF nuevo o escanéelo, y envíe ese',
    ],
    [
      'JavaScript under escaped names',
      () => pdfWithCatalog('/OpenAction << /S /Java#53cript /J#53 (app.alert\\(1\\)) >>'),
      'File: the PDF holds active content (/JS, /JavaScript), which is not accepted: print it to a new PDF or scan it, and send that',
      'Archivo: el PDF contiene contenido activo (/JS, /JavaScript), que no se admite: imprímalo en un PDF nuevo o escanéelo, y envíe ese',
    ],
    [
      'JavaScript inside a compressed object stream',
      () => pdfWithPackedCatalog('/OpenAction << /S /JavaScript /JS (app.alert\\(1\\)) >>'),
      'File: the PDF holds active content (/JS, /JavaScript), which is not accepted: print it to a new PDF or scan it, and send that',
      'Archivo: el PDF contiene contenido activo (/JS, /JavaScript), que no se admite: imprímalo en un PDF nuevo o escanéelo, y envíe ese',
    ],
    [
      'a launch action after the first 4 KiB',
      () => pdfWithCatalog(`/Padding (${'x'.repeat(8000)}) /OpenAction << /S /Launch /F (calc.exe) >>`),
      'File: the PDF holds active content (/Launch), which is not accepted: print it to a new PDF or scan it, and send that',
      'Archivo: el PDF contiene contenido activo (/Launch), que no se admite: imprímalo en un PDF nuevo o escanéelo, y envíe ese',
    ],
    [
      'an embedded file',
      () => pdfWithCatalog('/Names << /EmbeddedFiles << /Names [(a.exe) << /Type /Filespec /F (a.exe) /EF << /F 9 0 R >> >>] >> >>'),
      'File: the PDF holds active content (/EmbeddedFiles), which is not accepted: print it to a new PDF or scan it, and send that',
      'Archivo: el PDF contiene contenido activo (/EmbeddedFiles), que no se admite: imprímalo en un PDF nuevo o escanéelo, y envíe ese',
    ],
    [
      'rich media',
      () => pdfWithCatalog('/Extra << /Subtype /RichMedia >>'),
      'File: the PDF holds active content (/RichMedia), which is not accepted: print it to a new PDF or scan it, and send that',
      'Archivo: el PDF contiene contenido activo (/RichMedia), que no se admite: imprímalo en un PDF nuevo o escanéelo, y envíe ese',
    ],
    [
      '10,000 pages',
      () => pdfOfPages(10_000),
      'The PDF has 10,000 pages: at most 50 can be read; send the invoice or receipt on its own',
      'El PDF tiene 10.000 páginas: se pueden leer como máximo 50; envíe la factura o el tique por separado',
    ],
    [
      'streams that inflate to 1 GiB',
      () => pdfInflatingTo(1024 ** 3),
      'The document needs more memory than allowed to read: send a smaller photo or a PDF with text',
      'Leer el documento necesita más memoria de la permitida: envíe una foto más pequeña o un PDF con texto',
    ],
    [
      'an image of 400 megapixels',
      async () => pdfWithImage(await blankPng(20_000, 20_000)),
      'The PDF holds an image of 20000 x 20000 pixels (400 megapixels): at most 50 megapixels can be read; send a smaller scan or a PDF with text',
      'El PDF contiene una imagen de 20000 x 20000 píxeles (400 megapíxeles): se pueden leer como máximo 50 megapíxeles; envíe un escaneo más pequeño o un PDF con texto',
    ],
  ];

  for (const [what, make, english, spanish] of refusals) {
    it(`refuses a PDF with ${what} (422, both languages) and stores nothing`, async () => {
      const pdf = dataUrl(await make(), 'application/pdf');
      const before = await moveCount();
      const inEnglish = await create({ name: 'doc.pdf', data: pdf });
      expect(inEnglish.status).toBe(422);
      expect(await inEnglish.json()).toMatchObject({ field: 'file', message: english });
      const inSpanish = await create({ name: 'doc.pdf', data: pdf }, { language: 'es' });
      expect(inSpanish.status).toBe(422);
      expect(await inSpanish.json()).toMatchObject({ field: 'file', message: spanish });
      expect(await moveCount()).toBe(before);
    }, 120_000);
  }

  it('stores ordinary PDFs (hand-made, compressed by pdfkit, a scan) byte for byte', async () => {
    const pdfs = [demoPdf(['Taxi', 'Total 23,40 EUR']), await pdfkitText(['Factura 2026/001', 'Total 121,00 EUR']), await pdfWithImage(await blankPng(2000, 2000)), pdfOfPages(50)];
    for (const pdf of pdfs) {
      const response = await create({ name: 'factura.pdf', data: dataUrl(pdf, 'application/pdf') });
      expect(response.status).toBe(201);
      const created = await response.json();
      const [file] = await server.app.services.erp.client.read('ir.attachment', created.attachment_ids, ['datas']);
      expect(Buffer.from(String(file.datas), 'base64').equals(pdf)).toBe(true);
    }
  }, 120_000);

    it('stores a Factur-X PDF (an invoice XML embedded) byte for byte (issue 55), and refuses other embedded files', async () => {
    const cii = readFileSync('test/fixtures/einvoice/own/cii-credit-note.xml');
    const facturX = await pdfCarrying([{ name: 'factur-x.xml', data: cii }]);
    const stored = await create({ name: 'factura.pdf', data: dataUrl(facturX, 'application/pdf') });
    expect(stored.status).toBe(201);
    const [file] = await server.app.services.erp.client.read('ir.attachment', (await stored.json()).attachment_ids, ['datas']);
    expect(Buffer.from(String(file.datas), 'base64').equals(facturX)).toBe(true);
    const before = await moveCount();
    for (const files of [
      [{ name: 'tool.exe', data: Buffer.from('MZ\x90\x00') }],
      [{ name: 'factur-x.xml', data: cii }, { name: 'tool.exe', data: Buffer.from('MZ\x90\x00') }],
      [{ name: 'factur-x.xml', data: Buffer.from('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>') }],
      [{ name: 'factur-x.xml', data: Buffer.from('%PDF-1.7 not xml') }],
      // XML, but no e-invoice: an XHTML page with a script.
      [{ name: 'factur-x.xml', data: Buffer.from('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>') }],
    ]) {
      const refused = await create({ name: 'factura.pdf', data: dataUrl(await pdfCarrying(files), 'application/pdf') });
      expect(refused.status).toBe(422);
      expect((await refused.json()).message).toBe('File: the PDF holds active content (/EmbeddedFiles), which is not accepted: print it to a new PDF or scan it, and send that');
    }
    // A real factur-x.xml, and beside it a file attachment annotation carrying an executable: refused.
    const annotated = await new Promise<Buffer>((resolve) => {
      const doc = new PDFDocument({ size: 'A4' });
      const chunks: Buffer[] = [];
      doc.on('data', (chunk: Buffer) => chunks.push(chunk));
      doc.on('end', () => resolve(Buffer.concat(chunks)));
      doc.text('Factura AB-2026-0009');
      doc.file(cii, { name: 'factur-x.xml', type: 'text/xml' });
      (doc as unknown as { fileAnnotation: (x: number, y: number, w: number, h: number, file: object) => void }).fileAnnotation(50, 100, 20, 20, { src: Buffer.from('MZ\x90\x00'), name: 'tool.exe' });
      doc.end();
    });
    const sneaked = await create({ name: 'factura.pdf', data: dataUrl(annotated, 'application/pdf') });
    expect(sneaked.status).toBe(422);
    expect((await sneaked.json()).message).toMatch(/^File: the PDF holds active content \(\/EmbeddedFile/);
    expect(await moveCount()).toBe(before);
  }, 120_000);

  const sroie = '/work/shared/data/sroie/train-images';
  it.skipIf(!existsSync(sroie))('stores the SROIE receipt photos and the business cards as images', async () => {
    const receipts = readdirSync(sroie).filter((name) => name.endsWith('.jpg')).sort().slice(0, 3).map((name) => readFileSync(join(sroie, name)));
    const cards = readFileSync('/work/shared/data/business-cards/cards.jsonl', 'utf8').trim().split('\n').slice(0, 2).map((line) => (JSON.parse(line) as { text: string }).text);
    const cardImages = await Promise.all(
      cards.map((text) => sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1050" height="600"><rect width="100%" height="100%" fill="#fff"/><text x="60" y="80" font-size="30">${text.split('\n')[0].replace(/[<&>]/g, '')}</text></svg>`)).png().toBuffer()),
    );
    for (const [image, type] of [...receipts.map((one) => [one, 'image/jpeg'] as const), ...cardImages.map((one) => [one, 'image/png'] as const)]) {
      const response = await create({ name: type === 'image/png' ? 'card.png' : 'receipt.jpg', data: dataUrl(image, type) });
      expect(response.status).toBe(201);
    }
  }, 120_000);
});

describe('the stored file as served', () => {
  it('comes with Content-Disposition, a sandboxing Content-Security-Policy and nosniff', async () => {
    const created = await (await create({ name: 'taxi.pdf', data: dataUrl(demoPdf(['Taxi']), 'application/pdf') })).json();
    const response = await fetch(`${server.url}/odoo/moves/attachments?attachmentIds=${created.attachment_ids[0]}`, { headers: { authorization: token } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="attachments.json"');
    expect(response.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none'/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const [file] = await response.json();
    expect(file).toMatchObject({ name: 'taxi.pdf', mimetype: 'application/pdf', shown: true });
    expect(file.notice).toBeUndefined();
  }, 60_000);

  it('is stored without bidirectional controls in its name (issue 54): invoice\\u202Egnp.png is invoicegnp.png', async () => {
    const created = await (await create({ name: 'invoice\u202Egnp.png', data: dataUrl(demoPng(), 'image/png') })).json();
    const response = await fetch(`${server.url}/odoo/moves/attachments?attachmentIds=${created.attachment_ids[0]}`, { headers: { authorization: token } });
    const [file] = await response.json();
    expect(file.name).toBe('invoicegnp.png');
  }, 60_000);

  // Files stored before uploads were checked, or written into Odoo by other means: checked again when served.
  async function storedAs(bytes: Buffer): Promise<number> {
    const created = await (await create({ name: 'old.pdf', data: dataUrl(demoPdf(['Old']), 'application/pdf') })).json();
    const [id] = created.attachment_ids as number[];
    await server.app.services.erp.client.write('ir.attachment', [id], { datas: bytes.toString('base64') });
    return id;
  }
  const served = async (ids: number[], language: string) => {
    const response = await fetch(`${server.url}/odoo/moves/attachments?attachmentIds=${ids.join(',')}`, { headers: { authorization: token, 'accept-language': language } });
    expect(response.status).toBe(200);
    return (await response.json()) as Array<{ id: number; shown: boolean; notice?: string; datas: string }>;
  };

  it('withholds from inline view a stored PDF with a script or past the limits, with a notice in the user language, and keeps its bytes', async () => {
    const script = pdfWithPackedCatalog('/OpenAction << /S /JavaScript /JS (app.alert\\(1\\)) >>');
    const withScript = await storedAs(script);
    const bomb = await storedAs(pdfInflatingTo(1024 ** 3));
    const plain = await storedAs(await pdfkitText(['Factura 1', 'Total 12,50']));
    const spanish = await served([plain, withScript, bomb], 'es');
    expect(spanish.map((file) => [file.id, file.shown])).toEqual([
      [plain, true],
      [withScript, false],
      [bomb, false],
    ]);
    expect(spanish[1].notice).toBe('Este PDF no se muestra aquí: contiene contenido activo (/JS, /JavaScript). Descárguelo solo si confía en quien lo envió');
    expect(spanish[2].notice).toBe('Este PDF no se muestra aquí: supera las páginas o la memoria que puede ocupar un documento. Puede descargarlo');
    // The person may still download what was sent, byte for byte.
    expect(Buffer.from(spanish[1].datas, 'base64').equals(script)).toBe(true);
    const english = await served([withScript], 'en');
    expect(english[0]).toMatchObject({ shown: false, notice: 'This PDF is not shown here: it holds active content (/JS, /JavaScript). Download it only if you trust whoever sent it' });
  }, 240_000);
});
