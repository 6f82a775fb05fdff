import { describe, expect, it } from 'vitest';
import { AREAS } from '../../shared/domain/areas';
import { appEs } from '../../src/i18n/app-es';
import { appEn } from '../../src/i18n/app-en';

/** Issue 51, item 7: the side menu and the home's tiles call each area by one name, in both languages. */
describe('the names of the areas', () => {
  for (const [language, { app }] of [['es', appEs], ['en', appEn]] as const) {
    it(`are the same in the menu and on the home (${language})`, () => {
      const menu = app.menu as Record<string, string>;
      const tiles = app.home.links as Record<string, string>;
      for (const area of AREAS) expect(tiles[area.id], area.id).toBe(menu[area.id]);
      expect(menu.contact).not.toBe(menu.contactList);
      expect(menu.order).not.toBe(menu.orderList);
    });
  }
});
