/**
 * The server as production runs it, from its bundle (scripts/build-server.ts, `npm run build`): what the bundle must
 * find beside itself or name apart works there, as it does from TypeScript. Its signature thread loads the
 * signature's own bundle (not the server's, which would start a second server), PGlite's thread script and the
 * e-invoice XSDs are read from the bundle's folder, the resource declarations are all there, and the API's version is
 * the package's. (The document readers and attachment processes it forks run in every e2e file.)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../scripts/token';
import { loadConfig } from '../../server/config';
import { IN_THREAD_CHARS } from '../../server/einvoice/signature';
import { RESOURCES } from '../../shared/resources/registry';
import { makeSigner, sign } from '../fixtures/einvoice-checks/signing';
import { freePort } from '../support/free-port';
import { startServerProcess, type ServerProcess } from '../support/server-process';

const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-bundle-'));
let server: ServerProcess;
let token: string;

beforeAll(async () => {
  const port = await freePort();
  const env = { DATA_DIR: dataDir, EXTRACT_WARM: '0' };
  server = await startServerProcess(env, port);
  const issued = await issueToken(loadConfig({ ...env, PORT: String(port), LOG_LEVEL: 'silent' }), 'staff@demo.example');
  if (!issued.ok) throw new Error(issued.message);
  token = issued.token;
}, 240_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the bundled server (build/server/main.js)', () => {
  it('checks a long FacturaE: its schema by the XSDs and its signature on the signature thread', async () => {
    const signer = await makeSigner('MARÍA LÓPEZ GARCÍA - 12345678Z', 'Suministros Peñalara, S.L.');
    // Long enough to be checked on the signature thread (the lines repeated: their sums no longer match, said apart).
    const unsigned = readFileSync('test/fixtures/einvoice-checks/facturae-3.2.2.xml', 'utf8');
    const line = /<InvoiceLine>[\s\S]*?<\/InvoiceLine>/.exec(unsigned)![0];
    const xml = await sign(unsigned.replace(/<Items>[\s\S]*<\/Items>/, `<Items>${line.repeat(Math.ceil((2 * IN_THREAD_CHARS) / line.length))}</Items>`), signer);
    expect(xml.length).toBeGreaterThan(IN_THREAD_CHARS);
    const response = await fetch(`${server.url}/ocr/move/`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json', 'accept-language': 'es' },
      body: JSON.stringify({ file: `data:application/xml;base64,${Buffer.from(xml).toString('base64')}` }),
    });
    expect(response.status).toBe(200);
    const fields = JSON.parse(((await response.json()) as { result: string }).result);
    expect(fields.einvoice.checks.schema).toEqual({ valid: true, errors: [] });
    expect(fields.einvoice.checks.signature).toMatchObject({ status: 'valid', signer: 'MARÍA LÓPEZ GARCÍA - 12345678Z, Suministros Peñalara, S.L.' });
  }, 120_000);

  it('documents every declared resource, under the package version', async () => {
    const document = (await (await fetch(`${server.url}/docs/json`)).json()) as { info: { version: string }; paths: Record<string, unknown> };
    expect(document.info.version).toBe((JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version);
    const listed = RESOURCES.filter((resource) => resource.verbs.list);
    expect(listed.length).toBeGreaterThan(3);
    // Each one's routes, under its path as OpenAPI writes it (/odoo/taxes/{companyId}).
    for (const resource of listed) {
      const path = resource.path.replace(/:(\w+)/g, '{$1}');
      expect(Object.keys(document.paths).some((documented) => documented.startsWith(path)), resource.name).toBe(true);
    }
  });
});
