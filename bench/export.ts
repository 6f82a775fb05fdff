/**
 * A whole export of the move list (issue 54, item 3) as the console makes it: POST /odoo/moves/search page after
 * page of 500 rows on the real server (buildApp, listening, the embedded store with its demo data and `--moves` bulk
 * moves), each page after the previous page's cursor (`next`, as the data provider sends it), read by the console's
 * readWholeList and written at once as CSV lines (csvLines), so that only text is kept. Prints the rows written, the
 * time, and the heap and RSS before, at their highest and after, sampled after each page. Nothing fails on a figure;
 * the issue's aim: 50,000 rows at flat memory.
 *   node --import tsx bench/export.ts [--moves 50000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { bulkMoves } from '../server/erp/embedded/bulk';
import { csvLines } from '../src/custom/csv';
import { readWholeList } from '../src/custom/wholePages';
import { freePort } from '../test/support/free-port';

const { values } = parseArgs({ options: { moves: { type: 'string', default: '50000' } } });
const moves = Number(values.moves);
const PER_PAGE = 500;

const dataDir = mkdtempSync(join(tmpdir(), 'bench-export-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const app = await buildApp(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'memory://', PUBLIC_URL: url, PORT: String(port), LOG_LEVEL: 'silent' }), { seedErp: true });
await app.listen({ port, host: '127.0.0.1' });
const [admin] = await app.services.db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', ['admin@demo.example']);
const token = await app.services.sessions.issue(admin.id);

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
try {
  await bulkMoves(app.services.db as never, moves);
  // The columns the console writes, read from the row as the list reads it (the texts are not translated here).
  const columns: Array<(row: Record<string, unknown>) => string | number | null> = [
    (row) => row.name as string,
    (row) => (Array.isArray(row.partner_id) ? String(row.partner_id[1]) : ''),
    (row) => row.date as string,
    (row) => row.ref as string,
    (row) => (Array.isArray(row.company_id) ? String(row.company_id[1]) : ''),
    (row) => row.amount_untaxed_signed as number,
    (row) => row.amount_total_signed as number,
    (row) => row.state as string,
  ];
  global.gc?.();
  const before = process.memoryUsage();
  let highestHeap = before.heapUsed;
  let highestRss = before.rss;
  const parts: string[] = [csvLines([['Número', 'Proveedor', 'Fecha', 'Referencia', 'Empresa', 'Base', 'Total', 'Estado']], 'es')];
  let after: string | undefined;
  let pages = 0;
  const started = performance.now();
  const rows = await readWholeList<Record<string, unknown>>({
    perPage: PER_PAGE,
    limit: 1_000_000,
    readPage: async (pageNumber, numberOfRecords) => {
      const body = { pageNumber, numberOfRecords, ...(after ? { after } : {}) };
      const response = await fetch(`${url}/odoo/moves/search`, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (!response.ok) throw new Error(`page ${pageNumber}: ${response.status} ${await response.text()}`);
      const json = (await response.json()) as { moves: Array<Record<string, unknown>>; total: number; totalIsLowerBound?: boolean; next?: string };
      after = json.next;
      return { data: json.moves, total: json.total, totalIsLowerBound: json.totalIsLowerBound };
    },
    onPage: (records) => {
      parts.push(csvLines(records.map((record) => columns.map((column) => column(record))), 'es'));
      pages += 1;
      const now = process.memoryUsage();
      highestHeap = Math.max(highestHeap, now.heapUsed);
      highestRss = Math.max(highestRss, now.rss);
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const text = parts.reduce((sum, part) => sum + part.length, 0);
  global.gc?.();
  const end = process.memoryUsage();
  console.log(`${rows} of ${moves} bulk moves (+ the demo's) written in ${pages} pages of ${PER_PAGE}, ${seconds.toFixed(1)} s (${Math.round(rows / seconds)} rows/s); CSV text ${mb(text * 2)} as UTF-16 in memory`);
  console.log(`heap: ${mb(before.heapUsed)} before, ${mb(highestHeap)} at most, ${mb(end.heapUsed)} after${global.gc ? ' (after a GC)' : ''}; RSS: ${mb(before.rss)} before, ${mb(highestRss)} at most`);
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
