/**
 * Document reading out of the server's process (issue 15): a few reader processes (worker.ts, forked on first use
 * and re-used) do the PDF parsing, image decoding and OCR, so a document that needs gigabytes or minutes costs its
 * reader, never the server's memory or event loop. Per document, a time limit and a memory cap (the reader's
 * resident memory, sampled every 100 ms from /proc, and V8's heap limit): past either, the reader is killed, the
 * request gets a clear answer, and the next document starts a fresh reader. At most `workers` documents are read at
 * once and `queue` more wait; beyond that the answer is 503 with Retry-After. Readers run at a lower priority
 * (worker.ts) and end after 10 idle minutes. A pool of kind 'attachment' (issue 29) runs attachment-worker.ts
 * instead, with the same limits: the photos and PDFs a move stores are prepared there, not on the server's thread.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ExtractionError } from './errors';
import { isMessageKey, type MessageKey, type MessageParams } from '../messages';
import { MAX_IMAGE_PIXELS } from './limits';
import { DEFAULT_OCR_ENGINE, type OcrEngineName } from '../config';
import { nativeTesseract } from './native';
import type { TesseractSettings } from './ocr';
import type { DocumentType, ReadResult } from './reader';
import type { ReadRequest } from './worker';

export const DEFAULT_READERS = Math.max(1, Math.min(2, availableParallelism()));
export const DEFAULT_READER_MEMORY_MB = 1024;
export const DEFAULT_READ_TIMEOUT_MS = 25_000;
/**
 * Issue 51: the time limit counts the reader's own work (its processor time, or the time since it took the document
 * when that is less), not its wait in the queue nor the time a loaded processor gave to others. A reader still not
 * done this many times the limit after taking the document (stopped, or starved) is ended all the same.
 */
export const WALL_CAP_FACTOR = 4;
/** Seconds a client is told to wait when every reader is busy and the queue is full. */
export const BUSY_RETRY_AFTER_S = 5;
/** A reader left using more than this share of its cap after a document is replaced, not re-used. */
const RECYCLE_SHARE = 0.6;
const SAMPLE_MS = 100;

export interface ReaderPoolOptions {
  /** Documents read at once, each in its own process (default min(2, cores)). */
  workers?: number;
  /** Documents that may wait for a reader (default 2 x workers); more get 503. */
  queue?: number;
  /** A reader's resident memory cap, in MiB (default 1024). */
  memoryMb?: number;
  /**
   * One document's time limit (default 25 s): the reader's processor time on it (all its threads; never more than the
   * time since it took the document), so neither the queue nor a loaded machine counts.
   */
  timeoutMs?: number;
  /** The safety cap in time since a ready reader took the document (default WALL_CAP_FACTOR x timeoutMs). */
  wallCapMs?: number;
  /** The largest image read, in pixels (default MAX_IMAGE_PIXELS; Infinity lifts it, for bench/load.ts). */
  maxPixels?: number;
  /** The OCR engine the readers run (default tesseract; OCR_ENGINE). */
  engine?: OcrEngineName;
  /** How tesseract runs in the readers (issue 52: OCR_LANGUAGES, OCR_NATIVE). */
  tesseract?: TesseractSettings;
  /** How long a new reader may take to load its OCR models (default 60 s). */
  startTimeoutMs?: number;
  /** A reader idle this long ends (default 10 minutes). */
  idleMs?: number;
  /** After a reader failed to start, readiness starts one again this long after (default START_RECHECK_MS). */
  recheckMs?: number;
  /**
   * What the processes do: read documents (worker.ts, with the OCR engine) or prepare attachments for storing
   * (attachment-worker.ts: resizing photos, checking PDFs), with the same limits, and refusals in their own words.
   */
  kind?: PoolKind;
}

export type PoolKind = 'reader' | 'attachment';

/** How long after a reader failed to start readiness tries one again (usable()). */
export const START_RECHECK_MS = 15_000;

