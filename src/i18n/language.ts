import { DEFAULT_LANGUAGE, LANGUAGES, STORAGE_KEYS, type Language } from '../../shared/domain/constants';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * Spec section 1: Spanish by default, English when the browser language is English, a stored preference
 * (lang_preference) wins, and any other language is rejected.
 */
export function detectLanguage(stored: string | null | undefined, browserLanguages: readonly string[]): Language {
  if (isLanguage(stored)) return stored;
  const first = browserLanguages.find((one) => typeof one === 'string' && one.length > 0);
  if (first && first.toLowerCase().split('-')[0] === 'en') return 'en';
  return DEFAULT_LANGUAGE;
}

function browserLanguages(): string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? [...navigator.languages] : [navigator.language];
}

/** The language to start with; a stored value that is not a supported language is discarded. */
export function initialLanguage(storage: Storage = localStorage): Language {
  const stored = storage.getItem(STORAGE_KEYS.language);
  if (stored !== null && !isLanguage(stored)) storage.removeItem(STORAGE_KEYS.language);
  return detectLanguage(stored, browserLanguages());
}

export function storeLanguage(language: string, storage: Storage = localStorage): Language {
  if (!isLanguage(language)) throw new Error(`Unsupported language: ${language}`);
  storage.setItem(STORAGE_KEYS.language, language);
  return language;
}
