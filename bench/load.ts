/**
 * Does reading documents slow the server's other requests? (issue 15) Starts the server in its own process (in-memory
 * database, loopback only), signs a token, and prints p50/p95 and requests per second of GET /users/me under load
 * (autocannon, 10 connections): alone, then while 4 bombs are read (two 20000 x 20000 PNGs and two scanned PDFs
 * holding such an image, about 0.4 MB each, made here), with how each bomb was answered, the server's peak resident
 * memory and its reader processes'. A second server lifts the pixel limits, so the bombs are decoded and the memory
 * cap and time limit must stop them.
 * Then (issue 29, item 4) a third server while 10 moves are created at once with 7000 x 7000 PNGs, then with 10
 * phone photos (4000 x 3000 JPEG): GET /users/me's p95 (target < 200 ms) and how each creation was answered.
 *   node --import tsx bench/load.ts [--seconds 5] [--workers 2] [--part all|attachments]
 * On main before issue 15, one PDF bomb took the server to 2.6 GB and stalled every request up to 6.7 s. Before issue
 * 29 the photos were resized on the server's thread: on a loaded 2-core machine, p95 2.5 s while the PNGs were
 * created (258 ms alone), 7.3 s while the JPEGs were.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { blankPng, pdfWithImage } from '../test/support/bombs';
import { autocannon } from './autocannon';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' }, workers: { type: 'string', default: '2' }, role: { type: 'string' }, lift: { type: 'boolean', default: false }, part: { type: 'string', default: 'all' } } });


/** The server process: an app on a free loopback port; it sends its address and a staff token, then serves. */
async function serve() {
  const { buildApp } = await import('../server/app');
  const { loadConfig } = await import('../server/config');
  const { Extractor } = await import('../server/extract');
  const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-load-'));
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'memory://', LOG_LEVEL: 'silent', EXTRACT_WORKERS: values.workers });
  const extractor = new Extractor({ timeoutMs: config.extractTimeoutMs, workers: config.extractWorkers, queue: config.extractQueue, memoryMb: config.extractMemoryMb, ...(values.lift ? { maxPixels: Infinity } : {}) });
  // The demo ERP (companies, journals) so that moves with attachments can be created.
  const app = await buildApp(config, { seedErp: true, extractor });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const [user] = await app.services.db.query<{ id: number }>('SELECT id FROM users WHERE lower(email) = $1', ['staff@demo.example']);
  process.send!({ url: `http://127.0.0.1:${port}`, token: await app.services.sessions.issue(user.id) });
  process.on('disconnect', () => {
    void extractor.close().finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

function residentMb(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** The server process's resident memory, and its children's (the readers), at their highest while sampling. */
function sampleMemory(pid: number) {
  const peak = { server: 0, reader: 0 };
  const timer = setInterval(() => {
    peak.server = Math.max(peak.server, residentMb(pid));
    let children: number[] = [];
    try {
      children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      // Not Linux: readers unmeasured.
    }
    for (const child of children) peak.reader = Math.max(peak.reader, residentMb(child));
  }, 50);
  return { peak, stop: () => clearInterval(timer) };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** GET /users/me under load for `seconds`, or until `until` settles. */
async function load(url: string, token: string, seconds: number, until: Promise<unknown> = Promise.resolve()) {
  const times: number[] = [];
  const statuses = new Map<number, number>();
  const started = performance.now();
  const instance = autocannon({ url: `${url}/users/me`, connections: 10, duration: 120, headers: { authorization: token } });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    times.push(responseTime);
    statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
  });
  const done = new Promise<void>((resolve) => instance.on('done', () => resolve()));
  await Promise.all([until, new Promise((resolve) => setTimeout(resolve, seconds * 1000))]);
  instance.stop();
  await done;
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const codes = [...statuses].map(([code, count]) => `${count} x ${code}`).join(', ');
  return `p50 ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms, max ${(times[times.length - 1] ?? NaN).toFixed(0)} ms, ${Math.round(times.length / elapsed)} requests/s over ${elapsed.toFixed(1)} s (${codes})`;
}

async function startServer(lift: boolean): Promise<{ child: ChildProcess; url: string; token: string }> {
  const child = fork(new URL(import.meta.url), ['--role', 'server', '--workers', values.workers!, ...(lift ? ['--lift'] : [])], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { url, token } = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { url: string; token: string }));
    child.once('exit', (code) => reject(new Error(`the server ended (${code})`)));
  });
  return { child, url, token };
}

