/**
 * Issue 51: an English console told a user to type a date as "dd/mm/aaaa". Every text of each catalogue writes the
 * day's pattern in its own language: dd/mm/yyyy in English, dd/mm/aaaa in Spanish, never the other's.
 */
import { describe, expect, it } from 'vitest';
import { appEn } from '../../src/i18n/app-en';
import { appEs } from '../../src/i18n/app-es';

type Tree = { [key: string]: string | Tree };
const texts = (tree: Tree, prefix = ''): Array<[string, string]> =>
  Object.entries(tree).flatMap(([key, value]) => (typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : texts(value, `${prefix}${key}.`)));

describe("the date pattern in the console's texts", () => {
  it.each([
    ['en', appEn, /\baaaa\b|\bdd\/mm\/aa\b/i, 'dd/mm/yyyy'],
    ['es', appEs, /\byyyy\b/i, 'dd/mm/aaaa'],
  ] as const)('%s writes it in its own language only', (_, catalogue, other, own) => {
    const all = texts(catalogue as unknown as Tree);
    expect(all.filter(([, text]) => other.test(text))).toEqual([]);
    const date = (catalogue as unknown as { app: { inputs: { date: Record<string, string> } } }).app.inputs.date;
    expect(date.placeholder).toBe(own);
    expect(date.invalid).toContain(own);
  });
});
