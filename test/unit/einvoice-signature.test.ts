import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { SignedXml, type OptionsXAdES } from 'xadesjs';
import { nameOf, verifySignature } from '../../server/einvoice/signature';

/**
 * Issue 55: a FacturaE's XAdES signature verified. The documents are signed here, with keys and self-signed
 * certificates made for the test (pkijs, which xadesjs's xmldsigjs brings, writes the certificates); the official
 * signed example (factura_ejemplo2_32v1.xml, MITyC's, as esig/dss keeps it) is checked as it was published.
 */
const fixtures = join(import.meta.dirname, '../fixtures/einvoice-checks');
const unsigned = readFileSync(join(fixtures, 'facturae-3.2.2.xml'), 'utf8');
const official = readFileSync(join(fixtures, 'factura_ejemplo2_32v1.xml'), 'utf8');

const engine = new pkijs.CryptoEngine({ name: 'node', crypto: globalThis.crypto });
const SIGNED_AT = new Date('2026-11-02T09:30:00Z');
/** The FacturaE signature policy (XAdES-EPES), as FacturaE signers name it. */
const FACTURAE_POLICY = {
  identifier: { value: 'http://www.facturae.es/politica_de_firma_formato_facturae/politica_de_firma_formato_facturae_v3_1.pdf', description: 'Política de Firma FacturaE v3.1' },
  hash: 'SHA-1',
  digestValue: 'Ohixl6upD6av8N7pEvDABhEL6hM=',
};

interface Signer {
  keys: CryptoKeyPair;
  /** The DER certificate, base64 (as ds:X509Certificate holds it). */
  certificate: string;
  algorithm: RsaHashedImportParams | EcdsaParams;
}

/** C=ES, O=organization, CN=commonName, one attribute per RDN as certificates have them (pkijs would put all in one). */
function distinguishedName(commonName: string, organization: string): pkijs.RelativeDistinguishedNames {
  const rdn = (type: string, value: asn1js.BaseBlock) => new asn1js.Set({ value: [new pkijs.AttributeTypeAndValue({ type, value }).toSchema()] });
  const name = new asn1js.Sequence({
    value: [
      rdn('2.5.4.6', new asn1js.PrintableString({ value: 'ES' })),
      rdn('2.5.4.10', new asn1js.Utf8String({ value: organization })),
      rdn('2.5.4.3', new asn1js.Utf8String({ value: commonName })),
    ],
  });
  return pkijs.RelativeDistinguishedNames.fromBER(name.toBER(false));
}

/** A key pair and a self-signed certificate for it. */
async function makeSigner(commonName: string, organization: string, kind: 'RSA' | 'ECDSA' = 'RSA'): Promise<Signer> {
  const algorithm = kind === 'RSA'
    ? { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }
    : { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await globalThis.crypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  certificate.serialNumber = new asn1js.Integer({ value: Math.floor(Math.random() * 1e9) });
  certificate.subject = distinguishedName(commonName, organization);
  certificate.issuer = distinguishedName(commonName, organization);
  certificate.notBefore.value = new Date('2026-01-01T00:00:00Z');
  certificate.notAfter.value = new Date('2028-01-01T00:00:00Z');
  await certificate.subjectPublicKeyInfo.importKey(keys.publicKey, engine);
  await certificate.sign(keys.privateKey, 'SHA-256', engine);
  const der = certificate.toSchema(true).toBER(false);
  return { keys, certificate: Buffer.from(der).toString('base64'), algorithm: kind === 'RSA' ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } : { name: 'ECDSA', hash: 'SHA-256' } };
}

