import { describe, expect, it } from 'vitest';
import englishMessages from 'ra-language-english';
import { raSpanishMessages } from '../../src/i18n/ra-es';

function flatten(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value };
  return Object.entries(value as Record<string, unknown>).reduce<Record<string, string>>(
    (all, [key, inner]) => ({ ...all, ...flatten(inner, prefix ? `${prefix}.${key}` : key) }),
    {},
  );
}

describe("Spanish catalogue of react-admin's messages", () => {
  const en = flatten(englishMessages);
  const es = flatten(raSpanishMessages);

  it('has exactly the keys of the English catalogue', () => {
    expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
  });

  it('keeps every interpolation variable and plural form', () => {
    for (const [key, english] of Object.entries(en)) {
      for (const variable of english.match(/%\{\w+\}/g) ?? []) expect(es[key], key).toContain(variable);
      expect(es[key].includes('||||'), key).toBe(english.includes('||||'));
    }
  });
});
