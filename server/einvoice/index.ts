/**
 * Supplier e-invoices read exactly (issue 55): FacturaE 3.2 / 3.2.1 / 3.2.2 (.xml or signed .xsig), UBL 2.1 Invoice
 * and CreditNote (Peppol BIS Billing 3.0, EN 16931), CII D16B, and a PDF carrying a Factur-X / ZUGFeRD 2.x /
 * XRechnung XML (or a UBL) as an attachment. What is refused is an EInvoiceError (a 4xx with a message key).
 *
 *   detectEInvoice(buffer, fileName?)  what a file is, from its root element and namespace (or its PDF attachment), or null
 *   readEInvoice(buffer)               the normalised e-invoice (shared/domain/einvoice.ts), or a refusal
 */
import type { EInvoice, EInvoiceFormat } from '../../shared/domain/einvoice';
import { readCii, CII_NAMESPACE } from './cii';
import { finishDraft, type EInvoiceDraft } from './draft';
import { EInvoiceError } from './errors';
import { FACTURAE_NAMESPACES, readFacturae } from './facturae';
import { looksLikePdf, pdfXmlAttachments } from './pdf';
import { checkXml, decodeXml, parseCheckedXml, xmlRoot, xmlText } from './safe-xml';
import { readUbl, UBL_NAMESPACES } from './ubl';

export { EInvoiceError } from './errors';
export { MAX_XML_BYTES, MAX_XML_DEPTH, MAX_XML_ELEMENTS } from './safe-xml';

export interface EInvoiceDetection {
  format: EInvoiceFormat;
  /** The syntax's version its namespace says: '3.2.2', '2.1', 'D16B'. */
  version: string;
  /** A bare XML, or a PDF carrying it. */
  container: 'xml' | 'pdf';
  /** The PDF's attachment that holds it ('factur-x.xml'). */
  attachment?: string;
  /** The XML holds an XML signature (a FacturaE .xsig), or its name says it should. */
  signed: boolean;
}

type Syntax = Pick<EInvoiceDetection, 'format' | 'version'>;

/** The format an XML's root element and namespace name, or null. */
function syntaxOf(root: { name: string; namespace: string } | null): Syntax | null {
  if (!root) return null;
  if (root.name === 'Facturae') {
    const version = Object.keys(FACTURAE_NAMESPACES).find((one) => FACTURAE_NAMESPACES[one] === root.namespace);
    return version ? { format: 'facturae', version } : null;
  }
  if ((root.name === 'Invoice' || root.name === 'CreditNote') && root.namespace === UBL_NAMESPACES[root.name]) return { format: 'ubl', version: '2.1' };
  if (root.name === 'CrossIndustryInvoice' && root.namespace === CII_NAMESPACE) return { format: 'cii', version: 'D16B' };
  return null;
}

/** The start of an XML (its root element is in the first few kilobytes), as text. */
const head = (buffer: Buffer) => decodeXml(buffer.subarray(0, 64 * 1024));

const SIGNATURE_NAMESPACE = 'http://www.w3.org/2000/09/xmldsig#';

/**
 * What a file is, when it is an e-invoice read here: by its root element and namespace (an XML), or by the first
 * attachment of a PDF that is one. Null for anything else (a photo, a plain PDF, another XML); never a refusal but a
 * PDF's that pdf.js cannot open. The file's name is a hint only: `.xsig` says it should be signed.
 */
export async function detectEInvoice(buffer: Buffer, fileName?: string): Promise<EInvoiceDetection | null> {
  if (looksLikePdf(buffer)) {
    const attachments = await pdfXmlAttachments(buffer).catch(() => []);
    for (const attachment of attachments) {
      const syntax = syntaxOf(xmlRoot(head(attachment.content)));
      // A FacturaE inside a PDF too: the readable PDF the console stores of a bare XML carries it (render.ts).
      if (syntax) return { ...syntax, container: 'pdf', attachment: attachment.name, signed: /\.xsig$/i.test(attachment.name) || attachment.content.includes('http://www.w3.org/2000/09/xmldsig#') };
    }
    return null;
  }
  const syntax = syntaxOf(xmlRoot(head(buffer)));
  if (!syntax) return null;
  const signed = /\.xsig$/i.test(fileName ?? '') || buffer.includes(SIGNATURE_NAMESPACE) || decodeXml(buffer.subarray(0, 64 * 1024)).includes(SIGNATURE_NAMESPACE);
  return { ...syntax, container: 'xml', signed };
}

