/**
 * inflection as the built console uses it (scripts/stand-ins.ts aliases the package here for the build): react-admin makes
 * a default label from a name with it (a field "first_name" -> "First name", a resource "moves" -> "Moves") when the
 * catalogue has no text for it. Every label the console shows comes from its catalogues (src/i18n, both languages
 * complete), so these defaults are never seen; English grammar rules for them are about 3 KB of every page's first
 * load. These stand-ins keep what a default label would read like, with English's regular plurals only.
 */
export function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

export function underscore(word: string): string {
  return word
    .replace(/([a-z\d])([A-Z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase();
}

export function humanize(word: string): string {
  return capitalize(word.replace(/_id$/, '').replace(/_/g, ' ').trim());
}

/** English's regular plurals only: "company" / "companies", "tax" / "taxes", "move" / "moves". */
export function pluralize(word: string): string {
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(?:s|x|z|ch|sh)$/i.test(word)) return /(?:ss|x|z|ch|sh)es$/i.test(word) || /[^s]s$/i.test(word) ? word : `${word}es`;
  return `${word}s`;
}

export function singularize(word: string): string {
  if (/[^aeiou]ies$/i.test(word)) return `${word.slice(0, -3)}y`;
  if (/(?:ss|x|z|ch|sh)es$/i.test(word)) return word.slice(0, -2);
  return /[^s]s$/i.test(word) ? word.slice(0, -1) : word;
}

export function inflect(word: string, count: number): string {
  return count === 1 ? singularize(word) : pluralize(word);
}

const RULES: Record<string, (word: string) => string> = { capitalize, underscore, humanize, pluralize, singularize };

export function transform(word: string, rules: string[]): string {
  return rules.reduce((result, rule) => RULES[rule]?.(result) ?? result, word);
}
