/** Business constants of spec section 9 and the local-storage keys of spec section 3. */

export const LANGUAGES = ['es', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'es';

export const STORAGE_KEYS = {
  token: 'token',
  language: 'lang_preference',
  menuCollapsed: 'menu_collapsed',
  /** The light/dark choice of the app bar's switch (issue 16). */
  theme: 'theme_preference',
} as const;

/** Session tokens issued after sign-in live this long. */
export const SESSION_TTL_SECONDS = 12 * 60 * 60;

export const INVITATION_TTL_HOURS = 24;

export const MESSAGE_DURATION_MS = 5000;
export const SHORT_MESSAGE_DURATION_MS = 1000;

/** The largest record id (PostgreSQL's and Odoo's serial integer): a larger one names no record. */
export const MAX_ID = 2_147_483_647;
