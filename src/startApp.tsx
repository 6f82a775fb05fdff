import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { TranslationMessages } from 'react-admin';
import type { Language } from '../shared/domain/constants';
import { App } from './App';
import { buildI18nProvider } from './providers/i18nProvider';

/**
 * The signed-in console: React, react-admin and the shell, loaded by main.tsx for every page but /login, with the
 * catalogue of the language it starts in (loaded alongside).
 */
export function startApp(container: HTMLElement, language: Language, messages: TranslationMessages) {
  createRoot(container).render(
    <StrictMode>
      <App i18nProvider={buildI18nProvider({ [language]: messages })} />
    </StrictMode>,
  );
}
