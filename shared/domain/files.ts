/**
 * Attachment type guessed from the start of the base64 data (spec section 5, attachment type): PDF, PNG, JPEG,
 * an XML document (an e-invoice, issue 55: it starts with its XML declaration, with or without a UTF-8 byte order
 * mark), else generic binary. Accepts bare base64 or a data URL.
 */
export type SniffedType = 'application/pdf' | 'image/png' | 'image/jpeg' | 'application/xml' | 'application/octet-stream';

const SIGNATURES: Array<[prefix: string, type: SniffedType]> = [
  ['JVBERi0', 'application/pdf'], // %PDF-
  ['iVBORw0KGgo', 'image/png'], // \x89PNG\r\n\x1a\n
  ['/9j/', 'image/jpeg'], // \xff\xd8\xff
  ['PD94bWwg', 'application/xml'], // <?xml + space
  ['77u/PD94bWwg', 'application/xml'], // the UTF-8 byte order mark, then <?xml + space
];

export function base64Payload(data: string): string {
  const comma = data.startsWith('data:') ? data.indexOf(',') : -1;
  return (comma >= 0 ? data.slice(comma + 1) : data).trim();
}

export function sniffBase64(data: string | null | undefined): SniffedType {
  if (!data) return 'application/octet-stream';
  const payload = base64Payload(data);
  return SIGNATURES.find(([prefix]) => payload.startsWith(prefix))?.[1] ?? (eInvoiceRoot(payload) ? 'application/xml' : 'application/octet-stream');
}

/** An e-invoice's root element, for an XML written without its declaration (`<fe:Facturae ...>`, `<Invoice ...>`). */
const EINVOICE_ROOT = /^(\uFEFF|\u00EF\u00BB\u00BF)?\s*<([A-Za-z_][\w.-]*:)?(Facturae|Invoice|CreditNote|CrossIndustryInvoice)[\s>/]/;

function eInvoiceRoot(payload: string): boolean {
  try {
    return EINVOICE_ROOT.test(atob(payload.slice(0, 64).replace(/\s/g, '').slice(0, 60)));
  } catch {
    return false;
  }
}

/** Whether the console can show the file inline (the others get the spec's unsupported-format message). */
export function isPreviewable(type: SniffedType): boolean {
  return type !== 'application/octet-stream' && type !== 'application/xml';
}

/** How far into a PDF its first object is looked for (a PDF's objects start right after its header). */
export const PDF_OBJECT_WINDOW = 64 * 1024;

/**
 * Whether the start of a file with a PDF header (its first PDF_OBJECT_WINDOW bytes) holds a PDF object ("1 0 obj"):
 * a file that is a header and nothing else opens to an error page in the browser's PDF viewer, and Chromium's
 * viewer then takes the keyboard focus from the page (what the user was typing went nowhere).
 */
export function pdfHasObjects(start: Uint8Array): boolean {
  const text = new TextDecoder('latin1').decode(start.subarray(0, PDF_OBJECT_WINDOW));
  return text.startsWith('%PDF-') && /\d+\s+\d+\s+obj\b/.test(text);
}
