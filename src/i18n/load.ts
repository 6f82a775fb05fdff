import type { TranslationMessages } from 'react-admin';
import type { Language } from '../../shared/domain/constants';

/**
 * One language's catalogue, loaded when it is first needed: the console starts with the user's language only and
 * loads the other when they switch (each is about 8 KB of the first load on the wire).
 */
export async function loadCatalogue(language: Language): Promise<TranslationMessages> {
  return (language === 'en' ? await import('./catalogue-en') : await import('./catalogue-es')).catalogue;
}
