import { describe, expect, it } from 'vitest';
import { busyWait, withBusyRetry } from '../../src/providers/busyRetry';

const busy = (retryAfter?: number) => Object.assign(new Error('busy'), { status: 503, body: { code: 'extract.busy', ...(retryAfter ? { retryAfter } : {}) } });

describe('a reading asked again while the readers are busy (issue 30)', () => {
  it('knows a busy reader by its 503 and code, and waits what the server says (5 s when it says nothing, 30 s at most)', () => {
    expect(busyWait(busy(2))).toBe(2);
    expect(busyWait(busy())).toBe(5);
    expect(busyWait(busy(600))).toBe(30);
    expect(busyWait(Object.assign(new Error('erp'), { status: 503, body: { code: 'erp.unavailable' } }))).toBeUndefined();
    expect(busyWait(Object.assign(new Error('bad'), { status: 422, body: { code: 'extract.unreadable' } }))).toBeUndefined();
    expect(busyWait(new TypeError('Failed to fetch'))).toBeUndefined();
  });

  it('asks again after each wait, and gives up with the refusal once the patience is spent', async () => {
    let clock = 0;
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
      clock += ms;
    };
    let calls = 0;
    await expect(withBusyRetry(async () => (++calls < 3 ? Promise.reject(busy(2)) : 'read'), { sleep, now: () => clock })).resolves.toBe('read');
    expect(waits).toEqual([2000, 2000]);
    calls = 0;
    clock = 0;
    waits.length = 0;
    await expect(withBusyRetry(async () => Promise.reject(busy(30)), { sleep, now: () => clock, patienceMs: 100_000 })).rejects.toThrow('busy');
    expect(waits).toEqual([30_000, 30_000, 30_000]);
    // Any other failure is not asked again.
    calls = 0;
    await expect(withBusyRetry(async () => (calls++, Promise.reject(new Error('unreadable'))), { sleep, now: () => clock })).rejects.toThrow('unreadable');
    expect(calls).toBe(1);
  });
});
