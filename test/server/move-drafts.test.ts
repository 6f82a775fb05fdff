/**
 * Issue 33, item 1: receipts dropped many at once. Each file becomes a draft of its uploader's on the server, read in
 * the background by the readers; the user sees only their own drafts, at most 50; a bad file is refused naming the
 * field in the user's language; busy readers mean later, not failed; a restart reads what was left half-read.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demoPdf } from '../../server/erp/embedded/files';
import { pdfXmlAttachments } from '../../server/einvoice/pdf';
import { Extractor, ExtractionError, type MoveResult } from '../../server/extract';
import { MOVE_DRAFTS_PER_USER } from '../../shared/domain/move-drafts';
import { memoryDatabase, startTestServer, type TestServer } from './helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seedErp: true, draftReader: { pollMs: 200 } });
}, 120_000);
afterAll(() => server?.stop());
// Each test starts with no drafts, whatever the one before left.
beforeEach(async () => {
  await server.app.services.draftReader.idle();
  await server.app.services.db.query('DELETE FROM move_drafts');
});

/** Readings in the background on a machine the whole suite keeps busy: minutes, not the default 30 s. */
const READING = { timeout: 180_000 };

type Answer = { status: number; body: Record<string, unknown> & Array<Record<string, unknown>> };

async function as(target: TestServer, email: string) {
  const token = await target.tokenFor(email);
  return async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, language = 'es'): Promise<Answer> => {
    const response = await target.app.inject({ method, url, payload: payload as object, headers: { authorization: token, 'accept-language': language } });
    return { status: response.statusCode, body: (response.body ? response.json() : {}) as Answer['body'] };
  };
}

const receipt = (name: string, total: string) => ({ name, data: `data:application/pdf;base64,${demoPdf(['PARKING CENTRO', `Ticket ${name}`, `TOTAL ${total} EUR`]).toString('base64')}` });