/**
 * Why a document was not read: the queue was full (503), the time limit (504) or the memory cap (422), the reader
 * crashed or could not start, the pool was closing, the client went away while it waited, or the document itself was
 * refused (not readable, too many pixels, not a PDF...: `bad_file`).
 */
export type PoolRefusal = 'queue_full' | 'timeout' | 'memory' | 'crashed' | 'start' | 'closed' | 'abandoned' | 'bad_file';

/** One document's end, as the pool tells its observers (server/metrics): how long it waited and was read, or why refused. */
export interface PoolEvent {
  kind: PoolKind;
  /** Seconds from asking to a reader taking it (or to its refusal, when none did). */
  waitedSeconds: number;
  /** Seconds from a reader taking it to its answer; undefined when it was refused before a reader took it. */
  readSeconds?: number;
  refusal?: PoolRefusal;
}

/** The pool's own refusal keys read back as reasons; any other refusal is the document's (bad_file). */
const REASONS: Record<keyof (typeof REFUSALS)[PoolKind], PoolRefusal> = {
  busy: 'queue_full',
  timeout: 'timeout',
  stalled: 'timeout',
  memory: 'memory',
  crashed: 'crashed',
  start: 'start',
  closed: 'closed',
  abandoned: 'abandoned',
  failed: 'bad_file',
};

/** The refusals of the pool itself (busy, time, memory, a crash), in the words of what it does. */
const REFUSALS = {
  reader: { busy: 'extract.busy', timeout: 'extract.timeout', stalled: 'extract.stalled', memory: 'extract.memory', crashed: 'extract.crashed', start: 'extract.start', closed: 'extract.closed', abandoned: 'extract.abandoned', failed: 'extract.failed' },
  attachment: { busy: 'attachment.busy', timeout: 'attachment.timeout', stalled: 'attachment.timeout', memory: 'extract.memory', crashed: 'attachment.crashed', start: 'attachment.start', closed: 'attachment.closed', abandoned: 'extract.abandoned', failed: 'file.unsupported' },
} as const satisfies Record<PoolKind, Record<string, MessageKey>>;

interface Job {
  id: number;
  resolve: (result: unknown) => void;
  reject: (error: ExtractionError) => void;
}

interface Reader {
  child: ChildProcess;
  ready: Promise<void>;
  busy: boolean;
  dead: boolean;
  /** Resident memory at the last sample, and the most seen, in bytes. */
  rss: number;
  peakRss: number;
  job?: Job;
  /** When it took its document: performance.now() and its processor time then, in ms (null where /proc is missing). */
  took?: { wall: number; cpu: number | null };
  /** Ends it after idleMs without a document. */
  idle?: NodeJS.Timeout;
  /** Why the pool killed it (the job's answer), when it did. */
  killedFor?: ExtractionError;
}

/**
 * A document's place, for whoever asked (issue 51: the console says "queued (position N)"): the pool sets `position`
 * while the document waits (1: next to be read; 0 once it no longer waits) and `taken` (performance.now()) when a
 * reader takes it.
 */
export interface ReadTicket {
  position?: () => number;
  taken?: number;
}

interface Waiter {
  resolve: () => void;
  reject: (error: ExtractionError) => void;
}

const here = fileURLToPath(import.meta.url);
const MODULES: Record<PoolKind, string> = { reader: 'worker', attachment: 'attachment-worker' };
/** Run from TypeScript (`node --import tsx`, vitest): the reader needs the same loader, by absolute address. */
const LOADER = extname(here) === '.ts' ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [];

/**
 * The module a process of `kind` runs, and Node's arguments for it: the one beside this module (the bundle's
 * worker.js, or worker.ts under tsx when the server runs from TypeScript). `READER_MODULES` names a folder of bundled
 * ones instead (`npm run build`'s build/server): the tests' in-process servers run from TypeScript, and a reader forked
 * from TypeScript compiles its modules again, about 1.8 s of a core more per reader (test/server/global-setup.ts).
 */
