/**
 * The embedded database in its own thread (server/db/pglite-thread.ts): what the server's code observes must be what
 * PGlite in the same thread gave it (rows and their types, PostgreSQL's errors with their codes, transactions that
 * commit or leave nothing), and a script that uses it ends when its work is done.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db';
import { memoryDatabase } from './helpers';

let db: Db;
beforeAll(async () => {
  db = await memoryDatabase();
  await db.exec('CREATE TABLE thing (id int PRIMARY KEY, label text NOT NULL, day date, at timestamp(0), price numeric(18,2), data bytea, tags text[])');
});
afterAll(() => db.close());

describe('PGlite in its own thread', () => {
  it('answers rows with the types PGlite gives: dates, timestamps, numbers, bytes, arrays', async () => {
    await db.query('INSERT INTO thing VALUES ($1, $2, $3, $4, $5, $6, $7)', [1, 'uno', '2026-03-01', '2026-03-01 10:20:30', 12.5, Buffer.from([1, 2, 3]), ['a', 'b']]);
    const [row] = await db.query<Record<string, unknown>>('SELECT * FROM thing WHERE id = $1', [1]);
    expect(row.label).toBe('uno');
    expect(row.at).toBeInstanceOf(Date);
    expect((row.at as Date).toISOString()).toBe('2026-03-01T10:20:30.000Z');
    expect(Number(row.price)).toBe(12.5);
    expect([...(row.data as Uint8Array)]).toEqual([1, 2, 3]);
    expect(row.tags).toEqual(['a', 'b']);
  });

  it("passes PostgreSQL's errors on with their code and constraint, and the connection goes on", async () => {
    const error = await db.query('INSERT INTO thing (id, label) VALUES (1, $1)', ['otra']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 'thing_pkey', message: expect.stringContaining('duplicate key') });
    const asked = async function askedHere() {
      return db.query('SELECT nope FROM thing');
    };
    const missing = (await asked().catch((caught: unknown) => caught)) as Error & { code?: string };
    expect(missing.code).toBe('42703');
    // The stack names the code that asked, not the thread's internals.
    expect(missing.stack).toContain('askedHere');
    expect(await db.query('SELECT count(*)::int AS n FROM thing')).toEqual([{ n: 1 }]);
  });

  it('commits a transaction whole, and leaves nothing of one that failed', async () => {
    const result = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO thing (id, label) VALUES (2, $1)', ['dos']);
      await tx.query('INSERT INTO thing (id, label) VALUES (3, $1)', ['tres']);
      return 'done';
    });
    expect(result).toBe('done');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO thing (id, label) VALUES (4, $1)', ['cuatro']);
        await tx.query('INSERT INTO thing (id, label) VALUES (2, $1)', ['dos otra vez']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO thing (id, label) VALUES (5, $1)', ['cinco']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await db.query<{ id: number }>('SELECT id FROM thing ORDER BY id')).map((row) => row.id)).toEqual([1, 2, 3]);
  });

  it('keeps a query from outside a transaction out of it until it ends (it sees the transaction committed)', async () => {
    let outside: Promise<Array<{ n: number }>> | undefined;
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO thing (id, label) VALUES (6, $1)', ['seis']);
      outside = db.query<{ n: number }>('SELECT count(*)::int AS n FROM thing WHERE id = 6');
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.query('UPDATE thing SET label = $1 WHERE id = 6', ['seis!']);
    });
    expect(await outside).toEqual([{ n: 1 }]);
  });

  it('answers many queries at once, each with its own rows', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, (_, index) => db.query<{ n: number }>('SELECT $1::int * 2 AS n', [index])));
    expect(answers.map(([row]) => row.n)).toEqual(Array.from({ length: 200 }, (_, index) => index * 2));
  });

  it('refuses queries once closed, with a clear message', async () => {
    const other = await memoryDatabase();
    await other.close();
    await expect(other.query('SELECT 1')).rejects.toThrow('The embedded database is closed');
  });

  it('lets a script end when its work is done, closed or not, and keeps it alive while a query runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'backoffice-thread-'));
    try {
      const script = [
        "const { openDatabase } = await import('./server/db/index.ts');",
        `const db = await openDatabase({ dataDir: ${JSON.stringify(dir)} });`,
        "const [row] = await db.query('SELECT 41 + 1 AS answer FROM pg_sleep(0.3)');",
        'console.log(JSON.stringify(row));',
      ].join('\n');
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: process.cwd(), timeout: 60_000 });
      expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({ answer: 42 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
