import { afterEach, describe, expect, it, vi } from 'vitest';
import { ANSWER_PATIENCE_MS, watchAnswer } from '../../src/providers/watchdog';

/** Issue 51, item 4: when a call that waits is given up. */
describe('the watch over a call without its answer', () => {
  afterEach(() => vi.useRealTimers());
  const tick = async () => {
    await vi.advanceTimersByTimeAsync(ANSWER_PATIENCE_MS);
  };

  it('gives the call up when the server does not say it is there, and never while it does', async () => {
    vi.useFakeTimers();
    let there = true;
    const gaveUp = vi.fn();
    const stop = watchAnswer(gaveUp, { ask: async () => there });
    await tick();
    await tick();
    expect(gaveUp).not.toHaveBeenCalled();
    there = false;
    await tick();
    expect(gaveUp).toHaveBeenCalledTimes(1);
    stop();
  });

  it('asks twice more when six calls wait (the question may wait behind them), then gives up', async () => {
    vi.useFakeTimers();
    const gaveUp = vi.fn();
    const stops = Array.from({ length: 6 }, () => watchAnswer(gaveUp, { ask: async () => false }));
    await tick();
    await tick();
    expect(gaveUp).not.toHaveBeenCalled();
    await tick();
    expect(gaveUp).toHaveBeenCalledTimes(6);
    stops.forEach((stop) => stop());
  });

  it('stops watching once the answer has come', async () => {
    vi.useFakeTimers();
    const gaveUp = vi.fn();
    watchAnswer(gaveUp, { ask: async () => false })();
    await tick();
    expect(gaveUp).not.toHaveBeenCalled();
  });
});
