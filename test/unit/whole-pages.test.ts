import { describe, expect, it } from 'vitest';
import { readWholeList, TooManyRowsError, WholePageError, type WholePage, type WholeProgress } from '../../src/custom/wholePages';

/** A server of `count` rows (ids 1..count) paged as the searches page them; `total` and `more` as its count says. */
function server(count: number, { total = count, more = false, failAt = 0 } = {}) {
  const asked: number[] = [];
  const readPage = async (page: number, perPage: number): Promise<WholePage<number>> => {
    asked.push(page);
    if (page === failAt) throw Object.assign(new Error('boom'), { status: 502 });
    const from = (page - 1) * perPage;
    return { data: Array.from({ length: Math.max(0, Math.min(perPage, count - from)) }, (_, index) => from + index + 1), total, totalIsLowerBound: more };
  };
  return { asked, readPage };
}

async function readAll(count: number, perPage: number, options: Parameters<typeof server>[1] & { limit?: number } = {}) {
  const { asked, readPage } = server(count, options);
  const rows: number[] = [];
  const progress: WholeProgress[] = [];
  const done = await readWholeList({ readPage, perPage, limit: options.limit ?? 1_000_000, onPage: (page, next) => (rows.push(...page), progress.push(next)) });
  return { asked, rows, progress, done };
}

describe('readWholeList', () => {
  it('reads 1,234 rows in pages of 500 as three pages, every row once and in order', async () => {
    const { asked, rows, progress, done } = await readAll(1234, 500);
    expect(done).toBe(1234);
    expect(rows).toEqual(Array.from({ length: 1234 }, (_, index) => index + 1));
    expect(asked).toEqual([1, 2, 3]);
    expect(progress).toEqual([
      { done: 500, total: 1234, more: false },
      { done: 1000, total: 1234, more: false },
      { done: 1234, total: 1234, more: false },
    ]);
  });

  it('stops after the page that reaches an exact count, without asking an empty page', async () => {
    const { asked, done } = await readAll(1000, 500);
    expect(done).toBe(1000);
    expect(asked).toEqual([1, 2]);
  });

  it('reads past a count that is only a lower bound ("more than 10,000") until the short page', async () => {
    const { asked, done, progress } = await readAll(12_345, 1000, { total: 10_000, more: true });
    expect(done).toBe(12_345);
    expect(asked).toHaveLength(13);
    expect(progress.at(-1)).toEqual({ done: 12_345, total: 10_000, more: true });
  });

  it('reads an empty list with one request', async () => {
    const { asked, done } = await readAll(0, 500);
    expect(done).toBe(0);
    expect(asked).toEqual([1]);
  });

  it('names the page that failed and how many rows were read before it', async () => {
    const error = await readAll(5042, 500, { failAt: 4 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WholePageError);
    expect(error).toMatchObject({ page: 4, done: 1500, reason: { status: 502 } });
  });

  it('refuses before the first page is kept when the exact count is over the limit', async () => {
    const { readPage } = server(5042);
    const kept: number[] = [];
    const error = await readWholeList({ readPage, perPage: 500, limit: 5000, onPage: (page) => kept.push(...page) }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TooManyRowsError);
    expect(kept).toEqual([]);
  });

  it('stops at the limit when the count was only a lower bound', async () => {
    const error = await readAll(30_000, 1000, { total: 10_000, more: true, limit: 20_000 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ limit: 20_000 });
  });

  it('stops quietly when the list is left', async () => {
    const { readPage, asked } = server(5042);
    let pages = 0;
    const done = await readWholeList({ readPage, perPage: 500, limit: 1_000_000, stopped: () => pages >= 2, onPage: () => (pages += 1) });
    expect(done).toBe(1000);
    expect(asked).toEqual([1, 2]);
  });
});
