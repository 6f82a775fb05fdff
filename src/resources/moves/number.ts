/**
 * A move's number as people read it: Odoo names a draft "/" (or nothing) until it is posted, which showed as a
 * lone slash in the list and in dialog titles; a draft reads "Draft" ("Borrador") instead.
 */
export function moveNumber(name: unknown, translate: (key: string) => string): string {
  return typeof name === 'string' && name.trim() && name.trim() !== '/' ? name : translate('app.moves.draftNumber');
}

/**
 * An amount of a supplier document as the document states it (issue 16: the list said -9,00 € where validation said
 * 9,00 €). Odoo's *_signed amounts count what leaves the company, so a bill's are negative: the document's
 * amount is their opposite, and only a refund reads negative.
 */
export function documentAmount(record: Record<string, unknown>, signedSource: string): number {
  const value = Number(record[signedSource] ?? 0);
  return value === 0 ? 0 : -value;
}
