import { beforeEach, describe, expect, it } from 'vitest';
import { catalogues } from '../../src/i18n/messages';
import { buildI18nProvider } from '../../src/providers/i18nProvider';

describe('i18nProvider', () => {
  beforeEach(() => localStorage.clear());

  it('starts in Spanish by default and translates react-admin and our keys', () => {
    Object.defineProperty(navigator, 'languages', { value: ['es-ES'], configurable: true });
    const provider = buildI18nProvider({ ...catalogues });
    expect(provider.getLocale()).toBe('es');
    expect(provider.translate('app.titles.home')).toBe('Inicio');
    expect(provider.translate('ra.action.save')).not.toBe('Save');
  });

  it('starts in English for an English browser', () => {
    Object.defineProperty(navigator, 'languages', { value: ['en-GB', 'es'], configurable: true });
    expect(buildI18nProvider({ ...catalogues }).getLocale()).toBe('en');
  });

  it('keeps a change in lang_preference and rejects other languages', async () => {
    Object.defineProperty(navigator, 'languages', { value: ['es-ES'], configurable: true });
    const provider = buildI18nProvider({ ...catalogues });
    await provider.changeLocale('en');
    expect(localStorage.getItem('lang_preference')).toBe('en');
    expect(provider.translate('app.titles.home')).toBe('Home');
    await expect(provider.changeLocale('fr')).rejects.toThrow(/Unsupported language/);
    expect(localStorage.getItem('lang_preference')).toBe('en');
    expect(provider.getLocale()).toBe('en');
    expect(buildI18nProvider({ ...catalogues }).getLocale()).toBe('en');
  });

  it('starts with the one catalogue it shows and loads the other on the first switch', async () => {
    Object.defineProperty(navigator, 'languages', { value: ['es-ES'], configurable: true });
    const loaded = { es: catalogues.es };
    const provider = buildI18nProvider(loaded);
    expect(provider.translate('app.titles.home')).toBe('Inicio');
    await provider.changeLocale('en');
    expect(provider.translate('app.titles.home')).toBe('Home');
    expect(provider.translate('ra.action.save')).toBe('Save');
    expect(Object.keys(loaded).sort()).toEqual(['en', 'es']);
    await provider.changeLocale('es');
    expect(provider.translate('ra.action.save')).toBe(catalogues.es.ra.action.save);
  });
});
