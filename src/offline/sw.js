/**
 * The console's service worker (issue 33, item 2: offline on a phone). Built by scripts/service-worker.ts, which puts
 * in the build's file list and version; served as /sw.js, never cached by the browser (the server's no-cache).
 *
 * - The shell (index.html, every hashed script and style, the icons and the manifest) is cached when the worker
 *   installs, after the page has loaded: /move opens without a network on the next visit.
 * - Page navigations: the network first, the cached index.html when it cannot be reached.
 * - Hashed files (/assets/*): from the cache first (their name changes with their content).
 * - The API is never answered from a cache, except the few reference answers the Move form needs to be filled in
 *   offline (the signed-in user, the companies with their projects, the suppliers): the network first, and the last
 *   good answer only when the network fails, kept per signed-in token (another user of the phone never sees them).
 * - Android's share sheet (the manifest's share_target) posts files to /share-target: they are kept in the capture
 *   queue (IndexedDB, the same database as src/offline/captureStore.ts) and the Move page opens to fill them in.
 */
const PRECACHE = self.__PRECACHE__;
const VERSION = self.__VERSION__;
/** The server's API (server/paths.ts): never answered by the worker, but for the reference answers below. */
const API_PREFIXES = self.__API_PREFIXES__;
const SHELL_CACHE = `shell-${VERSION}`;
const REFERENCE_CACHE = 'reference-answers';
/** GET answers kept for offline use: the network first, always. */
const REFERENCE_PATHS = ['/users/me', '/odoo/companies', '/odoo/providers'];
/** The same database, store and message as src/offline/captureStore.ts. */
const DATABASE = 'backoffice-offline';
const STORE = 'captures';
const CHANNEL = 'backoffice-captures';

self.addEventListener('install', (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

/**
 * Every file of the shell, at low priority: the first visit's page may still be loading its screen, which goes first.
 * All or nothing, as cache.addAll: a file that fails fails the install, tried again at the next visit.
 */
async function precache() {
  const cache = await caches.open(SHELL_CACHE);
  const answers = await Promise.all(
    PRECACHE.map(async (path) => {
      const answer = await fetch(new Request(path, { cache: 'no-cache', priority: 'low' }));
      if (!answer.ok) throw new Error(`${path}: ${answer.status}`);
      return [path, answer];
    }),
  );
  await Promise.all(answers.map(([path, answer]) => cache.put(path, answer)));
}

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith('shell-') && name !== SHELL_CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === 'POST' && url.pathname === '/share-target') return event.respondWith(shared(request));
  if (request.method !== 'GET') return;
  if (REFERENCE_PATHS.includes(url.pathname)) return event.respondWith(reference(request));
  if (API_PREFIXES.some((prefix) => url.pathname === prefix || url.pathname.startsWith(`${prefix}/`))) return;
  if (request.mode === 'navigate') return event.respondWith(page(request));
  if (PRECACHE.includes(url.pathname)) event.respondWith(caches.match(url.pathname).then((cached) => cached || fetch(request)));
});

/**
 * How long a page's navigation waits for the server before the cached shell is answered: a server that takes the
 * request and answers nothing (paused, a proxy holding it) left the reload blank for ever (issue 51). The shell's
 * own calls then say the server cannot be reached (src/providers/watchdog.ts).
 */
const NAVIGATION_WAIT_MS = 4000;

/** A page: the server's answer, else (unreachable, or silent past NAVIGATION_WAIT_MS) the cached shell. */
async function page(request) {
  const network = fetch(request);
  // Answered late, after the shell was: nothing to do with it.
  network.catch(() => undefined);
  const shell = caches.match('/index.html');
  const late = new Promise((resolve) => setTimeout(resolve, NAVIGATION_WAIT_MS)).then(async () => (await shell) || network);
  try {
    return await Promise.race([network, late]);
  } catch (error) {
    const cached = await shell;
    if (cached) return cached;
    throw error;
  }
}

/** The key a reference answer is kept under: its address, the company it was asked for and a digest of the token. */
async function referenceKey(request) {
  const token = request.headers.get('authorization') || '';
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  const user = [...new Uint8Array(digest)].slice(0, 12).map((byte) => byte.toString(16).padStart(2, '0')).join('');
  const key = new URL(request.url);
  key.searchParams.set('sw-user', user);
  key.searchParams.set('sw-company', request.headers.get('x-company-id') || '');
  return key.toString();
}

async function reference(request) {
  const key = await referenceKey(request);
  const cache = await caches.open(REFERENCE_CACHE);
  const network = fetch(request).then(async (answer) => {
    if (answer.ok) await cache.put(key, answer.clone());
    // Signed out or revoked: nothing of that user's is kept.
    else if (answer.status === 401) await cache.delete(key);
    return answer;
  });
  network.catch(() => undefined);
  // A server that answers nothing is as good as none: the last good answer after NAVIGATION_WAIT_MS (the network's
  // answer still refreshes the cache when it comes).
  const late = new Promise((resolve) => setTimeout(resolve, NAVIGATION_WAIT_MS)).then(async () => (await cache.match(key)) || network);
  try {
    return await Promise.race([network, late]);
  } catch (error) {
    const cached = await cache.match(key);
    if (cached) return cached;
    throw error;
  }
}

/** Files shared to the app: queued to be filled in, then the Move page. */
async function shared(request) {
  try {
    const form = await request.formData();
    const files = form.getAll('files').filter((file) => typeof file !== 'string' && file.size > 0);
    const db = await openDatabase();
    await new Promise((resolve, reject) => {
      const transaction = db.transaction(STORE, 'readwrite');
      files.forEach((file, index) =>
        transaction.objectStore(STORE).put({ id: crypto.randomUUID(), createdAt: Date.now() + index, status: 'shared', file, fileName: file.name, fileType: file.type }),
      );
      transaction.oncomplete = resolve;
      transaction.onerror = () => reject(transaction.error);
    });
    db.close();
    new BroadcastChannel(CHANNEL).postMessage('changed');
  } catch {
    // Nothing kept: the Move page opens all the same, where the file can be chosen again.
  }
  return Response.redirect('/move?shared=1', 303);
}

function openDatabase() {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(DATABASE, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(STORE, { keyPath: 'id' });
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
}
