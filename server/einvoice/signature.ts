/**
 * A FacturaE's XAdES signature checked (issue 55, "check what can be checked"): whether the document is unaltered
 * since the holder of the certificate in its signature signed it. The signature is the enveloped ds:Signature the
 * FacturaE signature policy asks for (XAdES-EPES), checked with xadesjs (on xmldsigjs, @xmldom/xmldom for the DOM,
 * Node's WebCrypto for the arithmetic).
 *
 * What "valid" means: every reference's digest matches, the signature value verifies with the public key of a
 * certificate the signature carries, that certificate is the one the signed properties name (when they name one), and
 * the whole document is covered (a reference to "" with only the enveloped-signature and canonicalisation
 * transforms). The certificate's chain is NOT checked (there is no trust store offline): "valid, signer X" says the
 * document is as X's certificate signed it, not that X's certificate is trusted.
 *
 * Before xadesjs reads anything, the signature's structure is checked: a reference to anything but the document
 * itself or an element in it by Id ("#id") is refused, never fetched; every algorithm must be one of a fixed list
 * (HMAC, XPath and XSLT transforms are refused). A document type declaration is refused (no entity is expanded).
 */
import { X509Certificate, createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DOMImplementation, DOMParser, XMLSerializer, onErrorStopParsing, type Document, type Element } from '@xmldom/xmldom';
import { Application, SignedXml, setNodeDependencies } from 'xadesjs';

export type SignatureProblem =
  /** Not well-formed, or with a document type declaration. */
  | 'malformed'
  /** More than one ds:Signature, or one that is not a child of the document element. */
  | 'misplaced'
  /** A reference to something outside the document (a URL, a file, an omitted URI). */
  | 'external-reference'
  /** No reference covers the whole document. */
  | 'document-not-covered'
  /** An algorithm or transform outside the accepted list (or HMAC, which names no signer). */
  | 'unsupported-algorithm'
  /** No X.509 certificate in the signature's KeyInfo. */
  | 'no-certificate'
  /** A digest does not match: the document (or what the signature covers) changed after signing. */
  | 'altered'
  /** The signature value does not verify with any certificate the signature carries. */
  | 'signature-mismatch'
  /** The signed properties name another certificate than the one that signed. */
  | 'certificate-mismatch'
  /** xadesjs could not read the signature. */
  | 'unreadable';

export type SignatureCheck =
  | { status: 'unsigned' }
  | { status: 'valid'; signer: string; issuer: string; signedAt?: string }
  | { status: 'invalid'; reason: SignatureProblem; detail: string };

/** Documents up to this length are checked on the calling thread (about 10 ms for a 13 KB FacturaE); longer ones on the signature thread. */
export const IN_THREAD_CHARS = 32 * 1024;
/** A check on the signature thread past this is stopped, the thread ended, and the document said 'unreadable'. */
export const THREAD_TIME_LIMIT_MS = 30_000;
/** The signature thread ends after this long unused. */
const THREAD_IDLE_MS = 60_000;

const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const XADES_NAMESPACES = ['http://uri.etsi.org/01903/v1.3.2#', 'http://uri.etsi.org/01903/v1.4.1#', 'http://uri.etsi.org/01903/v1.1.1#'];

