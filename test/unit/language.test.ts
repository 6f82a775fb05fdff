import { describe, expect, it } from 'vitest';
import { detectLanguage, initialLanguage, isLanguage, storeLanguage } from '../../src/i18n/language';

class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
}

describe('language selection (spec section 1)', () => {
  it.each([
    [null, ['es-ES'], 'es'],
    [null, ['en-US', 'es'], 'en'],
    [null, ['en'], 'en'],
    [null, ['EN-gb'], 'en'],
    [null, ['fr-FR', 'en'], 'es'],
    [null, ['de'], 'es'],
    [null, [], 'es'],
    ['en', ['es-ES'], 'en'],
    ['es', ['en-US'], 'es'],
    ['fr', ['en-US'], 'en'],
    ['fr', ['es'], 'es'],
    ['', ['en'], 'en'],
  ])('stored %j with browser %j gives %s', (stored, browser, expected) => {
    expect(detectLanguage(stored, browser)).toBe(expected);
  });

  it('recognises only en and es', () => {
    expect(isLanguage('en')).toBe(true);
    expect(isLanguage('es')).toBe(true);
    expect(isLanguage('fr')).toBe(false);
    expect(isLanguage('EN')).toBe(false);
    expect(isLanguage(undefined)).toBe(false);
  });

  it('keeps the choice in lang_preference', () => {
    const storage = new MemoryStorage();
    storeLanguage('en', storage);
    expect(storage.getItem('lang_preference')).toBe('en');
    expect(initialLanguage(storage)).toBe('en');
  });

  it('rejects another language and keeps the previous choice', () => {
    const storage = new MemoryStorage();
    storeLanguage('en', storage);
    expect(() => storeLanguage('fr', storage)).toThrow(/Unsupported language/);
    expect(storage.getItem('lang_preference')).toBe('en');
  });

  it('discards a stored value that is not a supported language', () => {
    const storage = new MemoryStorage();
    storage.setItem('lang_preference', 'klingon');
    initialLanguage(storage);
    expect(storage.getItem('lang_preference')).toBeNull();
  });
});
