import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xadesjs';
import { IN_THREAD_CHARS, nameOf, verifySignature } from '../../server/einvoice/signature';
import { makeSigner, sign, type Signer } from '../fixtures/einvoice-checks/signing';

/**
 * Issue 55: a FacturaE's XAdES signature verified. The documents are signed here, with keys and self-signed
 * certificates made for the test (fixtures/einvoice-checks/signing.ts); the official
 * signed example (factura_ejemplo2_32v1.xml, MITyC's, as esig/dss keeps it) is checked as it was published.
 */
const fixtures = join(import.meta.dirname, '../fixtures/einvoice-checks');
const unsigned = readFileSync(join(fixtures, 'facturae-3.2.2.xml'), 'utf8');
const official = readFileSync(join(fixtures, 'factura_ejemplo2_32v1.xml'), 'utf8');

const SIGNED_AT = new Date('2026-11-02T09:30:00Z');

let issuer: Signer;
let other: Signer;
let signed: string;

beforeAll(async () => {
  issuer = await makeSigner('MARÍA LÓPEZ GARCÍA - 12345678Z', 'Suministros Peñalara, S.L.');
  other = await makeSigner('Otro Firmante', 'Otra Empresa SA');
  signed = await sign(unsigned, issuer, { signingTime: { value: SIGNED_AT } });
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

  it('carrying other certificates too (a chain, an ECDSA one first): the signer is the one whose key verifies', async () => {
    const ecdsa = await makeSigner('Firma Elíptica', 'Otra Empresa SA', 'ECDSA');
    const chain = await sign(unsigned, issuer, { x509: [ecdsa.certificate, other.certificate, issuer.certificate] });
    expect(await verifySignature(chain)).toMatchObject({ status: 'valid', signer: 'MARÍA LÓPEZ GARCÍA - 12345678Z, Suministros Peñalara, S.L.' });
  });

  it(`a long one (over ${IN_THREAD_CHARS} characters) is checked off the calling thread: valid, then invalid once changed`, async () => {
    const line = /<InvoiceLine>[\s\S]*?<\/InvoiceLine>/.exec(unsigned)![0];
    const long = await sign(unsigned.replace(/<Items>[\s\S]*<\/Items>/, `<Items>${line.repeat(1500)}</Items>`), issuer);
    expect(long.length).toBeGreaterThan(30 * IN_THREAD_CHARS);
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const started = performance.now();
    expect(await verifySignature(long)).toMatchObject({ status: 'valid', signer: 'MARÍA LÓPEZ GARCÍA - 12345678Z, Suministros Peñalara, S.L.' });
    const took = performance.now() - started;
    delay.disable();
    // On the calling thread the canonicalisation held it for most of the check (575 of 725 ms in the bench).
    expect(delay.max / 1e6).toBeLessThan(took / 2);
    expect(await verifySignature(long.replace('<Quantity>20</Quantity>', '<Quantity>21</Quantity>'))).toMatchObject({ status: 'invalid', reason: 'altered' });
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
