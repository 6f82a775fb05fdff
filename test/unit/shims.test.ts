import { describe, expect, it } from 'vitest';
import * as realQueryString from 'query-string';
import * as realInflection from 'inflection';
import * as queryString from '../../src/shims/query-string';
import * as inflection from '../../src/shims/inflection';
import { useHotkeys } from '../../src/shims/react-hotkeys-hook';
import realDiacritic from 'diacritic';
import * as diacritic from '../../src/shims/diacritic';
import { appEs } from '../../src/i18n/app-es';
import { appEn } from '../../src/i18n/app-en';

/**
 * The build's stand-ins for query-string and inflection (src/shims) answer what the libraries answer for what
 * react-admin asks of them.
 */
describe('query-string stand-in', () => {
  // What react-admin writes into the address: a list's parameters (filters and displayed filters as JSON), a clone's
  // source, the parameters of a GET.
  const objects: Array<Record<string, string | number | boolean | null | undefined | Array<string | number>>> = [
    { filter: JSON.stringify({ number: 'FACT/2026 & co', partner: 'Ñandú, S.L.' }), displayedFilters: JSON.stringify({ number: true }), order: 'DESC', page: 2, perPage: 25, sort: 'date' },
    { source: JSON.stringify({ name: "O'Brien (copy)*!", amount: 12.5 }) },
    { q: 'a+b=c?d#e', empty: '', missing: undefined, nothing: null, ids: [3, 1, 2] },
    {},
  ];

  it.each(objects.map((object) => [object]))('stringifies %j as query-string does', (object) => {
    expect(queryString.stringify(object)).toBe(realQueryString.stringify(object));
  });

  it.each(objects.map((object) => [object]))('reads back %j as query-string does', (object) => {
    const search = `?${realQueryString.stringify(object)}`;
    expect({ ...queryString.parse(search) }).toEqual({ ...realQueryString.parse(search) });
  });

  it.each(['', '?', '#a=1', '?a=1&a=2&b', '?a=%E2%82%AC+5&b=%ZZ', '?x=1&&y=2', 'page=3&perPage=10'])('parses %s as query-string does', (search) => {
    expect({ ...queryString.parse(search) }).toEqual({ ...realQueryString.parse(search) });
  });
});

describe('inflection stand-in', () => {
  it.each(['first_name', 'partner_id', 'amountTotal', 'x_studio_owner_employee', 'date', 'invoice_date_due'])(
    'makes the label of field %s as inflection does',
    (source) => {
      expect(inflection.transform(source, ['underscore', 'humanize'])).toBe(realInflection.transform(source, ['underscore', 'humanize']));
    },
  );

  it.each(['company', 'tax', 'branch', 'address', 'move', 'day', 'journal', 'employee'])('makes the plural of %s as inflection does', (word) => {
    expect(inflection.pluralize(word)).toBe(realInflection.pluralize(word));
    expect(inflection.singularize(inflection.pluralize(word))).toBe(word);
  });

  it.each(['moves', 'orders', 'contacts', 'users', 'employees', 'projects', 'companies', 'departments', 'taxes', 'branches', 'addresses', 'journals', 'days'])('names resource %s as inflection does', (resource) => {
    expect(inflection.humanize(inflection.pluralize(resource))).toBe(realInflection.humanize(realInflection.pluralize(resource)));
    expect(inflection.inflect(resource, 1)).toBe(realInflection.inflect(resource, 1));
    expect(inflection.inflect(resource, 2)).toBe(realInflection.inflect(resource, 2));
    expect(inflection.capitalize(inflection.singularize(resource))).toBe(realInflection.capitalize(realInflection.singularize(resource)));
  });
});

describe('react-hotkeys-hook stand-in', () => {
  it('does what a disabled hook does, as react-admin calls it for a menu item without a shortcut, and refuses a shortcut', () => {
    expect(typeof useHotkeys([], () => undefined, { enabled: false })).toBe('function');
    expect(() => useHotkeys('ctrl+k', () => undefined, { enabled: true })).toThrow(/no keyboard shortcuts/);
  });
});

describe('diacritic stand-in', () => {
  /** Every text of the catalogues (the columns' labels among them), and what people type in the columns' search box. */
  const texts = (catalogue: unknown): string[] => (typeof catalogue === 'string' ? [catalogue] : catalogue && typeof catalogue === 'object' ? Object.values(catalogue).flatMap(texts) : []);
  const typed = ['línea', 'LINEA', 'Ñandú', 'año', 'Fecha de creación', 'Straße', 'Æsir œuvre', 'Øre', 'Łódź', 'Þór', 'çà et là', 'ü', '', 'Base imponible'];

  it('cleans the labels of both languages and what is typed as diacritic does, as the columns selector compares them', () => {
    const all = [...new Set([...texts(appEs), ...texts(appEn), ...typed])];
    expect(all.length).toBeGreaterThan(500);
    const differing = all.filter((text) => diacritic.clean(text).toLowerCase() !== realDiacritic.clean(text).toLowerCase());
    expect(differing).toEqual([]);
  });
});
