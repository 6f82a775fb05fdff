/**
 * An e-invoice checked against its official XML Schema (issue 55, "check what can be checked"), offline: the XSDs are
 * shipped in ./xsd (sources and licences in xsd/README.md) and libxml2 runs them, compiled to WebAssembly
 * (xmllint-wasm). Each validation runs in its own worker thread, which xmllint-wasm starts and ends, so the server's
 * event loop only hands the texts over (bench/einvoice-checks.ts measures both). At most MAX_AT_ONCE run together;
 * the others wait their turn.
 *
 * A document that breaks its schema, is not well-formed, or is not the kind of document asked for is reported
 * (`valid: false` with the first errors, each with its line), never thrown. libxml2 neither loads external entities
 * nor fetches schemas named by the document (xsi:schemaLocation), refuses nesting past 256 levels and entity expansion
 * past its amplification limit; all it can read is the memory filesystem of its worker.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { validateXML, memoryPages, type XMLFileInfo } from 'xmllint-wasm';

export type EinvoiceSyntax = 'facturae' | 'ubl' | 'cii';

export interface SchemaCheck {
  valid: boolean;
  /** The first MAX_ERRORS problems, each as "line N: what libxml2 says". */
  errors: string[];
}

export const MAX_ERRORS = 20;
/** Validations running at once (each a worker thread with its own WebAssembly memory); more wait. */
export const MAX_AT_ONCE = 2;
/** The largest document validated, in characters; a larger one is reported, not validated. */
export const MAX_VALIDATED_CHARS = 16 * 1024 * 1024;
/** A worker's WebAssembly memory ceiling: the UBL schemas alone take about 40 MiB once compiled. */
const MAX_MEMORY_PAGES = 256 * memoryPages.MiB;

const XSD_DIR = join(import.meta.dirname, 'xsd');
/** The document's name in the worker's filesystem: libxml2 starts each message with it. */
const DOC_NAME = 'document.xml';

