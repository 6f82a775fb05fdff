import type { TranslationMessages } from 'react-admin';
import type { Language } from '../../shared/domain/constants';
import { catalogue as en } from './catalogue-en';
import { catalogue as es } from './catalogue-es';

/**
 * react-admin's own catalogue plus ours, for each language, both at hand (tests and checks of the catalogues); the
 * console itself loads the one it shows (./load.ts).
 */
export const catalogues: Record<Language, TranslationMessages> = { en, es };
