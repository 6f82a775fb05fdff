/**
 * Text search as people type it: without regard to case or accents ('telefonica' finds 'Telefónica', 'TELEFONICA'
 * too, and 'telefónica' finds 'Telefonica'). The embedded store folds accents in SQL (bo_unaccent, server/db/fold.ts);
 * these are the same rules in JavaScript, for what the server checks itself (a real Odoo without its unaccent
 * option, server/erp/odoo/accents.ts) and for the SQL fallback where PostgreSQL lacks the unaccent extension.
 */

/** Letters that are more than a base letter and a mark, as PostgreSQL's unaccent rules write them. */
const SPECIAL: Readonly<Record<string, string>> = {
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ı: 'i',
  ħ: 'h',
  Ħ: 'H',
  ŧ: 't',
  Ŧ: 'T',
};

const SPECIALS = new RegExp(`[${Object.keys(SPECIAL).join('')}]`, 'gu');

/** A text without its accents (case kept): 'Telefónica España' is 'Telefonica Espana', 'Øresund' is 'Oresund'. */
export function foldAccents(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(SPECIALS, (char) => SPECIAL[char]).normalize('NFC');
}

/** A text as a search compares it: without accents, in lower case. */
export function searchKey(text: string): string {
  return foldAccents(text).toLowerCase();
}

/**
 * The Latin letters (Latin-1 and Latin Extended-A) that fold to one base letter, and that letter, for PostgreSQL's
 * translate() where the unaccent extension is missing: the two strings of translate(text, from, to).
 */
export function singleLetterFolds(): { from: string; to: string } {
  let from = '';
  let to = '';
  for (let code = 0xc0; code <= 0x17f; code++) {
    const char = String.fromCodePoint(code);
    const folded = foldAccents(char);
    if (folded !== char && folded.length === 1 && /[A-Za-z]/.test(folded)) {
      from += char;
      to += folded;
    }
  }
  return { from, to };
}

/**
 * The accented forms of each base letter that a text may hold where a search has the plain letter (or the other way
 * round): Spanish, Catalan, Galician, Portuguese, French and German spellings, lower case (the database compares
 * without case). Letters absent here are only ever matched as typed.
 */
export const ACCENTED: Readonly<Record<string, readonly string[]>> = {
  a: ['á', 'à', 'ä', 'â', 'ã', 'å'],
  e: ['é', 'è', 'ë', 'ê'],
  i: ['í', 'ì', 'ï', 'î'],
  o: ['ó', 'ò', 'ö', 'ô', 'õ'],
  u: ['ú', 'ù', 'ü', 'û'],
  n: ['ñ'],
  c: ['ç'],
  y: ['ý', 'ÿ'],
};

/**
 * Whether `value` matches the SQL LIKE `pattern` as ILIKE does, accents aside: '%' any text, '_' one character,
 * '\' makes the next character plain; the whole value must match (add '%' at both ends for "contains").
 */
export function likeMatches(value: string, pattern: string): boolean {
  let source = '';
  for (let at = 0; at < pattern.length; at++) {
    const char = pattern[at];
    if (char === '\\' && at + 1 < pattern.length) {
      at += 1;
      source += escapeRegExp(searchKey(pattern[at]));
    } else if (char === '%') source += '.*';
    else if (char === '_') source += '.';
    else source += escapeRegExp(searchKey(char));
  }
  return new RegExp(`^${source}$`, 'su').test(searchKey(value));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
