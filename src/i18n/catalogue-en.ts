import englishMessages from 'ra-language-english';
import type { TranslationMessages } from 'react-admin';
import { appEn } from './app-en';

/** react-admin's own English catalogue plus ours (loaded alone when the console runs in English: ./load.ts). */
export const catalogue: TranslationMessages = { ...englishMessages, ...appEn };
