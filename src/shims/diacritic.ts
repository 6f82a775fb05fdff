/**
 * diacritic as the built console uses it (scripts/stand-ins.ts aliases the package here for the build): react-admin's
 * columns selector (ColumnsSelectorItem) compares the text typed in its search box with the columns' labels without
 * their accents, `clean(label).toLowerCase()`. The library does it with a table of about 1,000 letters, 2 KB of the
 * moves list's first load; Unicode's decomposition does the same for the letters labels are written in, and the
 * few letters that do not decompose are mapped as the library maps them (test/unit/shims.test.ts compares the two).
 */
const LETTERS: Record<string, string> = { ß: 'ss', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ø: 'o', Ø: 'O', đ: 'd', Đ: 'D', ł: 'l', Ł: 'L', þ: 'th', Þ: 'TH' };

export function clean(input: string): string {
  if (!input) return '';
  return input
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßæÆœŒøØđĐłŁþÞ]/g, (letter) => LETTERS[letter]);
}