const C14N = [
  'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
  'http://www.w3.org/TR/2001/REC-xml-c14n-20010315#WithComments',
  'http://www.w3.org/2001/10/xml-exc-c14n#',
  'http://www.w3.org/2001/10/xml-exc-c14n#WithComments',
];
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
/** The digest algorithms accepted, with node:crypto's names for them. */
const DIGEST_NAMES: Readonly<Record<string, string>> = {
  'http://www.w3.org/2000/09/xmldsig#sha1': 'sha1',
  'http://www.w3.org/2001/04/xmlenc#sha256': 'sha256',
  'http://www.w3.org/2001/04/xmldsig-more#sha384': 'sha384',
  'http://www.w3.org/2001/04/xmlenc#sha512': 'sha512',
};
const DIGESTS = Object.keys(DIGEST_NAMES);
const SIGNATURES = [
  'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
  ...['rsa-sha256', 'rsa-sha384', 'rsa-sha512', 'ecdsa-sha1', 'ecdsa-sha256', 'ecdsa-sha384', 'ecdsa-sha512'].map((name) => `http://www.w3.org/2001/04/xmldsig-more#${name}`),
  ...['sha1', 'sha256', 'sha384', 'sha512'].map((hash) => `http://www.w3.org/2007/05/xmldsig-more#${hash}-rsa-MGF1`),
];

setNodeDependencies({ DOMParser, XMLSerializer, DOMImplementation });
Application.setEngine('NodeJS', globalThis.crypto);

/** An error's message: xml-core's XmlError is not an Error, but has one. */
function messageOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(error);
}

class Refusal extends Error {
  constructor(readonly reason: SignatureProblem, detail: string) {
    super(detail);
  }
}

function elementsOf(parent: Document | Element, ns: string, name: string): Element[] {
  return Array.from(parent.getElementsByTagNameNS(ns, name));
}

/** The children of `parent` named {ns}name (the signature's structure is read by children, as xmldsigjs reads it). */
function childrenOf(parent: Element | undefined, ns: string, name: string): Element[] {
  if (!parent) return [];
  return Array.from(parent.childNodes).filter((node): node is Element => node.nodeType === 1 && (node as Element).namespaceURI === ns && (node as Element).localName === name);
}

const algorithmOf = (parent: Element | undefined, name: string) => childrenOf(parent, DSIG, name)[0]?.getAttribute('Algorithm') ?? null;

function parse(xml: string): Document {
  // A FacturaE has no document type; one could declare entities, which nothing here expands.
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new Refusal('malformed', 'the document has a document type declaration');
  try {
    return new DOMParser({ onError: onErrorStopParsing }).parseFromString(xml.replace(/^\uFEFF/, ''), 'application/xml');
  } catch (error) {
    throw new Refusal('malformed', messageOf(error));
  }
}

function checkAlgorithm(algorithm: string | null, accepted: readonly string[], what: string) {
  if (!algorithm || !accepted.includes(algorithm)) throw new Refusal('unsupported-algorithm', `${what} algorithm not accepted: ${algorithm ?? '(none)'}`);
}

/**
 * The signature's references and algorithms, checked in its DOM before xadesjs reads it: only the document itself
 * ("") and elements in it ("#id"); one reference covers the whole document with nothing but the enveloped-signature
 * and canonicalisation transforms; every algorithm is on the lists above.
 */
/** The references a signature may carry (XAdES-EPES uses three). */
const MAX_REFERENCES = 4;

