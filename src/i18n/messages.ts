import englishMessages from 'ra-language-english';
import type { TranslationMessages } from 'react-admin';
import type { Language } from '../../shared/domain/constants';
import { appEn } from './app-en';
import { appEs } from './app-es';
import { raSpanishMessages } from './ra-es';

/** react-admin's own catalogue plus ours, for each language. */
export const catalogues: Record<Language, TranslationMessages> = {
  en: { ...englishMessages, ...appEn },
  es: { ...raSpanishMessages, ...appEs },
};
