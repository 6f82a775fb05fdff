import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { AREAS } from '../../shared/domain/areas';
import { appEs } from '../../src/i18n/app-es';
import { appEn } from '../../src/i18n/app-en';

/**
 * Issue 51, item 7: the side menu and the home's tiles call each area by one name, in both languages: its page's
 * title (`app.titles`), the one key both read (the menu and the tiles had copies of their own, which drifted apart).
 */
describe('the names of the areas', () => {
  for (const [language, { app }] of [['es', appEs], ['en', appEn]] as const) {
    it(`are each area's title, one per area (${language})`, () => {
      const titles = app.titles as Record<string, string>;
      for (const area of AREAS) expect(titles[area.id], area.id).toBeTruthy();
      expect(titles.contact).not.toBe(titles.contactList);
      expect(titles.order).not.toBe(titles.orderList);
      // No second copy for the menu or the home to drift from.
      expect(Object.keys(app.menu).filter((key) => AREAS.some((area) => area.id === key))).toEqual([]);
      expect((app.home as Record<string, unknown>).links).toBeUndefined();
    });
  }

  it('are read from the titles by the menu and the home', () => {
    for (const file of ['src/custom/SideMenu.tsx', 'src/custom/Home.tsx']) expect(readFileSync(file, 'utf8'), file).toContain('translate(`app.titles.${area.id}`)');
  });
});
