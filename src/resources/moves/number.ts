/**
 * A move's number as people read it: Odoo names a draft "/" (or nothing) until it is posted, which showed as a
 * lone slash in the list and in dialog titles; a draft reads "Draft" ("Borrador") instead.
 */
export function moveNumber(name: unknown, translate: (key: string) => string): string {
  return typeof name === 'string' && name.trim() && name.trim() !== '/' ? name : translate('app.moves.draftNumber');
}
