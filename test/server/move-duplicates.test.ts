/**
 * "Never twice" (issue 33, item 3): POST /odoo/moves/create with onDuplicate looks for the moves of the company the
 * document may repeat: the same file, the same supplier and reference, the same supplier, amount and date. 'warn'
 * refuses with them (409, nothing saved); 'save' saves and records them on the move; without it, nothing changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPdf, demoPng } from '../../server/erp/embedded/files';
import type { Domain, ErpClient, SearchOptions } from '../../server/erp/types';
import { submissionSlot } from '../../server/services/move-create';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
/**
 * Another server process on the same database and ERP (a replica), whose ERP looks like one whose connector predates
 * the one-call writes (their field hidden from fields_get): it makes a bill in steps, its key written by the last.
 */
let inSteps: TestServer;
const tokens: Record<string, string> = {};
/** The same accounts' sessions on the in-steps server (each server signs its own). */
const stepsTokens: Record<string, string> = {};
const today = new Date().toISOString().slice(0, 10);
let unique = 0;
/** A PDF of its own: no other move carries its bytes. */
const freshPdf = () => `data:application/pdf;base64,${demoPdf(['Ticket', `Documento ${++unique} ${Date.now()}`]).toString('base64')}`;

/** Set by a test: called before each of the routes' ERP reads, which it may hold (a stalled request). */
let beforeRead: ((model: string, domain: unknown) => Promise<void> | void) | undefined;
/** Set by a test: called before each ERP create and write of the in-steps server, which it may hold. */
let beforeWrite: ((model: string, values: Record<string, unknown>) => Promise<void> | void) | undefined;

/** The routes' ERP client, its reads passed through `beforeRead`. */
const heldReads = (client: ErpClient): ErpClient =>
  new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'searchRead') {
        return async (model: string, domain: Domain, options?: SearchOptions) => {
          await beforeRead?.(model, domain);
          return target.searchRead(model, domain, options);
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });

/** The in-steps server's ERP client: no one-call writes, its creates and writes passed through `beforeWrite`. */
const stepsErp = (client: ErpClient): ErpClient =>
  new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'call') {
        return async (...args: Parameters<ErpClient['call']>) => {
          const answer = await target.call(...args);
          if (args[0] !== 'account.move' || args[1] !== 'fields_get') return answer;
          const { x_backoffice_one_call: _hidden, ...fields } = answer as Record<string, unknown>;
          return fields;
        };
      }
      if (property === 'create') {
        return async (model: string, values: Record<string, unknown>, ...rest: unknown[]) => {
          await beforeWrite?.(model, values);
          return (target.create as (...all: unknown[]) => Promise<number>)(model, values, ...rest);
        };
      }
      if (property === 'write') {
        return async (model: string, ids: number[], values: Record<string, unknown>, ...rest: unknown[]) => {
          await beforeWrite?.(model, values);
          return (target.write as (...all: unknown[]) => Promise<unknown>)(model, ids, values, ...rest);
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });

beforeAll(async () => {
  server = await startTestServer({ seedErp: true, wrapErp: heldReads });
  inSteps = await startTestServer({ db: server.app.services.db, wrapErp: stepsErp });
  for (const who of ['staff', 'admin']) {
    tokens[who] = await server.tokenFor(`${who}@demo.example`);
    stepsTokens[who] = await inSteps.tokenFor(`${who}@demo.example`);
  }
}, 180_000);
afterAll(async () => {
  await inSteps?.stop();
  await server?.stop();
});

/**
 * A point a held request reaches (`atPoint`), and its release (`letGo`): `at(matches)` is an ERP hook that holds the
 * first call it matches, and lets every other call through.
 */
function holdPoint() {
  let reached!: () => void;
  let letGo!: () => void;
  let taken = false;
  const point = { atPoint: new Promise<void>((resolve) => (reached = resolve)), held: new Promise<void>((resolve) => (letGo = resolve)), letGo: () => letGo() };
  const at =
    <A extends unknown[]>(matches: (...args: A) => boolean) =>
    (...args: A): Promise<void> | undefined => {
      if (taken || !matches(...args)) return undefined;
      taken = true;
      reached();
      return point.held;
    };
  return { ...point, at };
}

