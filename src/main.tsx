import { initialLanguage } from './i18n/language';
import { loadCatalogue } from './i18n/load';
// The sign-in strings travel in this file: the login page and both catalogues use them, and they weigh less than the
// request a file of their own would cost.
import { LOGIN_TEXTS } from './i18n/login-texts';

const container = document.getElementById('root')!;

// The signed-out login page is drawn without React (a few KB); every other page loads the console, React included,
// and the catalogue of the language it starts in, both at once.
if (window.location.pathname === '/login') void import('./custom/login').then(({ renderLogin }) => renderLogin(container, LOGIN_TEXTS));
else {
  const language = initialLanguage();
  void Promise.all([import('./startApp'), loadCatalogue(language)]).then(([{ startApp }, messages]) => startApp(container, language, messages));
}

// The service worker (src/offline/sw.js: the shell for offline use, the share target) once the page has loaded, so
// that what it caches never competes with the page's own first load. Not in development, where files change.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  const register = () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  window.addEventListener('load', () => ('requestIdleCallback' in window ? requestIdleCallback(register, { timeout: 5000 }) : setTimeout(register, 1000)));
}
