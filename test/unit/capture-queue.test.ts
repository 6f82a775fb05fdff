/**
 * Issue 33, item 2: the capture queue's sending, on an in-memory store. Each capture goes with its own key, oldest
 * first; a sent one leaves; no network stops the sending and keeps the rest; a duplicates warning or a refusal holds
 * that capture for the user with why, and the others go on.
 */
import { describe, expect, it } from 'vitest';
import { UnreachableError } from '../../src/providers/http';
import { memoryStore, type Capture } from '../../src/offline/captureStore';
import { afterFailure, countByStatus, flushCaptures, isSendingHere, queueCapture, withCaptureLock, withQueueLock } from '../../src/offline/captureQueue';
import { captureSummary } from '../../src/offline/captureText';

const capture = (id: string, createdAt: number, extra: Partial<Capture> = {}): Capture => ({
  id,
  createdAt,
  status: 'waiting',
  body: { concept: `Ticket ${id}`, amount: 12.34, date: '2026-11-20', file: { name: `${id}.jpg`, data: 'data:image/jpeg;base64,AA==' } },
  onDuplicate: 'warn',
  ...extra,
});

const OWNER = 'staff@demo.example';
const refusal = (status: number, body: Record<string, unknown>) => Object.assign(new Error(String(body.message ?? 'refused')), { status, body });

