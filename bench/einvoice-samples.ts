/**
 * Supplier e-invoices over a corpus (issue 55): reads every XML, XSIG and PDF under a folder (a corpus brought with
 * `fetch`, such as ConnectingEurope/eInvoicing-EN16931's ubl/ and cii/ examples, OpenPEPPOL/peppol-bis-invoice-3's
 * rules/examples or ZUGFeRD/corpus) and prints how many were read, how many were refused and why, how many were not
 * e-invoices at all, and of those read how many have totals that add up (checkTotals).
 *   node --import tsx bench/einvoice-samples.ts <dir> [-v]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkTotals } from '../shared/domain/einvoice';
import { EInvoiceError, readEInvoice } from '../server/einvoice';

const args = process.argv.slice(2);
const verbose = args.includes('-v');
const root = args.find((one) => !one.startsWith('-'));
if (!root) {
  console.error('usage: node --import tsx bench/einvoice-samples.ts <dir> [-v]');
  process.exit(2);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return filesUnder(path);
      return /\.(xml|xsig|pdf)$/i.test(name) ? [path] : [];
    });
}

const files = filesUnder(root);
const refusals = new Map<string, string[]>();
const labels = new Map<string, number>();
const inconsistent: string[] = [];
let read = 0;
let consistent = 0;
const started = performance.now();
for (const file of files) {
  const name = relative(root, file);
  try {
    const invoice = await readEInvoice(readFileSync(file));
    read += 1;
    labels.set(invoice.label, (labels.get(invoice.label) ?? 0) + 1);
    const found = checkTotals(invoice);
    if (found.length === 0) consistent += 1;
    else inconsistent.push(`${name}: ${found.map((one) => `${one.key} ${one.params.computed} != ${one.params.stated}`).join('; ')}`);
    if (verbose) console.log(`read     ${name}: ${invoice.label} ${invoice.kind} ${invoice.number} ${invoice.issueDate} ${invoice.currency} ${invoice.totals.total}`);
  } catch (error) {
    const why = error instanceof EInvoiceError ? `${error.statusCode} ${error.key}${Object.keys(error.params).length ? ` ${JSON.stringify(error.params)}` : ''}` : `crash ${(error as Error).message}`;
    refusals.set(why, [...(refusals.get(why) ?? []), name]);
  }
}
const seconds = (performance.now() - started) / 1000;
const refused = files.length - read;
console.log(`${files.length} files under ${root}: ${read} read, ${refused} refused, in ${seconds.toFixed(1)} s`);
console.log(`totals consistent: ${consistent} of ${read}`);
for (const [label, count] of [...labels].sort((a, b) => b[1] - a[1])) console.log(`  ${String(count).padStart(4)}  ${label}`);
if (refusals.size) console.log('refused:');
for (const [why, names] of [...refusals].sort((a, b) => b[1].length - a[1].length)) {
  console.log(`  ${String(names.length).padStart(4)}  ${why}`);
  for (const name of verbose ? names : names.slice(0, 3)) console.log(`          ${name}`);
}
if (inconsistent.length) console.log('totals that do not add up:');
for (const line of verbose ? inconsistent : inconsistent.slice(0, 10)) console.log(`  ${line}`);