const FACTURAE_NS: Readonly<Record<string, string>> = {
  '3.2': 'http://www.facturae.es/Facturae/2009/v3.2/Facturae',
  '3.2.1': 'http://www.facturae.es/Facturae/2014/v3.2.1/Facturae',
  '3.2.2': 'http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_2.xml',
};
const FACTURAE_XSD: Readonly<Record<string, string>> = {
  '3.2': 'facturae/Facturaev3_2.xsd',
  '3.2.1': 'facturae/Facturaev3_2_1.xsd',
  '3.2.2': 'facturae/Facturaev3_2_2.xsd',
};
const UBL_ROOTS: Readonly<Record<string, { ns: string; xsd: string }>> = {
  Invoice: { ns: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2', xsd: 'ubl-2.1/UBL-Invoice-2.1-offline.xsd' },
  CreditNote: { ns: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2', xsd: 'ubl-2.1/UBL-CreditNote-2.1-offline.xsd' },
};
const CII_NS = 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100';
const CII_XSD = 'cii-d16b/CrossIndustryInvoice_100pD16B.xsd';

/** The versions each syntax is validated in (the reader names the version it found). */
export const SCHEMA_VERSIONS: Readonly<Record<EinvoiceSyntax, readonly string[]>> = {
  facturae: Object.keys(FACTURAE_XSD),
  // Peppol BIS Billing 3.0 documents often leave cbc:UBLVersionID out ('').
  ubl: ['2.1', ''],
  // A CII document does not say its directory version (the namespace ends in :100 from D16A on): D16B for all,
  // the version EN 16931 and Factur-X bind to.
  cii: ['*'],
};

/** The root element a document must have, and the schema that checks it; or why there is none. */
type Target = { xsd: string; ns: string; name: string } | { problem: string };

function targetOf(syntax: EinvoiceSyntax, version: string, rootName: string | undefined): Target {
  if (syntax === 'facturae') {
    const xsd = FACTURAE_XSD[version];
    return xsd ? { xsd, ns: FACTURAE_NS[version], name: 'Facturae' } : { problem: `no schema for FacturaE ${version} (known: ${Object.keys(FACTURAE_XSD).join(', ')})` };
  }
  if (syntax === 'ubl') {
    if (!SCHEMA_VERSIONS.ubl.includes(version)) return { problem: `no schema for UBL ${version} (known: 2.1)` };
    const root = UBL_ROOTS[rootName ?? ''] ?? UBL_ROOTS.Invoice;
    return { xsd: root.xsd, ns: root.ns, name: rootName === 'CreditNote' ? 'CreditNote' : 'Invoice' };
  }
  return { xsd: CII_XSD, ns: CII_NS, name: 'CrossIndustryInvoice' };
}

/**
 * The document element's name and namespace, read from its start tag: the root's namespace can only be declared on
 * the root itself. Undefined when there is no readable start tag (libxml2 then says what is wrong).
 */
export function rootElementOf(xml: string): { name: string; ns: string | undefined; line: number } | undefined {
  // Skip the prolog: XML declaration, processing instructions, comments, a document type (with its internal subset).
  const head = xml.slice(0, 64 * 1024);
  const prolog = /^(?:\uFEFF)?(?:\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE(?:[^[>]|\[[\s\S]*?\])*>)*/.exec(head);
  const start = prolog ? prolog[0].length : 0;
  const tag = /^<(?:([A-Za-z_][\w.-]*):)?([A-Za-z_][\w.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*\/?>/.exec(head.slice(start));
  if (!tag) return undefined;
  const [, prefix, name, attributes] = tag;
  const wanted = prefix ? `xmlns:${prefix}` : 'xmlns';
  let ns: string | undefined;
  for (const attribute of attributes.matchAll(/([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    if (attribute[1] === wanted) ns = attribute[2] ?? attribute[3];
  }
  const line = head.slice(0, start).split('\n').length;
  return { name, ns, line };
}

/** The schemas' texts, read once and kept (3.6 MB for the three syntaxes). */
const texts = new Map<string, string>();

function schemaFile(path: string): XMLFileInfo {
  let contents = texts.get(path);
  if (contents === undefined) {
    contents = readFileSync(join(XSD_DIR, path), 'utf8');
    texts.set(path, contents);
  }
  return { fileName: `xsd/${path}`, contents };
}

const imports = new Map<string, XMLFileInfo[]>();

/** The files `main` imports, directly or not: its folder's others, and the xmldsig schema UBL and FacturaE import. */
function importsOf(main: string): XMLFileInfo[] {
  let files = imports.get(main);
  if (!files) {
    files = listImports(main).map(schemaFile);
    imports.set(main, files);
  }
  return files;
}

function listImports(main: string): string[] {
  const xmldsig = 'facturae/xmldsig-core-schema.xsd';
  if (main.startsWith('facturae/')) return [xmldsig];
  const family = main.split('/')[0];
  const paths = filesUnder(join(XSD_DIR, family)).map((path) => relative(XSD_DIR, path).split(sep).join('/'));
  const others = paths.filter((path) => path !== main && !path.endsWith('-offline.xsd'));
  return [...others, ...(family === 'ubl-2.1' ? [xmldsig] : [])];
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.name.endsWith('.xsd') ? [path] : [];
  });
}

/** libxml2's messages about the document, as "line N: message"; its echo of the source and the caret lines are left out. */
export function documentErrors(output: string): string[] {
  const errors: string[] = [];
  for (const line of output.split('\n')) {
    const located = /^(?:document\.xml:(\d+)|Entity: line (\d+)): (.*)$/.exec(line);
    if (!located) continue;
    const message = located[3].replace(/^(?:element \S+: )?(?:Schemas validity |parser )?(?:error|warning) ?: ?/, '').trim();
    errors.push(`line ${located[1] ?? located[2]}: ${message}`);
  }
  return errors;
}

/** An XML declaration's encoding, made UTF-8: the text is already decoded, and libxml2 is handed it in UTF-8. */
function declaredUtf8(xml: string): string {
  return xml.replace(/^(\uFEFF?<\?xml[^?]*?\bencoding\s*=\s*)(["'])[^"']*\2/, '$1$2UTF-8$2');
}

let running = 0;
const waiting: Array<() => void> = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/**
 * Whether `xml` is valid against the official schema of `syntax` in `version` (FacturaE 3.2, 3.2.1, 3.2.2; UBL 2.1
 * Invoice or CreditNote, chosen by the root element; CII D16B CrossIndustryInvoice). Rejects only when the check itself
 * cannot run (a shipped schema missing or broken), never for what the document holds.
 */
export async function validateSchema(xml: string, syntax: EinvoiceSyntax, version: string): Promise<SchemaCheck> {
  if (xml.length > MAX_VALIDATED_CHARS) return { valid: false, errors: [`the document is larger than ${MAX_VALIDATED_CHARS} characters; it was not validated`] };
  const root = rootElementOf(xml);
  const target = targetOf(syntax, version, root?.name);
  if ('problem' in target) return { valid: false, errors: [target.problem] };
  if (root && (root.name !== target.name || root.ns !== target.ns)) {
    return { valid: false, errors: [`line ${root.line}: the root element is {${root.ns ?? ''}}${root.name}, expected {${target.ns}}${target.name}`] };
  }
  return inTurn(async () => {
    try {
      const result = await validateXML({
        xml: [{ fileName: DOC_NAME, contents: declaredUtf8(xml) }],
        schema: [schemaFile(target.xsd)],
        preload: importsOf(target.xsd),
        maxMemoryPages: MAX_MEMORY_PAGES,
      });
      if (result.valid) return { valid: true, errors: [] };
      const errors = documentErrors(result.rawOutput);
      return { valid: false, errors: (errors.length ? errors : ['the document is not valid against its schema']).slice(0, MAX_ERRORS) };
    } catch (error) {
      // xmllint ended otherwise than "valid" or "invalid": what it said of the document, if anything, is the answer;
      // a shipped schema it could not read is this module's fault, thrown; anything else (its memory), reported.
      const said = error instanceof Error ? error.message : String(error);
      const errors = documentErrors(said);
      if (errors.length) return { valid: false, errors: errors.slice(0, MAX_ERRORS) };
      if (said.includes('xsd/')) throw error;
      return { valid: false, errors: [`the document could not be validated: ${said.split('\n')[0]}`] };
    }
  });
}