async function round(lift: boolean, bombs: Array<{ name: string; data: string }>) {
  const seconds = Number(values.seconds);
  const { child, url, token } = await startServer(lift);
  try {
    const memory = sampleMemory(child.pid!);
    const atStart = residentMb(child.pid!);
    console.log(lift ? '\nPixel limits lifted (the bombs are decoded: the memory cap and the time limit must stop them)' : `\nA server with ${values.workers} readers, default limits`);
    console.log(`  GET /users/me alone:                ${await load(url, token, seconds)}`);
    const answers: string[] = [];
    const reading = Promise.all(
      bombs.map(async ({ name, data }) => {
        const started = performance.now();
        const response = await fetch(`${url}/ocr/move/`, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: JSON.stringify({ file: data }) });
        const body = (await response.json()) as { message?: string; result?: string };
        answers.push(`    ${name}: ${response.status} in ${((performance.now() - started) / 1000).toFixed(1)} s: ${body.message ?? body.result}`);
      }),
    );
    // Measured exactly while the bombs are in the server's hands: from the first sent to the last answered.
    console.log(`  while 4 bombs are read:             ${await load(url, token, 0, reading)}`);
    memory.stop();
    console.log(answers.join('\n'));
    console.log(
      `  resident memory: server ${Math.round(atStart)} MB once started (the in-memory database), at most ${Math.round(memory.peak.server)} MB; ` +
        `the largest reader at most ${Math.round(memory.peak.reader)} MB (sampled every 50 ms; the cap is checked every 100 ms)`,
    );
  } finally {
    child.disconnect();
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

/**
 * Attachments (issue 29, item 4): moves created at once with big photos, the resizing and recompression of which must
 * not stall the server: p50/p95 of GET /users/me while they are created, and how each creation was answered.
 */
async function attachmentsRound(batches: Array<{ label: string; name: string; data: string }>) {
  const { child, url, token } = await startServer(false);
  const today = new Date().toISOString().slice(0, 10);
  try {
    console.log(`\nAttachments: moves created at once with big photos (a server with ${values.workers} readers, default limits)`);
    console.log(`  GET /users/me alone:                ${await load(url, token, Number(values.seconds))}`);
    for (const batch of batches) {
      const statuses = new Map<string, number>();
      const times: number[] = [];
      const creating = Promise.all(
        Array.from({ length: 10 }, async (_, index) => {
          const started = performance.now();
          const response = await fetch(`${url}/odoo/moves/create`, {
            method: 'POST',
            headers: { authorization: token, 'content-type': 'application/json' },
            body: JSON.stringify({ type: 'expense', company_id: 1, date: today, amount: 10 + index, concept: `${batch.label} ${index + 1}`, paymentMethod: 'corporate_card', file: { name: batch.name, data: batch.data } }),
          });
          const body = (await response.json()) as { message?: string };
          times.push((performance.now() - started) / 1000);
          const key = response.status === 201 ? '201' : `${response.status} ${body.message ?? ''}${response.headers.get('retry-after') ? ` (Retry-After ${response.headers.get('retry-after')})` : ''}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
        }),
      );
      console.log(`  while 10 moves with ${batch.label}: ${await load(url, token, 0, creating)}`);
      console.log(`    answers: ${[...statuses].map(([key, count]) => `${count} x ${key}`).join('; ')}; the last in ${Math.max(...times).toFixed(1)} s`);
    }
  } finally {
    child.disconnect();
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

/** A phone photo's size and weight (4000 x 3000, about 5 MB of JPEG): noise enlarged, so that it compresses as a photo does. */
async function phonePhoto(): Promise<Buffer> {
  const sharp = (await import('sharp')).default;
  const noise = await sharp({ create: { width: 1000, height: 750, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).png().toBuffer();
  return sharp(noise).resize(4000, 3000, { kernel: 'cubic' }).jpeg({ quality: 90 }).toBuffer();
}

if (values.role === 'server') {
  await serve();
} else if (values.part === 'attachments') {
  setTimeout(() => {
    console.error('bench:load took over 8 minutes: stopped');
    process.exit(1);
  }, 480_000).unref();
  await attachments();
} else {
  // Bounded: whatever happens, the bench ends within 8 minutes.
  setTimeout(() => {
    console.error('bench:load took over 8 minutes: stopped');
    process.exit(1);
  }, 480_000).unref();
  const png = await blankPng(20000, 20000);
  const pdf = await pdfWithImage(png);
  console.log(`Bombs: a 20000 x 20000 PNG of ${(png.length / 1e6).toFixed(2)} MB, a scanned PDF holding it of ${(pdf.length / 1e6).toFixed(2)} MB (400 megapixels each)`);
  const bombs = [
    { name: 'PNG bomb 1', data: `data:image/png;base64,${png.toString('base64')}` },
    { name: 'PDF bomb 1', data: `data:application/pdf;base64,${pdf.toString('base64')}` },
    { name: 'PNG bomb 2', data: `data:image/png;base64,${png.toString('base64')}` },
    { name: 'PDF bomb 2', data: `data:application/pdf;base64,${pdf.toString('base64')}` },
  ];
  await round(false, bombs);
  await round(true, bombs);
  if (values.part === 'all') await attachments();
}

async function attachments() {
  const png = await blankPng(7000, 7000);
  const jpeg = await phonePhoto();
  console.log(`\nPhotos: a 7000 x 7000 PNG of ${(png.length / 1e6).toFixed(2)} MB (49 megapixels), a 4000 x 3000 JPEG of ${(jpeg.length / 1e6).toFixed(2)} MB`);
  await attachmentsRound([
    { label: '7000x7000 PNGs', name: 'scan.png', data: `data:image/png;base64,${png.toString('base64')}` },
    { label: '4000x3000 JPEGs', name: 'photo.jpg', data: `data:image/jpeg;base64,${jpeg.toString('base64')}` },
  ]);
}