function checkStructure(signature: Element): void {
  const signedInfo = childrenOf(signature, DSIG, 'SignedInfo')[0];
  if (!signedInfo) throw new Refusal('unreadable', 'the signature has no SignedInfo');
  checkAlgorithm(algorithmOf(signedInfo, 'CanonicalizationMethod'), C14N, 'canonicalisation');
  checkAlgorithm(algorithmOf(signedInfo, 'SignatureMethod'), SIGNATURES, 'signature');
  let wholeDocument = false;
  // Each reference to the document digests it whole: a few are what XAdES uses (the document, the signed properties,
  // the certificate); more would make one request canonicalise a document again and again.
  const references = childrenOf(signedInfo, DSIG, 'Reference');
  if (references.length > MAX_REFERENCES) throw new Refusal('unsupported-algorithm', `the signature has ${references.length} references; at most ${MAX_REFERENCES} are checked`);
  for (const reference of references) {
    const uri = reference.getAttribute('URI');
    if (uri === null || (uri !== '' && !/^#[A-Za-z_][\w.-]*$/.test(uri))) throw new Refusal('external-reference', `a reference points outside the document: ${uri ?? '(no URI)'}`);
    const transforms = childrenOf(childrenOf(reference, DSIG, 'Transforms')[0], DSIG, 'Transform').map((transform) => transform.getAttribute('Algorithm'));
    for (const transform of transforms) checkAlgorithm(transform, [ENVELOPED, ...C14N], 'transform');
    checkAlgorithm(algorithmOf(reference, 'DigestMethod'), DIGESTS, 'digest');
    if (uri === '' && transforms.includes(ENVELOPED)) wholeDocument = true;
  }
  if (!wholeDocument) throw new Refusal('document-not-covered', 'no reference covers the whole document (URI "" with the enveloped-signature transform)');
}

/** The one ds:Signature, a child of the document element; undefined when there is none. */
function signatureOf(document: Document): Element | undefined {
  const signatures = elementsOf(document, DSIG, 'Signature');
  if (!signatures.length) return undefined;
  if (signatures.length > 1) throw new Refusal('misplaced', `the document has ${signatures.length} signatures`);
  const [signature] = signatures;
  if (signature.parentNode !== document.documentElement) throw new Refusal('misplaced', 'the signature is not a child of the document element');
  return signature;
}

/** An attribute value as Node writes it unescaped: "\\," and the like (RFC 2253), "\\C3\\A9" as UTF-8 bytes. */
function unescaped(value: string): string {
  return value.replace(/((?:\\[0-9A-Fa-f]{2})+)|\\(.)/g, (_, hex: string | undefined, character: string | undefined) =>
    hex ? Buffer.from(hex.replaceAll('\\', ''), 'hex').toString('utf8') : (character ?? ''));
}

/**
 * "CN, O" of a certificate's subject or issuer as Node writes it: one attribute a line ("C=ES\nO=...\nCN=..."), the
 * attributes of a multi-valued RDN joined by " + ", special characters escaped with a backslash.
 */
export function nameOf(distinguishedName: string): string {
  const parts = new Map<string, string>();
  for (const attribute of distinguishedName.split(/\n| \+ (?=[A-Za-z][\w.-]*=)/)) {
    const at = attribute.indexOf('=');
    if (at > 0 && !parts.has(attribute.slice(0, at))) parts.set(attribute.slice(0, at), unescaped(attribute.slice(at + 1)));
  }
  const names = [parts.get('CN'), parts.get('O')].filter((name): name is string => !!name);
  return [...new Set(names)].join(', ') || distinguishedName.replaceAll('\n', ', ');
}

/** A certificate of the signature's KeyInfo as xmldsigjs reads it (ds:X509Data's ds:X509Certificate). */
interface DsigCertificate {
  GetRaw(): Uint8Array;
  exportKey(algorithm: Algorithm): Promise<CryptoKey>;
}

function certificatesOf(signed: SignedXml): DsigCertificate[] {
  return signed.XmlSignature.KeyInfo.GetIterator().flatMap((info) => (info as { Certificates?: DsigCertificate[] }).Certificates ?? []);
}

/**
 * The certificate whose key verifies the signature. The references are checked first, with each key: a changed
 * digest is the answer at once. A certificate whose key does not fit the signature method is passed over.
 */
async function signerOf(signed: SignedXml): Promise<DsigCertificate> {
  const certificates = certificatesOf(signed);
  if (!certificates.length) throw new Refusal('no-certificate', 'the signature carries no X.509 certificate');
  if (!signed.Algorithm) throw new Refusal('unreadable', 'the signature method could not be read');
  let unfit = '';
  for (const certificate of certificates) {
    try {
      // exportKey completes the algorithm it is given (hash, curve): a copy each time.
      const key = await certificate.exportKey({ ...signed.Algorithm });
      // Verify(key) imports the key again with signed.Algorithm, which for ECDSA lacks the curve.
      if ('namedCurve' in key.algorithm) signed.Algorithm = { ...signed.Algorithm, namedCurve: (key.algorithm as EcKeyAlgorithm).namedCurve } as EcKeyImportParams;
      if (await signed.Verify(key)) return certificate;
    } catch (error) {
      const detail = messageOf(error);
      if (/Invalid digest/.test(detail)) throw new Refusal('altered', detail);
      unfit = `; ${detail}`;
    }
  }
  throw new Refusal('signature-mismatch', `the signature value does not verify with the certificate it carries${unfit}`);
}

/** The signed properties' element, when a reference of SignedInfo covers it. */
function signedPropertiesOf(signature: Element): Element | undefined {
  const references = childrenOf(childrenOf(signature, DSIG, 'SignedInfo')[0], DSIG, 'Reference');
  const covered = new Set(references.map((reference) => reference.getAttribute('URI')));
  return XADES_NAMESPACES.flatMap((ns) => elementsOf(signature, ns, 'SignedProperties')).find((properties) => covered.has(`#${properties.getAttribute('Id')}`));
}

/** The certificate digests the signed properties name (SigningCertificate or SigningCertificateV2). */
function namedCertificates(properties: Element): Array<{ algorithm: string; value: string }> {
  const digests = XADES_NAMESPACES.flatMap((ns) => elementsOf(properties, ns, 'CertDigest'));
  return digests.map((digest) => ({
    algorithm: elementsOf(digest, DSIG, 'DigestMethod')[0]?.getAttribute('Algorithm') ?? '',
    value: (elementsOf(digest, DSIG, 'DigestValue')[0]?.textContent ?? '').replace(/\s+/g, ''),
  }));
}

function checkNamedCertificate(properties: Element, signer: DsigCertificate): void {
  const named = namedCertificates(properties);
  if (!named.length) return;
  for (const { algorithm, value } of named) {
    checkAlgorithm(algorithm, DIGESTS, 'certificate digest');
    if (createHash(DIGEST_NAMES[algorithm]).update(signer.GetRaw()).digest('base64') === value) return;
  }
  throw new Refusal('certificate-mismatch', 'the signed properties name another certificate than the one that signed');
}

function signingTimeOf(properties: Element): string | undefined {
  const text = XADES_NAMESPACES.flatMap((ns) => elementsOf(properties, ns, 'SigningTime'))[0]?.textContent?.trim();
  const time = text ? new Date(text) : undefined;
  return time && !Number.isNaN(time.getTime()) ? time.toISOString() : undefined;
}

async function check(xml: string): Promise<SignatureCheck> {
  const document = parse(xml);
  const signature = signatureOf(document);
  if (!signature) return { status: 'unsigned' };
  checkStructure(signature);
  const signed = new SignedXml(document as unknown as globalThis.Document);
  try {
    signed.LoadXml(signature as unknown as globalThis.Element);
  } catch (error) {
    throw new Refusal('unreadable', messageOf(error));
  }
  const signer = await signerOf(signed);
  const properties = signedPropertiesOf(signature);
  if (properties) checkNamedCertificate(properties, signer);
  const certificate = new X509Certificate(signer.GetRaw());
  const signedAt = properties ? signingTimeOf(properties) : undefined;
  return { status: 'valid', signer: nameOf(certificate.subject), issuer: nameOf(certificate.issuer), ...(signedAt ? { signedAt } : {}) };
}

/** The check on the calling thread (the signature thread runs this). */
export async function verifySignatureHere(xml: string): Promise<SignatureCheck> {
  try {
    return await check(xml);
  } catch (error) {
    if (error instanceof Refusal) return { status: 'invalid', reason: error.reason, detail: error.message };
    return { status: 'invalid', reason: 'unreadable', detail: messageOf(error) };
  }
}

/**
 * The signature thread's script (given as text: this folder holds no other file). It loads this module (through tsx
 * when the server runs from TypeScript) and answers each document posted to it.
 */
const THREAD_SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  if (workerData.loader) (await import(workerData.loader)).register();
  const { verifySignatureHere } = await import(workerData.module);
  parentPort.on('message', async ({ id, xml }) => parentPort.postMessage({ id, answer: await verifySignatureHere(xml) }));
  parentPort.postMessage({ ready: true });
})();
`;

let thread: Worker | undefined;
let idle: NodeJS.Timeout | undefined;
let turn: Promise<unknown> = Promise.resolve();
let asked = 0;

/**
 * Run from TypeScript (node --import tsx, vitest), the thread needs tsx too: its ESM API's address, which registers
 * it (Node 20 ignores --import in a thread's execArgv, and tsx's CommonJS API fails in an evaluated script).
 */
function tsxApi(): string | undefined {
  if (!import.meta.url.endsWith('.ts')) return undefined;
  const require = createRequire(import.meta.url);
  const manifest = require('tsx/package.json') as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(join(dirname(require.resolve('tsx/package.json')), manifest.exports['./esm/api'].import.default)).href;
}

/**
 * The module the thread loads: this one, or, where the server runs bundled (scripts/build-server.ts), the bundle of this
 * module beside the server's (this code is then inside the server's own, which the thread must not start again).
 */
const THREAD_MODULE = import.meta.url.endsWith('.ts') ? import.meta.url : new URL('./signature.js', import.meta.url).href;

function startThread(): Worker {
  const worker = new Worker(THREAD_SCRIPT, { eval: true, workerData: { module: THREAD_MODULE, loader: tsxApi() } });
  worker.unref();
  const forget = () => {
    if (thread === worker) thread = undefined;
  };
  worker.once('exit', forget).once('error', forget);
  return worker;
}

/** The answer of the signature thread, started on first use, ended after THREAD_IDLE_MS unused or past the time limit. */
function inThread(xml: string): Promise<SignatureCheck> {
  clearTimeout(idle);
  const worker = (thread ??= startThread());
  const id = ++asked;
  return new Promise<SignatureCheck>((resolve) => {
    let settled = false;
    const done = (answer: SignatureCheck) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onFailure).off('exit', onFailure);
      if (thread === worker) idle = setTimeout(() => void worker.terminate(), THREAD_IDLE_MS).unref();
      resolve(answer);
    };
    const onMessage = (message: { id?: number; answer?: SignatureCheck }) => {
      if (message.id === id && message.answer) done(message.answer);
    };
    const onFailure = (error?: unknown) => done({ status: 'invalid', reason: 'unreadable', detail: `the signature check failed: ${messageOf(error ?? 'its thread ended')}` });
    const timer = setTimeout(() => {
      // The next document goes to a new thread, not to this one while it ends.
      if (thread === worker) thread = undefined;
      void worker.terminate();
      done({ status: 'invalid', reason: 'unreadable', detail: `the signature check took more than ${THREAD_TIME_LIMIT_MS / 1000} s` });
    }, THREAD_TIME_LIMIT_MS);
    worker.on('message', onMessage).once('error', onFailure).once('exit', onFailure);
    worker.postMessage({ id, xml });
  });
}

/**
 * The FacturaE's signature: 'unsigned' (no ds:Signature), 'valid' with the signer's and issuer's names (CN, O) and
 * the signing time the signed properties state, or 'invalid' with why. Never rejects for what the document holds.
 * A document longer than IN_THREAD_CHARS is checked on the signature thread, one at a time (the canonicalisation of
 * a 1.3 MB FacturaE holds a thread about 0.6 s: bench/einvoice-checks.ts).
 */
export function verifySignature(xml: string): Promise<SignatureCheck> {
  if (xml.length <= IN_THREAD_CHARS) return verifySignatureHere(xml);
  const answer = turn.then(() => inThread(xml));
  turn = answer;
  return answer;
}