function processModule(kind: PoolKind): { file: string; loader: string[] } {
  const bundled = process.env.READER_MODULES?.trim();
  if (bundled) return { file: join(bundled, `${MODULES[kind]}.js`), loader: [] };
  return { file: fileURLToPath(new URL(`./${MODULES[kind]}${extname(here)}`, import.meta.url)), loader: LOADER };
}

/**
 * The processes a process started and has not yet waited for (Linux /proc): a native tesseract a reader runs (issue
 * 52), whose time and memory are the reader's work. Read at once: a small /proc file, and a reader about to be
 * killed is read before it goes.
 */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** A process's clock ticks: user and system, all its threads; with `waited`, those of its children it waited for. */
async function ticksOf(pid: number, waited: boolean): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'latin1');
    // After the command's name (in brackets, which may hold spaces): state is the 3rd field, utime the 14th, stime
    // the 15th, cutime and cstime (children waited for) the 16th and 17th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]) + (waited ? Number(fields[13]) + Number(fields[14]) : 0);
    return Number.isFinite(ticks) ? ticks : null;
  } catch {
    return null;
  }
}

/**
 * A process's processor time in ms (Linux /proc), its children's included (those it waited for, and those running),
 * or null where it cannot be read.
 */
async function processorMs(pid: number): Promise<number | null> {
  const own = await ticksOf(pid, true);
  if (own === null) return null;
  const children = await Promise.all(childrenOf(pid).map((child) => ticksOf(child, false)));
  return (own + children.reduce<number>((sum, one) => sum + (one ?? 0), 0)) * (1000 / CLOCK_TICKS);
}
/** The kernel's clock ticks per second for /proc's times (USER_HZ: 100 on every Linux the server runs on). */
const CLOCK_TICKS = 100;

