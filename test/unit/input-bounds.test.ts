/**
 * Issue 54, item 1: walkBounded (server/input-bounds.ts) refuses a list longer than its schema declares, or than
 * MAX_ITEMS where it declares none, before reading one item; a body too deep or of too many values; and leaves to the
 * schema what it refuses by itself (a text longer than its maximum, a list where none is expected, an unknown key).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_DEPTH, MAX_ITEMS, MAX_VALUES, walkBounded } from '../../server/input-bounds';

/** The texts the walk reads, and a refusal for one holding a NUL. */
function walked(body: unknown, schema?: unknown) {
  const read: string[] = [];
  const refusal = walkBounded(body, schema, (text, path) => {
    read.push(text);
    return text.includes('\u0000') ? { key: 'validation.nul', params: {}, field: path.join('.') } : undefined;
  });
  return { refusal, read };
}

const search = z.preprocess(
  (value) => value ?? {},
  z.object({ company: z.union([z.array(z.union([z.number(), z.string().max(200)])).max(100), z.number(), z.null()]).optional(), reference: z.string().max(200).optional() }).strict(),
);

describe('walkBounded', () => {
  it("leaves a list longer than the schema's maximum to the schema, which refuses it by its length: its items are not read", () => {
    const items = Array.from({ length: 1_000_000 }, (_, index) => `name ${index}`);
    const { refusal, read } = walked({ company: items }, search);
    expect(refusal).toBeUndefined();
    expect(read).toEqual(['company']);
    expect(search.safeParse({ company: items }).error?.issues[0]).toMatchObject({ code: 'invalid_union' });
  });

  it('reads a list within its maximum, and refuses an unstorable text in it by its place', () => {
    expect(walked({ company: ['Acme', 'Bet\u0000a'] }, search).refusal).toEqual({ key: 'validation.nul', params: {}, field: 'company.1' });
    expect(walked({ company: Array.from({ length: 100 }, (_, index) => index) }, search).refusal).toBeUndefined();
  });

  it('leaves to the schema a text longer than its maximum and a key it does not know: neither is read', () => {
    const long = 'x'.repeat(10_000_000);
    expect(walked({ reference: long }, search)).toEqual({ refusal: undefined, read: ['reference'] });
    expect(walked({ unknown: [long] }, search)).toEqual({ refusal: undefined, read: ['unknown'] });
  });

  it(`bounds a list the schema declares no maximum for, or a body with no schema, at ${MAX_ITEMS} items`, () => {
    const ids = Array.from({ length: MAX_ITEMS + 1 }, (_, index) => index);
    expect(walked({ ids }, z.object({ ids: z.array(z.number()) })).refusal).toEqual({ key: 'validation.itemsMax', params: { maximum: MAX_ITEMS }, field: 'ids' });
    expect(walked({ ids }).refusal).toEqual({ key: 'validation.itemsMax', params: { maximum: MAX_ITEMS }, field: 'ids' });
    expect(walked({ ids: ids.slice(1) }).refusal).toBeUndefined();
  });

  it('refuses a body too deep, or of too many values, before reading the rest', () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level <= MAX_DEPTH; level++) deep = [deep];
    expect(walked(deep).refusal).toEqual({ key: 'request.tooDeep', params: { maximum: MAX_DEPTH } });
    const wide = Object.fromEntries(Array.from({ length: 300 }, (_, row) => [`row${row}`, Array.from({ length: 1000 }, (_, index) => index)]));
    const { refusal, read } = walked(wide);
    expect(refusal).toEqual({ key: 'request.tooManyValues', params: { maximum: MAX_VALUES } });
    expect(read.length).toBeLessThan(150);
  });

  it('reads every text of a value whose schema says nothing of its shape', () => {
    expect(walked({ data: { note: 'a\u0000b' } }, z.object({ data: z.unknown() })).refusal).toEqual({ key: 'validation.nul', params: {}, field: 'data.note' });
  });
});