/** Both sends answered 201 with the one bill, which only one made (`replayed`: which of the two says it replays). */
async function expectOneBill(first: Answer, second: Answer, before: number, replayed: [boolean, boolean]) {
  expect(first.status, JSON.stringify(first.body)).toBe(201);
  expect(second.status, JSON.stringify(second.body)).toBe(201);
  expect(first.body.id).toBe(second.body.id);
  expect([first.replayed, second.replayed]).toEqual(replayed);
  expect(await moveCount()).toBe(before + 1);
}

type Answer = Awaited<ReturnType<typeof create>>;

async function create({ onDuplicate, ...body }: Record<string, unknown>, { who = 'staff', language = 'es', key = '', on = server } = {}) {
  const response = await fetch(`${on.url}/odoo/moves/create${onDuplicate ? `?onDuplicate=${onDuplicate}` : ''}`, {
    method: 'POST',
    headers: {
      authorization: (on === server ? tokens : stepsTokens)[who],
      'content-type': 'application/json',
      ...(language ? { 'accept-language': language } : {}),
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json(), replayed: response.headers.get('idempotent-replayed') === 'true' };
}

const erp = () => server.app.services.erp.client;
const moveCount = () => erp().searchCount('account.move', []);
const notesOf = async (id: number) =>
  (await erp().searchRead('mail.message', [['model', '=', 'account.move'], ['res_id', '=', id]], { fields: ['body'] })).map((one) => String(one.body));

/** An invoice of supplier 1 with a file and values of its own. */
function invoice(overrides: Record<string, unknown> = {}) {
  unique += 1;
  return {
    type: 'invoice',
    company_id: 1,
    partner_id: 1,
    date: today,
    amount: 1000 + unique + 0.25,
    concept: `F-2026/${unique}`,
    file: { name: `factura-${unique}.pdf`, data: freshPdf() },
    ...overrides,
  };
}

describe('a document that may repeat a registered one', () => {
  it('is saved as before without onDuplicate, even the same twice: the contract of clients that do not ask is unchanged', async () => {
    const body = invoice();
    const before = await moveCount();
    expect((await create(body)).status).toBe(201);
    expect((await create(body)).status).toBe(201);
    expect(await moveCount()).toBe(before + 2);
  });

  it('with the same file: warned of (409, in the user language, with the move and why), and nothing is saved', async () => {
    const first = invoice({ onDuplicate: 'warn' });
    const made = await create(first);
    expect(made.status).toBe(201);
    const before = await moveCount();
    // Another supplier, amount and reference: only the file is the same.
    const again = await create({ ...invoice({ partner_id: 2 }), file: first.file, onDuplicate: 'warn' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('moves.possibleDuplicate');
    expect(again.body.message).toBe(`Puede que este documento ya esté registrado: #${made.body.id}`);
    expect(again.body.duplicates).toEqual([{ move: expect.objectContaining({ id: made.body.id, ref: first.concept, amount_total: first.amount }), reasons: ['file'] }]);
    expect(await moveCount()).toBe(before);
    const english = await create({ ...invoice(), file: first.file, onDuplicate: 'warn' }, { language: 'en' });
    expect(english.body.message).toBe(`This document may already be registered: #${made.body.id}`);
    const script = await create({ ...invoice(), file: first.file, onDuplicate: 'warn' }, { language: '' });
    expect(script.body.message).toBe(`This document may already be registered: #${made.body.id}. Send it again with ?onDuplicate=save to register it anyway`);
  });

  it('with the same photo sent again: found although photos are stored recompressed', async () => {
    const photo = `data:image/png;base64,${demoPng(300, 400, [250, 246, 238]).toString('base64')}`;
    const first = await create(invoice({ file: { name: 'ticket.png', data: photo }, onDuplicate: 'warn' }));
    expect(first.status).toBe(201);
    const again = await create(invoice({ file: { name: 'IMG_0001.png', data: photo }, onDuplicate: 'warn' }));
    expect(again.status).toBe(409);
    expect(again.body.duplicates.map((one: { move: { id: number } }) => one.move.id)).toEqual([first.body.id]);
  });

  it('with the same supplier and reference, or the same supplier, amount and date: warned of, each reason named', async () => {
    const first = invoice({ onDuplicate: 'warn' });
    const made = await create(first);
    expect(made.status).toBe(201);
    const sameReference = await create(invoice({ concept: ` ${first.concept} `, onDuplicate: 'warn' }));
    expect(sameReference.status).toBe(409);
    expect(sameReference.body.duplicates).toEqual([{ move: expect.objectContaining({ id: made.body.id }), reasons: ['reference'] }]);
    const sameAmount = await create(invoice({ amount: first.amount, onDuplicate: 'warn' }));
    expect(sameAmount.status).toBe(409);
    expect(sameAmount.body.duplicates).toEqual([{ move: expect.objectContaining({ id: made.body.id }), reasons: ['amount'] }]);
    const all = await create({ ...first, onDuplicate: 'warn' });
    expect(all.body.duplicates).toEqual([{ move: expect.objectContaining({ id: made.body.id }), reasons: ['file', 'reference', 'amount'] }]);
  });

  it('is not warned of for another supplier, day or company, nor for amount and concept without a supplier, nor for a cancelled move', async () => {
    const first = invoice({ onDuplicate: 'warn' });
    const made = await create(first);
    expect(made.status).toBe(201);
    expect((await create(invoice({ partner_id: 2, amount: first.amount, concept: first.concept, onDuplicate: 'warn' }))).status).toBe(201);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect((await create(invoice({ date: yesterday, amount: first.amount, onDuplicate: 'warn' }))).status).toBe(201);
    // The same file in another company of the admin's: that company's books are another matter.
    expect((await create({ ...invoice({ company_id: 2, partner_id: false }), file: first.file, onDuplicate: 'warn' }, { who: 'admin' })).status).toBe(201);
    // A ticket without a supplier: "Taxi" for 12,50 on the same day is no document's identity.
    const ticket = { type: 'expense', company_id: 1, date: today, amount: 12.5, concept: 'Taxi', paymentMethod: 'corporate_card', onDuplicate: 'warn' };
    expect((await create({ ...ticket, file: { name: 't1.pdf', data: freshPdf() } })).status).toBe(201);
    expect((await create({ ...ticket, file: { name: 't2.pdf', data: freshPdf() } })).status).toBe(201);
    // Cancelled, the first no longer counts.
    await erp().call('account.move', 'button_cancel', [made.body.id], []);
    expect((await create({ ...first, onDuplicate: 'warn' })).status).toBe(201);
  });

  it("saved anyway: the move is made once and its conversation records which it may repeat, in the user's language", async () => {
    const first = invoice({ comment: 'Primera', onDuplicate: 'warn' });
    const made = await create(first);
    expect(made.status).toBe(201);
    const before = await moveCount();
    // The console's way: warned with the submission's key, then saved with the same key; its answer lost, sent again.
    const key = crypto.randomUUID();
    expect((await create({ ...first, comment: 'La segunda copia', onDuplicate: 'warn' }, { key })).status).toBe(409);
    const saved = await create({ ...first, comment: 'La segunda copia', onDuplicate: 'save' }, { key });
    expect(saved.status).toBe(201);
    const resent = await create({ ...first, comment: 'La segunda copia', onDuplicate: 'save' }, { key });
    expect(resent.status).toBe(201);
    expect(resent.body.id).toBe(saved.body.id);
    expect(await moveCount()).toBe(before + 1);
    const notes = await notesOf(saved.body.id);
    expect(notes.join('\n')).toContain('La segunda copia');
    expect(notes.join('\n')).toContain(`Registrado aunque puede repetir borrador ${made.body.id} (mismo archivo; mismo proveedor y referencia; mismo proveedor, importe y fecha)`);
    // Nothing to repeat: saved with no such note.
    const alone = await create(invoice({ onDuplicate: 'save' }));
    expect(alone.status).toBe(201);
    expect((await notesOf(alone.body.id)).join('\n')).not.toContain('Registrado aunque');
  });

  it('sent again to another server process while its first send is still under way: both answered the one bill, never warned of as a repeat of itself', async () => {
    // A phone's queue sends again what a stalled server was still working on, and another replica takes the resend:
    // the first send is held after it looked for its key's bill (none yet) and before it looks for repeats; the
    // other process makes the bill meanwhile.
    const body = invoice({ onDuplicate: 'warn' });
    const key = crypto.randomUUID();
    const before = await moveCount();
    const first = holdPoint();
    beforeRead = first.at((model: string, domain: unknown) => model === 'ir.attachment' && JSON.stringify(domain).includes('checksum'));
    try {
      const firstAnswer = create(body, { key });
      await first.atPoint;
      const second = await create(body, { key, on: inSteps });
      expect(second.status, JSON.stringify(second.body)).toBe(201);
      first.letGo();
      await expectOneBill(await firstAnswer, second, before, [true, false]);
    } finally {
      beforeRead = undefined;
      first.letGo();
    }
  });

  it('made in steps and sent again to the same server while half made: the resend waits for it and is answered the one bill', async () => {
    // The first send is held after it made the bill (its pending marker, no key yet) and before its file: a resend
    // that did not wait found no bill of its key and the half-made one as a repeat (409 naming the user's own bill).
    const body = invoice({ onDuplicate: 'warn' });
    const key = crypto.randomUUID();
    const before = await moveCount();
    const first = holdPoint();
    beforeWrite = first.at((model: string) => model === 'ir.attachment');
    try {
      const firstAnswer = create(body, { key, on: inSteps });
      await first.atPoint;
      const secondAnswer = create(body, { key, on: inSteps });
      const slot = submissionSlot({ email: 'staff@demo.example', firstName: '', lastName: '' }, key);
      await Promise.race([
        expect.poll(() => inSteps.app.services.submissions.holders(slot), { timeout: 20_000 }).toBe(2),
        secondAnswer.then((answer) => {
          throw new Error(`answered while its first send was under way: ${answer.status} ${JSON.stringify(answer.body)}`);
        }),
      ]);
      first.letGo();
      const [answered, second] = await Promise.all([firstAnswer, secondAnswer]);
      await expectOneBill(answered, second, before, [false, true]);
    } finally {
      beforeWrite = undefined;
      first.letGo();
    }
  });

  it('made in steps while another server process makes it whole: the key it could not write names the bill it answers, its own half undone', async () => {
    // The first send (in steps) is held before its last step, the key's write; the resend goes to another process,
    // which makes the bill in one call with the key. The first's key write is then refused (the key is unique).
    const body = invoice();
    const key = crypto.randomUUID();
    const before = await moveCount();
    const first = holdPoint();
    beforeWrite = first.at((model: string, values: Record<string, unknown>) => model === 'account.move' && values.x_backoffice_key === key);
    try {
      const firstAnswer = create(body, { key, on: inSteps });
      await first.atPoint;
      const second = await create(body, { key });
      expect(second.status, JSON.stringify(second.body)).toBe(201);
      first.letGo();
      await expectOneBill(await firstAnswer, second, before, [true, false]);
    } finally {
      beforeWrite = undefined;
      first.letGo();
    }
  });

  it('refuses an onDuplicate it does not know, naming the field, and saves nothing', async () => {
    const before = await moveCount();
    const answer = await create(invoice({ onDuplicate: 'ignore' }));
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe('onDuplicate');
    expect(await moveCount()).toBe(before);
  });
});
