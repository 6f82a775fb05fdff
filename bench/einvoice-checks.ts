/**
 * What checking a supplier e-invoice costs (issue 55, part B): its schema validation (libxml2 in WebAssembly, a worker
 * thread per document) and its XAdES signature verification (xadesjs, on the calling thread). For each sample it
 * prints, over `--runs` runs after a warm-up:
 * - the time to the answer, p50 and p95;
 * - the time the calling thread is held: for a validation, the synchronous part of the call (preparing the texts,
 *   starting the worker, handing it the schemas); for a verification, the longest stretch the event loop could not
 *   run (perf_hooks' event-loop delay, max), since the canonicalisation runs on the calling thread;
 * - validations four at a time (at most MAX_AT_ONCE run together), the wall time for the four.
 * The figures are printed; nothing here fails on a figure.
 *   node --import tsx bench/einvoice-checks.ts [--runs 20] [--lines 2000]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { validateSchema, type EinvoiceSyntax } from '../server/einvoice/schema';
import { verifySignature } from '../server/einvoice/signature';
import { makeSigner, sign } from '../test/fixtures/einvoice-checks/signing';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' }, lines: { type: 'string', default: '2000' } } });
const runs = Number(values.runs);
const manyLines = Number(values.lines);

const fixtures = join(import.meta.dirname, '../test/fixtures/einvoice-checks');
const read = (name: string) => readFileSync(join(fixtures, name), 'utf8');
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const kb = (text: string) => `${(Buffer.byteLength(text) / 1024).toFixed(0)} KB`;

/** p50 and p95 of the answer's time and the largest synchronous part, over `runs` runs after 3 to warm up. */
async function timed(work: () => Promise<unknown>): Promise<{ p50: number; p95: number; held: number }> {
  for (let i = 0; i < 3; i++) await work();
  const times: number[] = [];
  let held = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const answer = work();
    held = Math.max(held, performance.now() - started);
    await answer;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95), held };
}

/** The FacturaE sample with `count` invoice lines (the first repeated), its totals left as they are. */
function withLines(xml: string, count: number): string {
  const line = /<InvoiceLine>[\s\S]*?<\/InvoiceLine>/.exec(xml)![0];
  return xml.replace(/<Items>[\s\S]*<\/Items>/, `<Items>${line.repeat(count)}</Items>`);
}

async function schemas() {
  const facturae = read('facturae-3.2.2.xml');
  const ubl = read('ubl-tc434-example1.xml');
  const ublLine = /<cac:InvoiceLine>[\s\S]*?<\/cac:InvoiceLine>/.exec(ubl)![0];
  const samples: Array<[string, string, EinvoiceSyntax, string]> = [
    ['FacturaE 3.2.2, 2 lines', facturae, 'facturae', '3.2.2'],
    [`FacturaE 3.2.2, ${manyLines} lines`, withLines(facturae, manyLines), 'facturae', '3.2.2'],
    ['UBL 2.1 invoice (EN 16931 example 1)', ubl, 'ubl', '2.1'],
    [`UBL 2.1 invoice, ${manyLines} lines`, ubl.replace(ublLine, ublLine.repeat(manyLines)), 'ubl', '2.1'],
    ['CII D16B (EN 16931 example 3)', read('CII_example3.xml'), 'cii', 'D16B'],
  ];
  console.log(`Schema validation (${runs} runs each)`);
  for (const [name, xml, syntax, version] of samples) {
    const { p50, p95, held } = await timed(() => validateSchema(xml, syntax, version));
    console.log(`  ${name} (${kb(xml)}): p50 ${ms(p50)}, p95 ${ms(p95)}; calling thread held at most ${ms(held)}`);
  }
  for (const [name, xml, syntax, version] of [samples[0], samples[2]]) {
    const started = performance.now();
    await Promise.all([1, 2, 3, 4].map(() => validateSchema(xml, syntax, version)));
    console.log(`  four ${name} at once: ${ms(performance.now() - started)}`);
  }
}

async function signatures() {
  const signer = await makeSigner('Firma de Medida', 'Suministros Peñalara SL');
  const facturae = read('facturae-3.2.2.xml');
  const samples: Array<[string, string]> = [
    ['official FacturaE 3.2 example (RSA-SHA1, 1024 bits)', read('factura_ejemplo2_32v1.xml')],
    ['FacturaE 3.2.2, 2 lines (RSA-SHA256, 2048 bits)', await sign(facturae, signer)],
    [`FacturaE 3.2.2, ${manyLines} lines (RSA-SHA256, 2048 bits)`, await sign(withLines(facturae, manyLines), signer)],
  ];
  console.log(`Signature verification (${runs} runs each)`);
  for (const [name, xml] of samples) {
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const { p50, p95 } = await timed(async () => {
      const answer = await verifySignature(xml);
      if (answer.status !== 'valid') throw new Error(`${name}: ${JSON.stringify(answer)}`);
    });
    delay.disable();
    console.log(`  ${name} (${kb(xml)}): p50 ${ms(p50)}, p95 ${ms(p95)}; event loop held at most ${ms(delay.max / 1e6)}`);
  }
}

await schemas();
await signatures();
