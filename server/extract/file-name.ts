/**
 * The name a file is stored under (a move's attachment, a move draft): no path separators or control characters, no
 * bidirectional controls (issue 54: embeddings, overrides and isolates U+202A-202E and U+2066-2069, the marks U+200E,
 * U+200F and U+061C), which show a name in another order than it is stored ('factura\u202Efdp.exe' reads
 * 'facturaexe.pdf'), and the extension of the type it was found to be.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/** At most this many characters of the name as sent are kept. */
const KEPT_CHARACTERS = 180;

export function storedFileName(name: string, mimetype: string): string {
  const cleaned =
    [...name.replace(BIDI_CONTROLS, '')]
      .map((char) => (char === '/' || char === '\\' || char.charCodeAt(0) < 32 ? '_' : char))
      .join('')
      .trim()
      .slice(0, KEPT_CHARACTERS) || 'documento';
  // An e-invoice's XML keeps a signed FacturaE's own extension (.xsig), else .xml.
  const extension = mimetype === 'application/pdf' ? '.pdf' : mimetype === 'image/png' ? '.png' : mimetype === 'application/xml' ? (/\.xsig$/i.test(cleaned) ? '.xsig' : '.xml') : '.jpg';
  return /\.[a-z0-9]{2,5}$/i.test(cleaned) ? cleaned.replace(/\.[a-z0-9]{2,5}$/i, extension) : `${cleaned}${extension}`;
}
