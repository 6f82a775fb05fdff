import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';

/** The signed-in console: React, react-admin and the shell, loaded by main.tsx for every page but /login. */
export function startApp(container: HTMLElement) {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
