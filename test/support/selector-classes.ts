/** What a selector requires of the element it selects: its HTML tag (lower case) if it names one, and classes. */
export interface Subject {
  tag?: string;
  classes: string[];
}

/**
 * What an element must be for a CSS selector list to select it (test/component/jsdom-styles.ts): for each selector of
 * the list, the type and classes of its last compound selector (its subject) outside any parentheses or brackets, or
 * null when that selector's subject needs neither or cannot be read simply (an escape, a namespace). Only ever used to
 * skip a rule that cannot match: a selector this does not understand is checked as before.
 */
export function selectorSubjects(selectorList: string): Array<Subject | null> {
  return topLevelParts(selectorList).map(subjectOf);
}

const HTML = 'http://www.w3.org/1999/xhtml';

/** The type mayMatch compares: an HTML element's local name in lower case; undefined for an SVG or other element. */
export function htmlType(element: { readonly namespaceURI: string | null; readonly localName: string }): string | undefined {
  return element.namespaceURI === HTML ? element.localName.toLowerCase() : undefined;
}

/**
 * Whether an element may be selected by a selector list whose subjects are `alternatives`: `tag` is the element's
 * local name in lower case for an HTML element, undefined for any other (an SVG element's type is matched as written).
 */
export function mayMatch(alternatives: ReadonlyArray<Subject | null>, classes: ReadonlySet<string>, tag?: string): boolean {
  return alternatives.some(
    (subject) => subject === null || ((subject.tag === undefined || tag === undefined || subject.tag === tag) && subject.classes.every((name) => classes.has(name))),
  );
}

/** The selectors of a list: split at its commas outside parentheses, brackets and quotes. */
function topLevelParts(list: string): string[] {
  const parts: string[] = [];
  let start = 0;
  scan(list, (char, index, depth) => {
    if (depth === 0 && char === ',') {
      parts.push(list.slice(start, index));
      start = index + 1;
    }
  });
  parts.push(list.slice(start));
  return parts;
}

const COMBINATOR = /[\s>+~]/;
/** A character of a class name: anything but what ends one (a class name with an escape is left unread above). */
const NAME = /[^\s.#:[\]()>+~,"'|*=]/;

/** The type and classes of a selector's last compound (after its last combinator), or null. */
function subjectOf(selector: string): Subject | null {
  const text = selector.trim();
  if (text.includes('\\') || text.includes('|')) return null;
  let compoundStart = 0;
  scan(text, (char, index, depth) => {
    if (depth === 0 && COMBINATOR.test(char)) compoundStart = index + 1;
  });
  const compound = text.slice(compoundStart);
  const classes: string[] = [];
  scan(compound, (char, index, depth) => {
    if (depth !== 0 || char !== '.') return;
    let end = index + 1;
    while (end < compound.length && NAME.test(compound[end])) end++;
    if (end > index + 1) classes.push(compound.slice(index + 1, end));
  });
  const type = /^[a-z][a-z0-9-]*/i.exec(compound)?.[0].toLowerCase();
  if (!type && !classes.length) return null;
  return type ? { tag: type, classes } : { classes };
}

/** Calls `visit` for each character outside quotes, with how deep it is in parentheses and brackets. */
function scan(text: string, visit: (char: string, index: number, depth: number) => void): void {
  let depth = 0;
  let quote = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quote) {
      if (char === quote) quote = '';
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === '(' || char === '[') depth++;
    else if (char === ')' || char === ']') depth--;
    else visit(char, index, depth);
  }
}
