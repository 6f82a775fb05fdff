import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider } from 'react-admin';
import { isLanguage, initialLanguage, storeLanguage } from '../i18n/language';
import { catalogues } from '../i18n/messages';

/**
 * Polyglot over both catalogues. Changing the locale keeps the choice in lang_preference; a language other than
 * en or es is rejected.
 */
export function buildI18nProvider(storage: Storage = localStorage): I18nProvider {
  const base = polyglotI18nProvider((locale) => catalogues[isLanguage(locale) ? locale : 'es'], initialLanguage(storage), [
    { locale: 'es', name: 'Español' },
    { locale: 'en', name: 'English' },
  ]);
  return {
    ...base,
    changeLocale: async (locale, options) => {
      if (!isLanguage(locale)) throw new Error(`Unsupported language: ${locale}`);
      storeLanguage(locale, storage);
      await base.changeLocale(locale, options);
    },
  };
}