/** Polls the user's list until `done` holds (the reading is in the background), at most two minutes. */
async function until(call: Awaited<ReturnType<typeof as>>, done: (drafts: Array<Record<string, unknown>>) => boolean) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { body } = await call('GET', '/me/move-drafts');
    if (done(body)) return body;
    if (Date.now() > deadline) throw new Error(`not yet: ${JSON.stringify(body.map((one) => [one.id, one.status]))}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('move drafts', () => {
  it('keeps each file as a draft, reads it in the background, serves its file and deletes it', READING, async () => {
    const staff = await as(server, 'staff@demo.example');
    const first = await staff('POST', '/me/move-drafts', { moveType: 'expense', file: receipt('parking-1.pdf', '7,35') });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ moveType: 'expense', fileName: 'parking-1.pdf', mimetype: 'application/pdf', fields: null, error: null });
    const second = await staff('POST', '/me/move-drafts', { moveType: 'invoice', file: receipt('parking-2', '12,50') });
    expect(second.status).toBe(201);
    expect(second.body.fileName).toBe('parking-2.pdf');

    const read = await until(staff, (drafts) => drafts.length === 2 && drafts.every((one) => one.status === 'read'));
    expect(read.map((one) => [one.id, (one.fields as MoveResult).importe])).toEqual([
      [first.body.id, '7.35'],
      [second.body.id, '12.50'],
    ]);
    expect(read[0]).not.toHaveProperty('data');

    const file = await staff('GET', `/me/move-drafts/${first.body.id}/file`);
    expect(file.status).toBe(200);
    expect(String(file.body.data)).toMatch(/^data:application\/pdf;base64,JVBERi0/);

    expect((await staff('DELETE', `/me/move-drafts/${first.body.id}`)).status).toBe(204);
    expect((await staff('DELETE', `/me/move-drafts/${second.body.id}`)).status).toBe(204);
    expect((await staff('GET', '/me/move-drafts')).body).toEqual([]);
    expect((await staff('GET', `/me/move-drafts/${first.body.id}/file`)).status).toBe(404);
  });

  it('reads an e-invoice dropped among them from its XML (issue 55), kept as a readable PDF carrying the XML', READING, async () => {
    const staff = await as(server, 'staff@demo.example');
    const xml = readFileSync('test/fixtures/einvoice-checks/facturae-3.2.2.xml');
    const sent = await staff('POST', '/me/move-drafts', { moveType: 'invoice', file: { name: 'F2026-0042.xml', data: `data:text/xml;base64,${xml.toString('base64')}` } });
    expect(sent.status).toBe(201);
    // Kept as a readable PDF of it, the XML inside (the file the bill will be registered with).
    expect(sent.body).toMatchObject({ fileName: 'F2026-0042.pdf', mimetype: 'application/pdf' });
    const [read] = await until(staff, (drafts) => drafts.length === 1 && drafts[0].status === 'read');
    expect(read.fields).toMatchObject({ importe: '1210.00', date: '2026-11-02', provider: 'Suministros Peñalara SL', vat: 'ESB12345674', einvoice: { label: 'FacturaE 3.2.2', checks: { signature: { status: 'unsigned' } } } });
    const file = await staff('GET', `/me/move-drafts/${sent.body.id}/file`);
    const [inside] = await pdfXmlAttachments(Buffer.from(String(file.body.data).split(',')[1], 'base64'));
    expect(inside.content.equals(xml)).toBe(true);
  });

  it('needs moves.create, and shows nobody another user’s drafts', async () => {
    const staff = await as(server, 'staff@demo.example');
    const admin = await as(server, 'admin@demo.example');
    const manager = await as(server, 'manager@demo.example');
    const mine = await staff('POST', '/me/move-drafts', { moveType: 'expense', file: receipt('mine.pdf', '3,00') });
    expect(mine.status).toBe(201);

    const refused = await manager('POST', '/me/move-drafts', { moveType: 'expense', file: receipt('x.pdf', '1,00') });
    expect(refused.status).toBe(403);
    expect((await manager('GET', '/me/move-drafts')).status).toBe(403);

    // Even an administrator: another's draft is not found, whichever it is.
    expect((await admin('GET', '/me/move-drafts')).body).toEqual([]);
    const other = await admin('GET', `/me/move-drafts/${mine.body.id}/file`, undefined, 'en');
    expect(other.status).toBe(404);
    expect(other.body.message).toBe(`Receipt ${mine.body.id} not found`);
    expect((await admin('DELETE', `/me/move-drafts/${mine.body.id}`)).status).toBe(404);
    expect((await staff('GET', '/me/move-drafts')).body.map((one) => one.id)).toEqual([mine.body.id]);
    await staff('DELETE', `/me/move-drafts/${mine.body.id}`);
  });

  it('makes one draft of a file sent again with its submission key, also twice at once; another user’s same key is theirs', async () => {
    const staff = await as(server, 'staff@demo.example');
    const admin = await as(server, 'admin@demo.example');
    const send = (token: string, key: string) =>
      server.app.inject({ method: 'POST', url: '/me/move-drafts', payload: { moveType: 'expense', file: receipt('compartido-1.pdf', '12,50') }, headers: { authorization: token, 'idempotency-key': key } });
    const staffToken = await server.tokenFor('staff@demo.example');
    const key = '0f9d3c1e-5b7a-4e2f-9c61-2a8b7d4e6f10';
    const [first, second] = await Promise.all([send(staffToken, key), send(staffToken, key)]);
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(first.json().id).toBe(second.json().id);
    expect([first.headers['idempotent-replayed'], second.headers['idempotent-replayed']].filter(Boolean)).toEqual(['true']);
    const again = await send(staffToken, key);
    expect(again.json().id).toBe(first.json().id);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await staff('GET', '/me/move-drafts')).body.map((one) => one.fileName)).toEqual(['compartido-1.pdf']);
    // Another key is another draft; the same key from another user is that user's own.
    expect((await send(staffToken, 'e2b1c4d5-0000-4000-8000-000000000002')).json().id).not.toBe(first.json().id);
    const admins = await send(await server.tokenFor('admin@demo.example'), key);
    expect(admins.statusCode).toBe(201);
    expect(admins.headers['idempotent-replayed']).toBeUndefined();
    expect((await admin('GET', '/me/move-drafts')).body).toHaveLength(1);
    expect((await staff('GET', '/me/move-drafts')).body).toHaveLength(2);
    const badKey = await server.app.inject({ method: 'POST', url: '/me/move-drafts', payload: { moveType: 'expense', file: receipt('x.pdf', '1,00') }, headers: { authorization: staffToken, 'idempotency-key': 'no' } });
    expect(badKey.statusCode).toBe(400);
    expect((await staff('GET', '/me/move-drafts')).body).toHaveLength(2);
  });

  it('refuses a bad file or tab naming the field, in the user’s language, and keeps nothing', async () => {
    const staff = await as(server, 'staff@demo.example');
    const notBase64 = await staff('POST', '/me/move-drafts', { moveType: 'expense', file: { name: 'a.pdf', data: 'no es base64 ¿?' } });
    expect(notBase64).toMatchObject({ status: 400, body: { field: 'file', code: 'file.notBase64', message: 'El archivo no son datos base64 válidos' } });
    const text = await staff('POST', '/me/move-drafts', { moveType: 'expense', file: { name: 'notes.txt', data: Buffer.from('just some words').toString('base64') } }, 'en');
    expect(text).toMatchObject({ status: 415, body: { field: 'file', message: 'Failed to load file. Unsupported file format or file corrupted.' } });
    const tab = await staff('POST', '/me/move-drafts', { moveType: 'order', file: receipt('a.pdf', '1,00') }, 'en');
    expect(tab.status).toBe(400);
    expect(tab.body.field).toBe('moveType');
    const missing = await staff('POST', '/me/move-drafts', { moveType: 'expense' });
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe('file');
    expect((await staff('GET', '/me/move-drafts')).body).toEqual([]);
  });

  it(`keeps at most ${MOVE_DRAFTS_PER_USER} drafts per user`, async () => {
    const staff = await as(server, 'staff@demo.example');
    const [{ id: userId }] = await server.app.services.db.query<{ id: number }>("SELECT id FROM users WHERE email = 'staff@demo.example'");
    // All but one already there (read, so the background leaves them alone).
    await server.app.services.db.query(
      `INSERT INTO move_drafts (user_id, move_type, file_name, mimetype, data, status, fields) SELECT $1, 'expense', 'old.pdf', 'application/pdf', 'JVBERi0=', 'read', '{}'::jsonb FROM generate_series(1, $2)`,
      [userId, MOVE_DRAFTS_PER_USER - 1],
    );
    expect((await staff('POST', '/me/move-drafts', { moveType: 'expense', file: receipt('last.pdf', '1,00') })).status).toBe(201);
    const over = await staff('POST', '/me/move-drafts', { moveType: 'expense', file: receipt('over.pdf', '1,00') });
    expect(over).toMatchObject({ status: 409, body: { code: 'moveDrafts.tooMany', message: `Ya tiene ${MOVE_DRAFTS_PER_USER} recibos pendientes de enviar: envíe o descarte alguno antes de añadir más` } });
    expect((await staff('GET', '/me/move-drafts')).body).toHaveLength(MOVE_DRAFTS_PER_USER);
    await server.app.services.db.query('DELETE FROM move_drafts WHERE user_id = $1', [userId]);
  });
});

/** A real extractor (its attachment processes prepare the files) whose readings the test decides. */
class ScriptedExtractor extends Extractor {
  readings = 0;
  constructor(private readonly script: (attempt: number, signal?: AbortSignal) => Promise<MoveResult>) {
    super({ workers: 1 });
  }
  override readMove(_file: unknown, signal?: AbortSignal): Promise<MoveResult> {
    this.readings += 1;
    return this.script(this.readings, signal);
  }
}

describe('the background reading', () => {
  it('waits when the readers are busy, says why a document could not be read, and resumes after a restart', READING, async () => {
    const db = await memoryDatabase();
    // First server: the first reading is told "busy", the second hangs until the server stops.
    const busyThenHang = new ScriptedExtractor((attempt, signal) =>
      attempt === 1
        ? Promise.reject(new ExtractionError(503, 'extract.busy', {}, 0))
        : new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new ExtractionError(503, 'extract.abandoned')))),
    );
    const first = await startTestServer({ db, seed: true, extractor: busyThenHang, draftReader: { pollMs: 100 } });
    try {
      const staff = await as(first, 'staff@demo.example');
      const added = await staff('POST', '/me/move-drafts', { moveType: 'expense', file: receipt('late.pdf', '5,00') });
      // Busy is not a failure: queued again, then taken up again.
      await until(staff, ([one]) => one?.status === 'reading' && busyThenHang.readings >= 2);
      expect(added.status).toBe(201);
    } finally {
      await first.stop();
      await busyThenHang.close();
    }
    // Stopped mid-reading: queued again. A draft a dead process left `reading` is queued again at the next start.
    expect(await db.query('SELECT status FROM move_drafts')).toEqual([{ status: 'queued' }]);
    await db.query("UPDATE move_drafts SET status = 'reading'");

    const quick = new ScriptedExtractor(async (attempt) => {
      if (attempt === 1) return { importe: '5.00', provider: 'PARKING CENTRO' };
      throw new ExtractionError(422, 'extract.unreadable');
    });
    const second = await startTestServer({ db, extractor: quick, draftReader: { pollMs: 100 } });
    try {
      const staff = await as(second, 'staff@demo.example');
      const [resumed] = await until(staff, ([one]) => one?.status === 'read');
      expect(resumed.fields).toEqual({ importe: '5.00', provider: 'PARKING CENTRO' });
      await staff('POST', '/me/move-drafts', { moveType: 'invoice', file: receipt('blank.pdf', '0') });
      const [, failed] = await until(staff, (drafts) => drafts[1]?.status === 'failed');
      expect(failed.error).toMatch(/^No se ha podido leer/);
      const inEnglish = await staff('GET', '/me/move-drafts', undefined, 'en');
      expect(inEnglish.body[1].error).toMatch(/could not be read|cannot be read|unreadable/i);
    } finally {
      await second.stop();
      await quick.close();
      await db.close();
    }
  });
});
