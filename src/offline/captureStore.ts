/**
 * The capture queue's storage (issue 33, item 2): moves captured without a network, kept in the browser's IndexedDB
 * until they are sent, so they outlive a closed tab; and files shared to the app (the service worker writes those,
 * src/offline/sw.js, in the same database and store). Injectable: tests use memoryStore().
 */
import type { PossibleDuplicate } from '../resources/moves/duplicates';
import type { DuplicateAnswer } from '../../shared/domain/duplicates';

/**
 * - waiting: to be sent when the network answers;
 * - duplicate: the server warned it may repeat moves the company has: the user saves it anyway or discards it;
 * - refused: the server refused it (its message kept): the user reads why and discards it, or sends it again;
 * - shared: a file shared to the app, to be filled in on the Move page.
 */
export type CaptureStatus = 'waiting' | 'duplicate' | 'refused' | 'shared';

export interface Capture {
  /** The submission's Idempotency-Key (a shared file's own id): every send of it is the same move. */
  id: string;
  createdAt: number;
  status: CaptureStatus;
  /** Who captured it (their e-mail): sent, and shown, only while they are signed in. A shared file has none. */
  owner?: string;
  /** POST /odoo/moves/create's body, the file in it as a data: URL. */
  body?: Record<string, unknown>;
  onDuplicate?: DuplicateAnswer;
  /** Why it is not sent: the server's words, or a message key. */
  message?: string;
  duplicates?: PossibleDuplicate[];
  /** A shared file. */
  file?: Blob;
  fileName?: string;
  fileType?: string;
}

export interface CaptureStore {
  all(): Promise<Capture[]>;
  get(id: string): Promise<Capture | undefined>;
  put(capture: Capture): Promise<void>;
  remove(id: string): Promise<void>;
}

export const DATABASE = 'backoffice-offline';
export const STORE = 'captures';
/** Told (BroadcastChannel) whenever the queue changes: the other tabs, and the page after a share. */
export const CHANNEL = 'backoffice-captures';

function request<T>(run: (store: IDBObjectStore) => IDBRequest<T>, mode: IDBTransactionMode): Promise<T> {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(DATABASE, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(STORE, { keyPath: 'id' });
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const db = opening.result;
      const transaction = db.transaction(STORE, mode);
      const asked = run(transaction.objectStore(STORE));
      transaction.oncomplete = () => {
        db.close();
        resolve(asked.result);
      };
      transaction.onerror = () => {
        db.close();
        reject(transaction.error);
      };
    };
  });
}

/** The queue in IndexedDB: oldest first. */
export function indexedDbStore(): CaptureStore {
  return {
    all: async () => (await request((store) => store.getAll() as IDBRequest<Capture[]>, 'readonly')).sort((a, b) => a.createdAt - b.createdAt),
    get: async (id) => (await request((store) => store.get(id) as IDBRequest<Capture | undefined>, 'readonly')) ?? undefined,
    put: async (capture) => void (await request((store) => store.put(capture), 'readwrite')),
    remove: async (id) => void (await request((store) => store.delete(id), 'readwrite')),
  };
}

/** The queue in memory (tests, and a browser without IndexedDB). */
export function memoryStore(initial: Capture[] = []): CaptureStore {
  const items = new Map(initial.map((capture) => [capture.id, capture]));
  return {
    all: async () => [...items.values()].sort((a, b) => a.createdAt - b.createdAt),
    get: async (id) => items.get(id),
    put: async (capture) => void items.set(capture.id, capture),
    remove: async (id) => void items.delete(id),
  };
}

let current: CaptureStore | undefined;

/** The page's queue: IndexedDB where the browser has it. */
export function captureStore(): CaptureStore {
  current ??= typeof indexedDB === 'undefined' ? memoryStore() : indexedDbStore();
  return current;
}

/** Tests: the queue the page uses. */
export function setCaptureStore(store: CaptureStore | undefined): void {
  current = store;
}

/** Tells this tab's and the other tabs' queue views that the queue changed. */
export function announceChange(): void {
  window.dispatchEvent(new Event(CHANNEL));
  if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(CHANNEL);
    channel.postMessage('changed');
    channel.close();
  }
}
