/**
 * The language a call is made in, among those the Odoo has installed (issue 50, item 2). Odoo 18 and 19 refuse a call
 * whose context names a language that is not installed ("Invalid language code: es_ES"); 16 and 17 ignore it. The
 * console's own texts do not depend on it: only the names Odoo gives back (taxes, payment terms) and its own refusals.
 */

/** Odoo's refusal of a context language it has not installed (odoo/api.py, Environment.lang, 18 and 19). */
export const INVALID_LANGUAGE = /^Invalid language code: (\S+)/;

/** English is always there: Odoo accepts en_US whatever is installed (and it is the language of its source texts). */
export const ALWAYS_INSTALLED = 'en_US';

/**
 * The closest of the installed languages to the one asked: itself; else one of the same language (es_ES asked, es_MX
 * installed), the language's main country first (es_ES for es, en_US for en); else English.
 */
export function closestLanguage(asked: string, installed: readonly string[]): string {
  if (installed.includes(asked)) return asked;
  const [language] = asked.split('_');
  const same = installed.filter((code) => code.split('_')[0] === language).sort();
  const main = `${language}_${language.toUpperCase()}`;
  if (same.includes(main)) return main;
  return same[0] ?? ALWAYS_INSTALLED;
}
