/** Plain text of a chatter body: tags dropped, entities decoded. The body is never inserted as HTML. */
export function plainText(html: unknown): string {
  if (typeof html !== 'string') return '';
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

/** Spec section 2: the first 100 characters of the earliest non-empty message (oldest first), or null. */
export function commentPreview(messages: ReadonlyArray<{ body: unknown }>, length = 100): string | null {
  const first = messages.map((message) => plainText(message.body)).find((text) => text.length > 0);
  return first ? first.slice(0, length) : null;
}

const LEGAL_FORM = /[\s,.]+(s\.?\s?l\.?\s?u?\.?|s\.?\s?a\.?\s?u?\.?|s\.?\s?coop\.?|s\.?\s?c\.?|sarl|sme|ltd\.?|limited|inc\.?|llc|gmbh|sdn\.?\s*bhd\.?|bhd\.?|[s5$4]\s?\/\s?[b8])\s*$/i;

/**
 * What to look a supplier up by when its name was read from a document: the name as read, then without its legal
 * form ('Suministros Levante, S.L.' also finds 'Suministros Levante SL'), the first that finds one wins.
 */
export function supplierSearchTerms(name: string): string[] {
  const read = name.replace(/\s+/g, ' ').trim();
  return [...new Set([read, withoutLegalForm(read)].filter((term) => term.length >= 3))];
}

/** A name without its legal form(s) at the end ('Suministros Levante, S.L.' is 'Suministros Levante'). */
function withoutLegalForm(name: string): string {
  let core = name;
  while (LEGAL_FORM.test(core)) core = core.replace(LEGAL_FORM, '').replace(/[\s,.;:-]+$/, '').trim();
  return core;
}

/**
 * A tax id as printed ('CIF: B-46.123.456', 'ES B46123456', 'NIF 12345678-Z') reduced to what a stored VAT number
 * contains ('B46123456' in 'ESB46123456'): capitals and digits, without a country prefix.
 */
export function vatCore(printed: string): string {
  const compact = printed.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return /^[A-Z]{2}[A-Z0-9]\d{6,}/.test(compact) && compact.length >= 10 ? compact.slice(2) : compact;
}

/** A name as compared for likeness: capitals without accents, letters and digits, single spaces, no legal form. */
export function nameCore(name: string): string {
  return withoutLegalForm(name.replace(/\s+/g, ' ').trim())
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z0-9 ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Letters OCR takes for one another (issue 51): changing one for another counts less than another slip. */
const LOOKALIKES = ['O0DQ', 'I1LJ', 'S5', 'B8', 'Z2', 'G6C', 'UV', 'EF'];
const lookalike = (a: string, b: string) => LOOKALIKES.some((group) => group.includes(a) && group.includes(b));

/** Edits (a letter changed, added or dropped) from one text to the other; a letter OCR confuses with the other counts 0.4. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, at) => at);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const change = a[i - 1] === b[j - 1] ? 0 : lookalike(a[i - 1], b[j - 1]) ? 0.4 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + change);
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * The name read, and the same without a short stray word at either end (a margin's mark or a department read as
 * part of the name: "DIST PERNIAGAAN ZHENG HU"), which costs half an edit.
 */
function readVariants(core: string): Array<{ text: string; cost: number }> {
  const words = core.split(' ');
  const variants = [{ text: core, cost: 0 }];
  if (words.length >= 3 && words[0].length <= 4) variants.push({ text: words.slice(1).join(' '), cost: 0.5 });
  if (words.length >= 3 && words.at(-1)!.length <= 4) variants.push({ text: words.slice(0, -1).join(' '), cost: 0.5 });
  return variants;
}

/**
 * The stored supplier whose name is the name read from a document but for an OCR slip or two ('LJAN HING
 * STATIONERY SDN BHD' for 'Lian Hing Stationery Sdn Bhd'): names compared without case, accents, signs or legal
 * form, at most one edit per 8 characters of the longer name (and the names 5 characters or more; letters OCR
 * confuses, 0/O, 1/I/L, 5/S, 8/B..., count 0.4 of an edit, and a short stray word at either end of the name read half
 * an edit), and no other supplier as near. Undefined when none is near enough, or two are equally near.
 */
export function closestSupplier<T extends { name: string }>(read: string, suppliers: readonly T[]): T | undefined {
  const core = nameCore(read);
  if (core.length < 5) return undefined;
  let best: { supplier: T; distance: number } | undefined;
  let tie = false;
  for (const supplier of suppliers) {
    const other = nameCore(supplier.name);
    let distance = Infinity;
    for (const variant of other.length < 5 ? [] : readVariants(core)) {
      if (Math.abs(other.length - variant.text.length) > 3) continue;
      const one = editDistance(variant.text, other) + variant.cost;
      if (one <= Math.floor(Math.max(variant.text.length, other.length) / 8)) distance = Math.min(distance, one);
    }
    if (distance === Infinity) continue;
    if (!best || distance < best.distance) {
      best = { supplier, distance };
      tie = false;
    } else if (distance === best.distance) tie = true;
  }
  return best && !tie ? best.supplier : undefined;
}

/**
 * Why a typed text may not be stored as it is (issue 29, item 9): a line break in a one-line field (a name, a concept,
 * a reference, an address, a search), a control character (C0, DEL, C1: invisible, and some terminals and
 * spreadsheets act on them), or a direction override or isolate (U+202A-202E, U+2066-2069), which show a text in
 * another order than it is stored ('invoice\u202Efdp.exe' reads 'invoiceexe.pdf'). Multi-line fields (notes,
 * comments, an order line's description) keep their line breaks and tabs. The marks U+200E/U+200F are accepted: they
 * only settle the direction of neutral signs beside them, reorder no letters, and text copied from mail and
 * spreadsheet programs carries them.
 */
export type TextFault = 'lineBreak' | 'control' | 'direction';

const LINE_BREAK = /[\n\r\u0085\u2028\u2029]/;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_IN_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const DIRECTION = /[\u202A-\u202E\u2066-\u2069]/;

/** The first reason a text may not be stored in a field of its kind, or undefined when it may. */
export function textFault(text: string, multiline = false): TextFault | undefined {
  if (multiline) {
    if (CONTROL_IN_LINES.test(text)) return 'control';
  } else {
    if (LINE_BREAK.test(text)) return 'lineBreak';
    if (CONTROL.test(text)) return 'control';
  }
  return DIRECTION.test(text) ? 'direction' : undefined;
}