describe('the capture queue', () => {
  it('leaves to it a capture the form is sending (issue 51), and sends it once that send has ended without it', async () => {
    const store = memoryStore([capture('a', 1), capture('b', 2)]);
    let release!: () => void;
    const formSend = withCaptureLock('a', () => new Promise<void>((resolve) => (release = resolve)));
    expect(isSendingHere('a')).toBe(true);
    const keys: string[] = [];
    expect(await flushCaptures(store, OWNER, async (one) => keys.push(one.id))).toEqual({ sent: 1, held: 0, stopped: false });
    expect(keys).toEqual(['b']);
    release();
    await formSend;
    expect(isSendingHere('a')).toBe(false);
    // The form's send did not reach the server (it stays queued): the next flush sends it.
    expect(await flushCaptures(store, OWNER, async (one) => keys.push(one.id))).toEqual({ sent: 1, held: 0, stopped: false });
    expect(keys).toEqual(['b', 'a']);
    expect(await store.all()).toEqual([]);
  });

  it('skips a capture removed while it waited its turn (sent by another tab)', async () => {
    const store = memoryStore([capture('a', 1)]);
    const reading = store.all;
    store.all = async () => {
      const listed = await reading();
      await store.remove('a');
      return listed;
    };
    const keys: string[] = [];
    expect(await flushCaptures(store, OWNER, async (one) => keys.push(one.id))).toEqual({ sent: 0, held: 0, stopped: false });
    expect(keys).toEqual([]);
  });

  it('sends the waiting captures oldest first, each with its own key, and empties the queue', async () => {
    const store = memoryStore([capture('b', 2), capture('a', 1), capture('c', 3)]);
    const keys: string[] = [];
    const result = await flushCaptures(store, OWNER, async (one) => keys.push(one.id));
    expect(keys).toEqual(['a', 'b', 'c']);
    expect(result).toEqual({ sent: 3, held: 0, stopped: false });
    expect(await store.all()).toEqual([]);
  });

  it('stops at the first unreachable send and keeps it and the rest, to be sent with the same keys', async () => {
    const store = memoryStore([capture('a', 1), capture('b', 2), capture('c', 3)]);
    const tried: string[] = [];
    const result = await flushCaptures(store, OWNER, async (one) => {
      tried.push(one.id);
      if (one.id === 'b') throw new UnreachableError();
    });
    expect(tried).toEqual(['a', 'b']);
    expect(result).toEqual({ sent: 1, held: 0, stopped: true });
    expect((await store.all()).map((one) => [one.id, one.status])).toEqual([['b', 'waiting'], ['c', 'waiting']]);
  });

  it('waits, without holding anything, while the server or the ERP is down (5xx) or the session ended (401)', async () => {
    for (const status of [503, 500, 401, 429]) {
      const store = memoryStore([capture('a', 1)]);
      const result = await flushCaptures(store, OWNER, async () => Promise.reject(refusal(status, { message: 'ERP unavailable' })));
      expect(result.stopped).toBe(true);
      expect((await store.all())[0].status).toBe('waiting');
    }
  });

  it('holds a capture the server warns may repeat a move, with the moves, and sends the next', async () => {
    const duplicates = [{ move: { id: 7, name: 'BORRADOR/7' }, reasons: ['file'] }];
    const store = memoryStore([capture('a', 1), capture('b', 2)]);
    const result = await flushCaptures(store, OWNER, async (one) => {
      if (one.id === 'a') throw refusal(409, { message: 'It may already be registered', code: 'moves.possibleDuplicate', duplicates });
    });
    expect(result).toEqual({ sent: 1, held: 1, stopped: false });
    const [held] = await store.all();
    expect(held).toMatchObject({ id: 'a', status: 'duplicate', duplicates });
    // Held captures are not sent again by themselves.
    let sends = 0;
    await flushCaptures(store, OWNER, async () => void (sends += 1));
    expect(sends).toBe(0);
  });

  it('holds a refused capture with the server message (in the user language)', async () => {
    const store = memoryStore([capture('a', 1)]);
    await flushCaptures(store, OWNER, async () => Promise.reject(refusal(400, { message: 'La fecha es de hace más de dos años', field: 'date' })));
    expect(await store.all()).toEqual([expect.objectContaining({ id: 'a', status: 'refused', message: 'La fecha es de hace más de dos años' })]);
  });

  it('leaves shared files alone: they wait for the user to fill them in', async () => {
    const store = memoryStore([{ id: 's', createdAt: 1, status: 'shared', fileName: 'ticket.pdf', fileType: 'application/pdf' }]);
    expect(await flushCaptures(store, OWNER, async () => Promise.reject(new Error('must not send')))).toEqual({ sent: 0, held: 0, stopped: false });
    expect(countByStatus(await store.all())).toEqual({ waiting: 0, duplicate: 0, refused: 0, shared: 1 });
  });

  it('queues a capture under its submission key and says it in one line', async () => {
    const store = memoryStore();
    await queueCapture(store, { id: 'key-1', body: capture('k', 1).body!, onDuplicate: 'save', owner: OWNER });
    const [queued] = await store.all();
    expect(queued).toMatchObject({ id: 'key-1', status: 'waiting', onDuplicate: 'save' });
    expect(captureSummary(queued, 'es')).toEqual({ title: 'Ticket k', detail: '12,34 · 20/11/2026' });
    expect(captureSummary(queued, 'en')).toEqual({ title: 'Ticket k', detail: '12.34 · 20/11/2026' });
  });

  it('a failure that is not an answer (a bug) is no refusal: the capture waits', () => {
    expect(afterFailure(capture('a', 1), new TypeError('x is undefined'))).toBe('later');
  });

  it('runs one flush at a time in this browser (Web Locks), or the flush as it is without them', async () => {
    const order: string[] = [];
    const first = withQueueLock(async () => {
      order.push('first');
      await new Promise((resolve) => setTimeout(resolve, 20));
      return 1;
    });
    const second = withQueueLock(async () => order.push('second'));
    expect(await first).toBe(1);
    // Where locks exist the second finds the queue taken and does nothing; without them it runs.
    expect(await second).toBe(typeof navigator !== 'undefined' && navigator.locks ? undefined : 2);
  });
});

describe('captures of another user', () => {
  it('are neither sent with this user session nor touched: they wait for their owner', async () => {
    const store = memoryStore([capture('mine', 1, { owner: OWNER }), capture('theirs', 2, { owner: 'other@demo.example' }), capture('old', 3)]);
    const keys: string[] = [];
    await flushCaptures(store, OWNER, async (one) => keys.push(one.id));
    expect(keys).toEqual(['mine', 'old']);
    expect((await store.all()).map((one) => one.id)).toEqual(['theirs']);
  });
});
