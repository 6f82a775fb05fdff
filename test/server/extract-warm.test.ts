import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ReaderPool } from '../../server/extract/pool';
import { loadConfig } from '../../server/config';

const receipt = readFileSync('/work/shared/data/sroie/train-images/000.jpg');
const pools: ReaderPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});
const idle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('readers warmed when the server starts (issue 30)', () => {
  it('has a reader loaded before the first document, reads it with that reader, and keeps it when idle', async () => {
    const pool = new ReaderPool({ workers: 1, idleMs: 200, timeoutMs: 120_000 });
    pools.push(pool);
    expect(pool.status().readers).toEqual([]);
    await pool.warm();
    const [warmed] = pool.status().readers;
    expect(warmed).toMatchObject({ busy: false });
    // Idle for several times its idle limit: the last reader is kept.
    await idle(1000);
    expect(pool.status().readers.map((one) => one.pid)).toEqual([warmed.pid]);
    const { segments } = await pool.read(receipt, 'image/jpeg');
    expect(segments.length).toBeGreaterThan(10);
    expect(pool.status().readers.map((one) => one.pid)).toEqual([warmed.pid]);
  }, 240_000);

  it('without warming, starts a reader on first use and stops it when idle', async () => {
    const pool = new ReaderPool({ workers: 1, idleMs: 200, timeoutMs: 120_000 });
    pools.push(pool);
    await pool.read(receipt, 'image/jpeg');
    expect(pool.status().readers).toHaveLength(1);
    await expect.poll(() => pool.status().readers.length, { timeout: 10_000 }).toBe(0);
  }, 240_000);

  it('after a reader started too late, readiness tries one again by itself and is ready without waiting for a document (issue 54)', async () => {
    // A start limit no reader meets: the machine busy for a moment.
    const pool = new ReaderPool({ workers: 1, idleMs: 200, timeoutMs: 120_000, startTimeoutMs: 1, recheckMs: 0 });
    pools.push(pool);
    await expect(pool.read(receipt, 'image/jpeg')).rejects.toMatchObject({ statusCode: 503 });
    expect(pool.usable()).toBe(false);
    // The machine is quiet again: a reader now starts within the limit. No document comes; readiness asks.
    Object.assign(pool, { startTimeoutMs: 120_000 });
    await expect.poll(() => pool.usable(), { timeout: 120_000, interval: 200 }).toBe(true);
  }, 240_000);

  it('warms one reader by default; EXTRACT_WARM=0 warms none', () => {
    expect(loadConfig({}).extractWarm).toBe(1);
    expect(loadConfig({ EXTRACT_WARM: '0' }).extractWarm).toBe(0);
  });
});
