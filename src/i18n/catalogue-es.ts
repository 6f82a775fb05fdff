import type { TranslationMessages } from 'react-admin';
import { appEs } from './app-es';
import { raSpanishMessages } from './ra-es';

/** react-admin's Spanish catalogue plus ours (loaded alone when the console runs in Spanish: ./load.ts). */
export const catalogue: TranslationMessages = { ...raSpanishMessages, ...appEs };
