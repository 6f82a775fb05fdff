/**
 * react-admin's default i18nProvider as the built console uses it (scripts/stand-ins.ts aliases react-admin's
 * `./defaultI18nProvider.js` here for the build): never, since the console always gives its own (src/startApp.tsx).
 * The default is built when react-admin is imported and carries react-admin's English catalogue, about 3 KB of a
 * Spanish user's first load for nothing (the English catalogue loads when someone switches to English:
 * src/i18n/load.ts). This stand-in says so if it is ever used.
 */
import type { I18nProvider } from 'react-admin';

function noDefault(): never {
  throw new Error("react-admin's default i18nProvider is not in the build: the console gives its own (src/shims/ra-default-i18n.ts)");
}

export const defaultI18nProvider: I18nProvider = { translate: noDefault, changeLocale: noDefault, getLocale: noDefault };
