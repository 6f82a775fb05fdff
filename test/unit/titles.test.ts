import { describe, expect, it } from 'vitest';
import { titleKeyFor } from '../../src/custom/titles';
import { appEn } from '../../src/i18n/app-en';
import { appEs } from '../../src/i18n/app-es';

describe('header title per route (spec section 2)', () => {
  it.each([
    ['/', 'home'],
    ['/login', 'login'],
    ['/callback', 'login'],
    ['/validation', 'validation'],
    ['/move', 'move'],
    ['/moves-list', 'movesList'],
    ['/order', 'order'],
    ['/order-list', 'orderList'],
    ['/contact', 'contact'],
    ['/contact-list', 'contactList'],
    ['/payments-report', 'paymentsReport'],
    ['/permissions-management', 'permissionsManagement'],
    ['/sign-out', 'signOut'],
    ['/moves-list/', 'movesList'],
    ['/no-such-page', 'login'],
    ['/moveList', 'login'],
  ])('%s -> %s', (path, key) => {
    expect(titleKeyFor(path)).toBe(`app.titles.${key}`);
  });
});

function flatten(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value };
  return Object.entries(value as Record<string, unknown>).reduce<Record<string, string>>(
    (all, [key, inner]) => ({ ...all, ...flatten(inner, prefix ? `${prefix}.${key}` : key) }),
    {},
  );
}

describe('our catalogues', () => {
  const en = flatten(appEn);
  const es = flatten(appEs);
  it('have the same keys in both languages', () => {
    expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
  });
  it('have no empty string', () => {
    for (const [key, value] of [...Object.entries(en), ...Object.entries(es)]) expect(value, key).not.toBe('');
  });
  it('keep the interpolation variables', () => {
    for (const [key, value] of Object.entries(en)) {
      const variables = value.match(/%\{\w+\}/g) ?? [];
      for (const variable of variables) expect(es[key], key).toContain(variable);
    }
  });
});