const PROFILE_LEVELS: Readonly<Record<string, string>> = { minimum: 'MINIMUM', basicwl: 'BASIC WL', basic: 'BASIC', en16931: 'EN 16931', extended: 'EXTENDED' };

/** How a person names the specification a UBL CustomizationID or a CII guideline id says. */
export function profileName(profile: string | undefined): string | undefined {
  if (!profile) return undefined;
  const xrechnung = /xrechnung_(\d+(?:\.\d+)*)/i.exec(profile);
  if (xrechnung) return `XRechnung ${xrechnung[1]}`;
  if (/peppol\.eu:2017:poacc:billing:3\.0/i.test(profile)) return 'Peppol BIS 3.0';
  const level = /(?:factur-x\.eu|zugferd\.de)[^#]*:(minimum|basicwl|basic|en16931|extended)$/i.exec(profile)?.[1];
  if (level) return `Factur-X ${PROFILE_LEVELS[level.toLowerCase()]}`;
  if (profile.startsWith('urn:cen.eu:en16931:2017')) return 'EN 16931';
  return undefined;
}

/** 'FacturaE 3.2.2', 'UBL 2.1 (Peppol BIS 3.0)', 'CII D16B (EN 16931)'; in a PDF 'Factur-X EN 16931', 'ZUGFeRD BASIC', 'XRechnung 3.0'. */
function labelOf(draft: EInvoiceDraft, attachment?: string): string {
  const name = profileName(draft.profile);
  if (draft.format === 'facturae') return `FacturaE ${draft.version}`;
  if (draft.format === 'cii' && attachment !== undefined) {
    if (name?.startsWith('XRechnung')) return name;
    const family = /^zugferd/i.test(attachment) ? 'ZUGFeRD' : /^xrechnung/i.test(attachment) ? 'XRechnung' : 'Factur-X';
    return `${family} ${name?.replace(/^Factur-X /, '') ?? 'EN 16931'}`;
  }
  const syntax = draft.format === 'ubl' ? `UBL ${draft.version}` : `CII ${draft.version}`;
  return name ? `${syntax} (${name})` : syntax;
}

/** An e-invoice's XML read; `attachment` is the PDF attachment it came from. */
export function readEInvoiceXml(buffer: Buffer, attachment?: string): EInvoice {
  const text = xmlText(buffer);
  if (!/^\s*</.test(text)) throw new EInvoiceError(422, 'einvoice.notEInvoice');
  checkXml(text);
  const syntax = syntaxOf(xmlRoot(text));
  if (!syntax) throw new EInvoiceError(422, 'einvoice.notEInvoice');
  const { name, node } = parseCheckedXml(text);
  let draft: EInvoiceDraft;
  if (syntax.format === 'facturae') draft = readFacturae(node, syntax.version);
  else if (syntax.format === 'cii') draft = readCii(node);
  else draft = readUbl(node, name as keyof typeof UBL_NAMESPACES);
  return finishDraft(draft, labelOf(draft, attachment));
}

/**
 * A file read as an e-invoice: an XML (FacturaE, UBL, CII), or a PDF with one attached (its first attachment that
 * is a UBL or CII). Refused (EInvoiceError) when it is none of these (a PDF with no XML inside: einvoice.pdfWithout), when its XML is too large, hostile or
 * malformed, or when it lacks what every invoice states.
 */
export async function readEInvoice(buffer: Buffer): Promise<EInvoice> {
  if (!looksLikePdf(buffer)) return readEInvoiceXml(buffer);
  const attachments = await pdfXmlAttachments(buffer);
  for (const attachment of attachments) {
    const syntax = syntaxOf(xmlRoot(head(attachment.content)));
    if (syntax) return readEInvoiceXml(attachment.content, attachment.name);
  }
  // An XML inside that is not one read here (ZUGFeRD 1.0's CrossIndustryDocument...) is named as such.
  throw new EInvoiceError(422, attachments.length ? 'einvoice.notEInvoice' : 'einvoice.pdfWithout');
}
