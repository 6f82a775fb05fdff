/**
 * XML read safely (issue 55): a file from a stranger is refused before any parser sees it when it is larger than
 * MAX_XML_BYTES, declares a DOCTYPE or entities (entity expansion, external entities: an e-invoice never needs them),
 * nests deeper than MAX_XML_DEPTH or holds more than MAX_XML_ELEMENTS elements (a linear scan, stopped at the first
 * limit passed). Then fast-xml-parser reads it with its entity processing off; the five predefined entities and
 * character references are decoded here, nothing else.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { EInvoiceError } from './errors';

export const MAX_XML_BYTES = 5 * 1024 * 1024;
export const MAX_XML_DEPTH = 64;
export const MAX_XML_ELEMENTS = 200_000;

/** A parsed element: its children by local name (one, or a list when repeated), `@_name` attributes, `#text`. */
export type XmlNode = { [name: string]: unknown };

/** The document's text: UTF-8 (with or without its byte order mark) or UTF-16 with one. */
export function xmlText(buffer: Buffer): string {
  if (buffer.length > MAX_XML_BYTES) throw new EInvoiceError(413, 'einvoice.xmlTooLarge', { maximum: MAX_XML_BYTES / 1024 / 1024 });
  return decodeXml(buffer);
}

/** Single-byte encodings an XML declaration may name (FacturaE files from older programs say ISO-8859-1). */
const SINGLE_BYTE = /^(iso-8859-1|iso8859-1|latin-?1|iso-8859-15|windows-1252|cp1252)$/i;

/**
 * Bytes as text, by their byte order mark, else by the encoding their XML declaration names (a single-byte one:
 * ISO-8859-1, -15, windows-1252), else UTF-8; with no limit: for a look at a document's start too.
 */
export function decodeXml(buffer: Buffer): string {
  if (buffer[0] === 0xff && buffer[1] === 0xfe) return buffer.subarray(2).toString('utf16le');
  if (buffer[0] === 0xfe && buffer[1] === 0xff) return Buffer.from(buffer.subarray(2, 2 + ((buffer.length - 2) & ~1))).swap16().toString('utf16le');
  const declared = /^\s*<\?xml[^>]*?encoding\s*=\s*["']([\w.-]+)["']/.exec(buffer.subarray(0, 200).toString('latin1'))?.[1];
  if (declared && SINGLE_BYTE.test(declared)) return new TextDecoder(/15$/.test(declared) ? 'iso-8859-15' : 'windows-1252').decode(buffer);
  const text = buffer.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Where the markup starting at `from` ends: after its terminator, or -1 when the text ends first. */
function endOf(text: string, from: number): number {
  const terminator = text.startsWith('<!--', from) ? '-->' : text.startsWith('<![CDATA[', from) ? ']]>' : text[from + 1] === '?' ? '?>' : '>';
  const at = text.indexOf(terminator, from + 2);
  return at < 0 ? -1 : at + terminator.length;
}

/**
 * Refuses, before parsing, what no e-invoice holds and a parser may choke on. The structure scan counts start tags
 * and their depth in one pass over the '<' of the text, and stops at the first limit passed: a 100,000-deep nesting
 * is refused after its 65th tag.
 */
export function checkXml(text: string): void {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new EInvoiceError(422, 'einvoice.xmlDoctype');
  let depth = 0;
  let elements = 0;
  for (let at = text.indexOf('<'); at >= 0; ) {
    const next = text[at + 1];
    const end = next === '!' || next === '?' ? endOf(text, at) : text.indexOf('>', at + 1) + 1;
    if (end <= 0) return;
    if (next === '/') depth -= 1;
    else if (next !== '!' && next !== '?') {
      elements += 1;
      if (elements > MAX_XML_ELEMENTS) throw new EInvoiceError(422, 'einvoice.xmlTooManyElements', { maximum: MAX_XML_ELEMENTS });
      if (text[end - 2] !== '/') depth += 1;
      if (depth > MAX_XML_DEPTH) throw new EInvoiceError(422, 'einvoice.xmlTooDeep', { maximum: MAX_XML_DEPTH });
    }
    at = text.indexOf('<', end);
  }
}

const PREDEFINED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The five entities XML predefines and character references (&#233; &#xE9;), decoded; any other left as written. */
export function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|amp|lt|gt|quot|apos);/g, (whole, name: string) => {
    if (name[0] !== '#') return PREDEFINED[name];
    const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  // Elements by their local name (cbc:ID is ID): each format is told apart by its root's namespace first.
  transformTagName: (name) => name.slice(name.indexOf(':') + 1),
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: MAX_XML_DEPTH + 1,
  tagValueProcessor: (_name, value) => decodeEntities(value),
  attributeValueProcessor: (_name, value) => decodeEntities(value),
});

/**
 * A text checked by checkXml, parsed: its root element's local name and content. Malformed XML is refused (422).
 */
export function parseCheckedXml(text: string): { name: string; node: XmlNode } {
  if (XMLValidator.validate(text) !== true) throw new EInvoiceError(422, 'einvoice.xmlMalformed');
  let document: XmlNode;
  try {
    document = parser.parse(text) as XmlNode;
  } catch {
    throw new EInvoiceError(422, 'einvoice.xmlMalformed');
  }
  const name = Object.keys(document).find((key) => !key.startsWith('?') && !key.startsWith('#'));
  const node = name === undefined ? undefined : document[name];
  if (name === undefined) throw new EInvoiceError(422, 'einvoice.xmlMalformed');
  return { name, node: typeof node === 'object' && node !== null ? (node as XmlNode) : {} };
}

/** The root element of an XML text as its start tag says: local name and namespace, read without parsing the rest. */
export function xmlRoot(text: string): { name: string; namespace: string } | null {
  if (!/^\s*</.test(text)) return null;
  let at = text.indexOf('<');
  while (at >= 0 && (text[at + 1] === '?' || text[at + 1] === '!')) {
    if (/^<!DOCTYPE/i.test(text.slice(at, at + 9))) return null;
    const end = endOf(text, at);
    if (end < 0) return null;
    at = text.indexOf('<', end);
  }
  if (at < 0) return null;
  const tag = /^<(?:([\w.-]+):)?([\w.-]+)((?:\s[^<>]*)?)\/?>/.exec(text.slice(at, at + 16 * 1024));
  if (!tag) return null;
  const [, prefix, name, attributes] = tag;
  const declaration = new RegExp(`\\bxmlns${prefix ? `:${prefix.replace(/[.-]/g, '\\$&')}` : ''}\\s*=\\s*(["'])(.*?)\\1`).exec(attributes);
  return { name, namespace: declaration ? decodeEntities(declaration[2]) : '' };
}
