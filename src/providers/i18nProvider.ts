import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider, TranslationMessages } from 'react-admin';
import type { Language } from '../../shared/domain/constants';
import { isLanguage, initialLanguage, storeLanguage } from '../i18n/language';
import { loadCatalogue } from '../i18n/load';

/**
 * Polyglot over the catalogues: the starting language's must be given (`loaded`), another is loaded when the user
 * first switches to it. Changing the locale keeps the choice in lang_preference; a language other than en or es is
 * rejected.
 */
export function buildI18nProvider(loaded: Partial<Record<Language, TranslationMessages>>, storage: Storage = localStorage): I18nProvider {
  const catalogue = (language: Language) => loaded[language] ?? loadCatalogue(language).then((messages) => (loaded[language] = messages));
  const base = polyglotI18nProvider((locale) => catalogue(isLanguage(locale) ? locale : 'es'), initialLanguage(storage), [
    { locale: 'es', name: 'Español' },
    { locale: 'en', name: 'English' },
  ]);
  return {
    ...base,
    changeLocale: async (locale, options) => {
      if (!isLanguage(locale)) throw new Error(`Unsupported language: ${locale}`);
      await base.changeLocale(locale, options);
      storeLanguage(locale, storage);
    },
  };
}