/** `xml` with an enveloped XAdES-EPES signature by `signer`, as the FacturaE policy asks (options change it). */
async function sign(xml: string, signer: Signer, options: Partial<OptionsXAdES> = {}): Promise<string> {
  const document = new DOMParser().parseFromString(xml, 'application/xml');
  const signature = await new SignedXml().Sign(signer.algorithm, signer.keys.privateKey, document as unknown as Document, {
    x509: [signer.certificate],
    signingCertificate: signer.certificate,
    references: [{ uri: '', hash: 'SHA-256', transforms: ['enveloped'] }],
    policy: FACTURAE_POLICY,
    signerRole: { claimed: ['emisor'] },
    signingTime: { value: SIGNED_AT },
    ...options,
  });
  document.documentElement!.appendChild(signature.GetXml() as never);
  return new XMLSerializer().serializeToString(document);
}

let issuer: Signer;
let other: Signer;
let signed: string;

beforeAll(async () => {
  issuer = await makeSigner('MARÍA LÓPEZ GARCÍA - 12345678Z', 'Suministros Peñalara, S.L.');
  other = await makeSigner('Otro Firmante', 'Otra Empresa SA');
  signed = await sign(unsigned, issuer);
});

describe('a FacturaE signed with XAdES-EPES (issue 55)', () => {
  it("is valid, with the certificate's name and the signing time", async () => {
    expect(await verifySignature(signed)).toEqual({
      status: 'valid',
      signer: 'MARÍA LÓPEZ GARCÍA - 12345678Z, Suministros Peñalara, S.L.',
      // Self-signed: its issuer is itself.
      issuer: 'MARÍA LÓPEZ GARCÍA - 12345678Z, Suministros Peñalara, S.L.',
      signedAt: SIGNED_AT.toISOString(),
    });
  });

  it('is invalid once one amount is changed, and names why', async () => {
    expect(signed).toContain('<InvoiceTotal>1210.00</InvoiceTotal>');
    const changed = signed.replace('<InvoiceTotal>1210.00</InvoiceTotal>', '<InvoiceTotal>1290.00</InvoiceTotal>');
    expect(await verifySignature(changed)).toMatchObject({ status: 'invalid', reason: 'altered' });
  });

  it('names the signer from a name written as one multi-valued RDN, or with escaped characters', () => {
    expect(nameOf('C=ES + O=Suministros Peñalara SL + CN=Firma Uno')).toBe('Firma Uno, Suministros Peñalara SL');
    expect(nameOf('C=ES\nO=Peñalara\\, S.L. \\"Sierra\\"\nCN=Caf\\C3\\A9 Dos')).toBe('Café Dos, Peñalara, S.L. "Sierra"');
    expect(nameOf('C=ES\nserialNumber=IDCES-12345678Z')).toBe('C=ES, serialNumber=IDCES-12345678Z');
  });

  it('is "unsigned" without a ds:Signature', async () => {
    expect(await verifySignature(unsigned)).toEqual({ status: 'unsigned' });
  });

  it('signed with an ECDSA key is valid too', async () => {
    const ecdsa = await makeSigner('Firma Elíptica', 'Suministros Peñalara SL', 'ECDSA');
    expect(await verifySignature(await sign(unsigned, ecdsa))).toMatchObject({ status: 'valid', signer: 'Firma Elíptica, Suministros Peñalara SL' });
  });

  it("the official example (MITyC's, RSA-SHA1, 2010) is valid, and invalid once changed", async () => {
    expect(await verifySignature(official)).toEqual({ status: 'valid', signer: 'Usuario 54, MITyC', issuer: 'CA usuarios, MITyC', signedAt: '2010-03-10T11:46:58.000Z' });
    const changed = official.replace('<InvoiceTotal>63.13</InvoiceTotal>', '<InvoiceTotal>63.14</InvoiceTotal>');
    expect(changed).not.toBe(official);
    expect(await verifySignature(changed)).toMatchObject({ status: 'invalid', reason: 'altered' });
  });
});