/** A process's resident memory in bytes (Linux /proc), or null where it cannot be read. */
async function ownResidentBytes(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'latin1');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return kb ? Number(kb[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** A process's resident memory and its running children's, in bytes, or null where it cannot be read. */
async function residentBytes(pid: number): Promise<number | null> {
  const own = await ownResidentBytes(pid);
  if (own === null) return null;
  const children = await Promise.all(childrenOf(pid).map(ownResidentBytes));
  return own + children.reduce<number>((sum, one) => sum + (one ?? 0), 0);
}

export class ReaderPool {
  readonly workers: number;
  readonly queue: number;
  readonly memoryMb: number;
  /** The time limit of a document's reading (the reader's processor time on it), in force from the next document on. */
  timeoutMs: number;
  /** The cap in time since the reader took the document; undefined: WALL_CAP_FACTOR x timeoutMs. */
  wallCapMs: number | undefined;
  readonly maxPixels: number;
  readonly engine: OcrEngineName;
  readonly tesseract: TesseractSettings;
  readonly kind: PoolKind;
  private readonly refusals: (typeof REFUSALS)[PoolKind];
  private readonly startTimeoutMs: number;
  private readonly idleMs: number;
  private readers: Reader[] = [];
  private waiting: Waiter[] = [];
  private running = 0;
  private sequence = 0;
  private sampler: NodeJS.Timeout | undefined;
  private sampling = false;
  private closed = false;
  /** The last reader to start failed to (reset when one starts), and when. */
  private startFailing = false;
  private startFailedAt = 0;
  private readonly recheckMs: number;
  /** A reader started by readiness alone is under way (usable()). */
  private rechecking = false;
  private exitHook = false;
  /** Since warm(): the last reader is not stopped when idle. */
  private keepOne = false;
  private readonly killAll = () => this.readers.forEach((reader) => reader.child.kill('SIGKILL'));
  private readonly observers = new Set<(event: PoolEvent) => void>();

  constructor(options: ReaderPoolOptions = {}) {
    this.workers = Math.max(1, options.workers ?? DEFAULT_READERS);
    this.queue = Math.max(0, options.queue ?? 2 * this.workers);
    this.memoryMb = options.memoryMb ?? DEFAULT_READER_MEMORY_MB;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
    this.wallCapMs = options.wallCapMs;
    this.maxPixels = options.maxPixels ?? MAX_IMAGE_PIXELS;
    this.engine = options.engine ?? DEFAULT_OCR_ENGINE;
    this.startTimeoutMs = options.startTimeoutMs ?? 60_000;
    this.idleMs = options.idleMs ?? 600_000;
    this.recheckMs = options.recheckMs ?? START_RECHECK_MS;
    this.kind = options.kind ?? 'reader';
    // A native tesseract when one is installed (OCR_NATIVE, by default auto; issue 52), one thread (see TesseractSettings).
    this.tesseract = options.tesseract ?? (this.kind === 'reader' ? { native: nativeTesseract(process.env.OCR_NATIVE?.trim() || 'auto') } : {});
    this.refusals = REFUSALS[this.kind];
  }

  /**
   * The document's words, read by a reader process. Rejects with ExtractionError: 503 (Retry-After) when the pool
   * and its queue are full, 504 past the time limit, 422 past the memory cap or for a document that cannot be read.
   * `signal` (the client went away) takes a waiting document out of the queue.
   */
  read(buffer: Buffer, type: DocumentType, signal?: AbortSignal, options: { receipt?: boolean; ticket?: ReadTicket } = {}): Promise<ReadResult> {
    return this.process<ReadResult>({ buffer, type, maxPixels: this.maxPixels, receipt: options.receipt ?? true } satisfies Omit<ReadRequest, 'id'>, signal, options.ticket);
  }

  /**
   * One job for a process of this pool (its worker's request, without the id): its answer, or the refusals of read().
   */
  async process<T>(request: Record<string, unknown>, signal?: AbortSignal, ticket?: ReadTicket): Promise<T> {
    const asked = performance.now();
    try {
      await this.slot(signal, ticket);
      if (ticket) ticket.taken = performance.now();
    } catch (error) {
      this.tell(asked, undefined, this.refusalOf(error));
      throw error;
    }
    const taken = performance.now();
    try {
      const result = (await this.run(request)) as T;
      this.tell(asked, taken);
      return result;
    } catch (error) {
      this.tell(asked, taken, this.refusalOf(error));
      throw error;
    } finally {
      const next = this.waiting.shift();
      // The slot passes to the next waiting document, or is freed.
      if (next) next.resolve();
      else this.running--;
    }
  }

  /** Tells `observer` how each document from now on ends (server/metrics); the function returned stops it. */
  observe(observer: (event: PoolEvent) => void): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /** A document's end to the observers: asked and taken are performance.now() times; `refusal` when it was refused. */
  private tell(asked: number, taken: number | undefined, refusal?: PoolRefusal): void {
    if (!this.observers.size) return;
    const now = performance.now();
    const event: PoolEvent = { kind: this.kind, waitedSeconds: ((taken ?? now) - asked) / 1000, readSeconds: taken === undefined ? undefined : (now - taken) / 1000, refusal };
    for (const observer of this.observers) {
      try {
        observer(event);
      } catch {
        // An observer never fails a document.
      }
    }
  }

  private refusalOf(error: unknown): PoolRefusal {
    if (!(error instanceof ExtractionError)) return 'crashed';
    const own = (Object.keys(REASONS) as Array<keyof typeof REASONS>).find((name) => this.refusals[name] === error.key);
    return own ? REASONS[own] : 'bad_file';
  }

  /** The live readers (for tests and the load bench): process id, busy, peak resident memory in MiB. */
  /**
   * Readers started ahead of any document (issue 30: the first reading after a start took 10.8 s, the next ones about
   * 4): `count` readers (all by default) each load their engine and read a small printed picture, so the first person
   * to ask waits for neither; from then on the last reader left is kept when idle instead of stopped, so the server
   * stays warm. It goes through the queue like any document: a request arriving meanwhile waits its turn. A failure
   * is left to the first real document, which starts a reader as it always did.
   */
  async warm(count = this.workers): Promise<void> {
    this.keepOne = true;
    const { sample, type } = await warmUpPicture();
    await Promise.all(Array.from({ length: Math.min(count, this.workers) }, () => this.read(sample, type, undefined, { receipt: false }).catch(() => undefined)));
  }

  /**
   * Whether the pool can take documents (readiness, server/plugins/health.ts): open, and its last reader to start did
   * start (a reader that cannot start, its engine missing or memory short, leaves every document refused).
   * A start that failed is tried again by readiness itself, recheckMs after it (issue 54): one late on a machine
   * busy for a moment said "readers: failing" until the next document came, 100 s once, while readers could start.
   */
  usable(): boolean {
    if (this.closed) return false;
    if (this.startFailing && !this.rechecking && Date.now() - this.startFailedAt >= this.recheckMs) void this.recheck();
    return !this.startFailing;
  }

  /** A reader started for readiness alone: once it has, the pool is usable again; it waits, idle, for a document. */
  private async recheck(): Promise<void> {
    this.rechecking = true;
    const reader = this.spawn();
    reader.busy = true;
    try {
      await this.whenReady(reader);
      reader.idle = setTimeout(() => void this.stop(reader), this.idleMs).unref();
    } catch {
      // Still failing: whenReady said so, with the time, and ended the reader.
    } finally {
      reader.busy = false;
      this.rechecking = false;
    }
  }

  status(): { running: number; waiting: number; readers: Array<{ pid: number; busy: boolean; peakRssMb: number }> } {
    return {
      running: this.running,
      waiting: this.waiting.length,
      readers: this.readers.map((reader) => ({ pid: reader.child.pid ?? 0, busy: reader.busy, peakRssMb: Math.round(reader.peakRss / 1048576) })),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.reject(new ExtractionError(503, this.refusals.closed, {}, BUSY_RETRY_AFTER_S));
    const exits = this.readers.map((reader) => this.stop(reader));
    clearInterval(this.sampler);
    this.sampler = undefined;
    process.off('exit', this.killAll);
    this.exitHook = false;
    await Promise.all(exits);
  }

  private slot(signal?: AbortSignal, ticket?: ReadTicket): Promise<void> {
    if (this.closed) return Promise.reject(new ExtractionError(503, this.refusals.closed, {}, BUSY_RETRY_AFTER_S));
    if (this.running < this.workers) {
      this.running++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.queue) return Promise.reject(new ExtractionError(503, this.refusals.busy, {}, BUSY_RETRY_AFTER_S));
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: () => {
          signal?.removeEventListener('abort', leave);
          resolve();
        },
        reject,
      };
      const leave = () => {
        const at = this.waiting.indexOf(waiter);
        if (at < 0) return;
        this.waiting.splice(at, 1);
        reject(new ExtractionError(503, this.refusals.abandoned));
      };
      signal?.addEventListener('abort', leave, { once: true });
      this.waiting.push(waiter);
      if (ticket) ticket.position = () => this.waiting.indexOf(waiter) + 1;
    });
  }

  private async run(payload: Record<string, unknown>): Promise<unknown> {
    const reader = this.readers.find((one) => !one.busy && !one.dead) ?? this.spawn();
    reader.busy = true;
    clearTimeout(reader.idle);
    let timer: NodeJS.Timeout | undefined;
    try {
      await this.whenReady(reader);
      reader.took = { wall: performance.now(), cpu: await processorMs(reader.child.pid!) };
      return await new Promise<unknown>((resolve, reject) => {
        reader.job = { id: ++this.sequence, resolve, reject };
        // It ended between being chosen and getting the document.
        if (reader.dead) return reject(reader.killedFor ?? new ExtractionError(500, this.refusals.crashed));
        // The limit on its work is checked as its memory is (watch()); this cap ends one that makes no progress at all.
        const cap = this.wallCapMs ?? WALL_CAP_FACTOR * this.timeoutMs;
        // At the cap, a reader that did work past the limit (before a sample could see it) is told as the limit.
        timer = setTimeout(() => void this.capped(reader, cap), cap);
        const request = { ...payload, id: reader.job.id };
        reader.child.send(request, (error) => {
          if (error) this.kill(reader, new ExtractionError(500, this.refusals.crashed));
        });
        this.watch();
      });
    } finally {
      clearTimeout(timer);
      reader.job = undefined;
      reader.took = undefined;
      if (!reader.dead) {
        // Native memory (image buffers, the OCR engine's) is not always given back: a reader left large is replaced.
        // Its own memory: the native tesseract it keeps started for the next document (ocr.ts) is no leak.
        const rss = await ownResidentBytes(reader.child.pid!);
        if (rss !== null && rss > this.memoryMb * 1048576 * RECYCLE_SHARE) void this.stop(reader);
        // A reader left idle gives its memory back; the next document starts another.
        else reader.idle = setTimeout(() => (this.keepOne && this.readers.filter((one) => !one.dead).length <= 1 ? undefined : void this.stop(reader)), this.idleMs).unref();
      }
      reader.busy = false;
    }
  }

  private spawn(): Reader {
    const { file, loader } = processModule(this.kind);
    const child = fork(file, [this.engine, String(this.memoryMb), JSON.stringify(this.tesseract)], {
      execArgv: [...loader, `--max-old-space-size=${this.memoryMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let ready!: () => void;
    let failed!: (error: Error) => void;
    const reader: Reader = { child, ready: new Promise<void>((resolve, reject) => ((ready = resolve), (failed = reject))), busy: false, dead: false, rss: 0, peakRss: 0 };
    reader.ready.catch(() => undefined);
    child.on('message', (message: { kind: string; id?: number; result?: unknown; status?: number; key?: string; params?: MessageParams }) => {
      if (message.kind === 'ready') {
        this.startFailing = false;
        return ready();
      }
      const job = reader.job;
      if (!job || job.id !== message.id) return;
      if (message.kind === 'done') job.resolve(message.result!);
      else job.reject(new ExtractionError(message.status ?? 422, isMessageKey(message.key) ? message.key : this.refusals.failed, message.params ?? {}));
    });
    const gone = (signal: NodeJS.Signals | null) => {
      reader.dead = true;
      this.readers = this.readers.filter((one) => one !== reader);
      failed(new Error('the reader ended before it was ready'));
      // V8 out of heap aborts the process (SIGABRT): the memory cap by another name. A reader the pool killed has
      // already answered its document.
      const crash = signal === 'SIGABRT' ? new ExtractionError(422, this.refusals.memory) : new ExtractionError(500, this.refusals.crashed);
      reader.job?.reject(reader.killedFor ?? crash);
    };
    child.on('exit', (_code, signal) => gone(signal));
    child.on('error', () => {
      if (!reader.dead) this.kill(reader, new ExtractionError(500, this.refusals.crashed));
    });
    if (!this.exitHook) process.on('exit', this.killAll);
    this.exitHook = true;
    this.readers.push(reader);
    return reader;
  }

  private async whenReady(reader: Reader): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('late')), this.startTimeoutMs);
    });
    try {
      await Promise.race([reader.ready, late]);
    } catch {
      this.startFailing = true;
      this.startFailedAt = Date.now();
      this.kill(reader, new ExtractionError(503, this.refusals.start, {}, BUSY_RETRY_AFTER_S));
      throw new ExtractionError(503, this.refusals.start, {}, BUSY_RETRY_AFTER_S);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends a reader at once; its document (if any) gets `reason`. */
  private kill(reader: Reader, reason: ExtractionError): void {
    clearTimeout(reader.idle);
    if (!reader.dead) {
      reader.dead = true;
      reader.killedFor = reason;
      this.readers = this.readers.filter((one) => one !== reader);
      // A program the reader runs (a native tesseract) ends with it: its children are read before it goes.
      for (const child of reader.child.pid ? childrenOf(reader.child.pid) : []) {
        try {
          process.kill(child, 'SIGKILL');
        } catch {
          // Ended meanwhile.
        }
      }
      reader.child.kill('SIGKILL');
    }
    reader.job?.reject(reason);
  }

  /** The reader's work on its document so far (see watch()); null when it has none. */
  private workOf(reader: Reader, cpu: number | null): number | null {
    const took = reader.took;
    if (!took || reader.dead) return null;
    const elapsed = performance.now() - took.wall;
    return cpu === null || took.cpu === null ? elapsed : Math.min(cpu - took.cpu, elapsed);
  }

  /** Ends a reader whose work on its document passed the time limit. */
  private checkWork(reader: Reader, cpu: number | null): void {
    const work = this.workOf(reader, cpu);
    if (work !== null && work > this.timeoutMs) this.kill(reader, new ExtractionError(504, this.refusals.timeout, { seconds: Math.round(this.timeoutMs / 1000) }));
  }

  /** The safety cap reached: a reader that worked past the limit is told as the limit, one that made no progress as stalled. */
  private async capped(reader: Reader, cap: number): Promise<void> {
    const work = this.workOf(reader, await processorMs(reader.child.pid!));
    if (work === null) return;
    if (work > this.timeoutMs) this.kill(reader, new ExtractionError(504, this.refusals.timeout, { seconds: Math.round(this.timeoutMs / 1000) }));
    else this.kill(reader, new ExtractionError(504, this.refusals.stalled, { seconds: Math.round(cap / 1000) }));
  }

  /** Ends an idle reader (closing, or replaced) and waits for it to exit. */
  private stop(reader: Reader): Promise<void> {
    const { child } = reader;
    const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
    this.kill(reader, new ExtractionError(503, this.refusals.closed, {}, BUSY_RETRY_AFTER_S));
    return exited;
  }

  /**
   * Samples the busy readers every 100 ms while any is busy: one over the memory cap is killed (422), and one whose work
   * on its document passed the time limit (504): its processor time since it took the document, or the time since
   * then when that is less (a reader whose threads ran side by side), or that time alone where /proc cannot be read.
   */
  private watch(): void {
    if (this.sampler) return;
    this.sampler = setInterval(() => {
      const busy = this.readers.filter((reader) => reader.busy && !reader.dead);
      if (!busy.length) {
        clearInterval(this.sampler);
        this.sampler = undefined;
        return;
      }
      if (this.sampling) return;
      this.sampling = true;
      void Promise.all(
        busy.map(async (reader) => {
          const [rss, cpu] = await Promise.all([residentBytes(reader.child.pid!), processorMs(reader.child.pid!)]);
          if (rss !== null) {
            reader.rss = rss;
            reader.peakRss = Math.max(reader.peakRss, rss);
            if (rss > this.memoryMb * 1048576) return this.kill(reader, new ExtractionError(422, this.refusals.memory));
          }
          this.checkWork(reader, cpu);
        }),
      ).finally(() => (this.sampling = false));
    }, SAMPLE_MS);
    this.sampler.unref();
  }
}

/** A receipt-like line of print, made once: what warm() has each reader read (engine models loaded, code run once). */
let warmUp: Promise<{ sample: Buffer; type: DocumentType }> | undefined;
function warmUpPicture(): Promise<{ sample: Buffer; type: DocumentType }> {
  warmUp ??= import('sharp').then(async ({ default: sharp }) => ({
    sample: await sharp(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="480" height="120"><rect width="100%" height="100%" fill="#fff"/><text x="20" y="50" font-family="DejaVu Sans, sans-serif" font-size="28">TOTAL 12,50</text><text x="20" y="95" font-family="DejaVu Sans, sans-serif" font-size="28">25/11/2026</text></svg>')).png().toBuffer(),
    type: 'image/png' as DocumentType,
  }));
  return warmUp;
}