describe('a signature that proves less than it seems is invalid (issue 55)', () => {
  let server: Server;
  let requests = 0;
  let base = '';

  beforeAll(async () => {
    server = createServer((_request, response) => {
      requests++;
      response.end('<x/>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('a reference to an external URI: refused, never fetched', async () => {
    const external = await sign(unsigned, issuer, {
      references: [{ uri: '', hash: 'SHA-256', transforms: ['enveloped'] }, { uri: `${base}/anexo.xml`, hash: 'SHA-256' }],
    });
    expect(external).toContain(`URI="${base}/anexo.xml"`);
    expect(await verifySignature(external)).toMatchObject({ status: 'invalid', reason: 'external-reference' });
    expect(requests).toBe(0);
  });

  it('an unknown signature or digest algorithm', async () => {
    const signatureMethod = signed.replace('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256', 'http://www.w3.org/2001/04/xmldsig-more#rsa-whirlpool');
    expect(signatureMethod).not.toBe(signed);
    expect(await verifySignature(signatureMethod)).toMatchObject({ status: 'invalid', reason: 'unsupported-algorithm' });
    const digestMethod = signed.replace('http://www.w3.org/2001/04/xmlenc#sha256', 'http://www.w3.org/2001/04/xmldsig-more#md5');
    expect(digestMethod).not.toBe(signed);
    expect(await verifySignature(digestMethod)).toMatchObject({ status: 'invalid', reason: 'unsupported-algorithm' });
  });

  it("another key than the certificate's, with the certificate shown: never valid in the certificate's name", async () => {
    // Signed with other's key, carrying issuer's certificate and other's bare public key (ds:KeyValue).
    const posing = await sign(unsigned, { ...other, certificate: issuer.certificate }, { keyValue: other.keys.publicKey });
    expect(posing).toContain('RSAKeyValue');
    // xadesjs alone tries every key the signature carries, the bare one included: it accepts this.
    const document = new DOMParser().parseFromString(posing, 'application/xml') as unknown as Document;
    const alone = new SignedXml(document);
    alone.LoadXml(document.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature')[0]);
    expect(await alone.Verify()).toBe(true);
    expect(await verifySignature(posing)).toMatchObject({ status: 'invalid', reason: 'signature-mismatch' });
  });

  it('signed properties that name another certificate than the one that signed', async () => {
    const mismatch = await sign(unsigned, issuer, { signingCertificate: other.certificate });
    expect(await verifySignature(mismatch)).toMatchObject({ status: 'invalid', reason: 'certificate-mismatch' });
  });

  it('a signature over one part of the document only', async () => {
    // The parties are signed (by Id), the amounts are not: changing them would go unnoticed.
    const withId = unsigned.replace('<Parties>', '<Parties Id="partes">');
    const partial = await sign(withId, issuer, { references: [{ uri: '#partes', hash: 'SHA-256' }] });
    expect(await verifySignature(partial)).toMatchObject({ status: 'invalid', reason: 'document-not-covered' });
    const noEnveloped = await sign(unsigned, issuer, { references: [{ uri: '', hash: 'SHA-256', transforms: ['c14n'] }] });
    expect(await verifySignature(noEnveloped)).toMatchObject({ status: 'invalid', reason: 'document-not-covered' });
  });

  it('two signatures, or one inside the invoice rather than beside it', async () => {
    const signature = /<ds:Signature[\s\S]*<\/ds:Signature>/.exec(signed)![0];
    expect(await verifySignature(signed.replace('</fe:Facturae>', `${signature}</fe:Facturae>`))).toMatchObject({ status: 'invalid', reason: 'misplaced' });
    const inside = signed.replace(signature, '').replace('</Parties>', `${signature}</Parties>`);
    expect(await verifySignature(inside)).toMatchObject({ status: 'invalid', reason: 'misplaced' });
  });

  it('a document type declaration, or XML that is not well-formed', async () => {
    const doctype = signed.replace('<fe:Facturae', '<!DOCTYPE fe:Facturae [<!ENTITY a "aaaa">]><fe:Facturae');
    expect(await verifySignature(doctype)).toMatchObject({ status: 'invalid', reason: 'malformed' });
    expect(await verifySignature(signed.slice(0, signed.length - 40))).toMatchObject({ status: 'invalid', reason: 'malformed' });
  });
});
