/**
 * Photos as phones take them (issue 30, item 3). From SROIE scans (train-images/NNN.jpg with their NNN.json truth)
 * this makes phone-like photos: the receipt enlarged onto a 3024x4032 picture, turned 2-8 degrees, lying on a
 * darker textured table, unevenly lit, slightly blurred, JPEG 85. Then it reads the scans and their photos through
 * the server's reader pool and extractDocumentFields, with the photo preparation (server/extract/photo.ts) off
 * (OCR_PHOTO_PREP=off) and on, and prints each field's score by value, and the preparation's own time.
 *   node --import tsx bench/phone-photos.ts [--limit 20] [--save /tmp/photos] [--prep-only] [-v]
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { extractDocumentFields } from '../server/extract/document-fields';
import { analysePhoto, preparePhoto } from '../server/extract/photo';
import { ReaderPool } from '../server/extract/pool';
import { SROIE, valueHits, type Truth } from './extraction-words';
import { random } from '../server/erp/embedded/seed';

export const PHOTO_WIDTH = 3024;
export const PHOTO_HEIGHT = 4032;

export interface PhonePhoto {
  image: Buffer;
  /** How far the receipt was turned, clockwise, in degrees. */
  angle: number;
  /** The turned receipt's box in the photo. */
  paper: { left: number; top: number; width: number; height: number };
}

/**
 * A phone-like photo of a scanned receipt. `angle` (degrees, clockwise) defaults to 2-8 either way, chosen by
 * `seed`, as are where the receipt lies, the table's grain and where the light comes from.
 */
export async function phonePhoto(scan: Buffer, seed: number, angle?: number): Promise<PhonePhoto> {
  const next = random(seed);
  const turn = angle ?? (2 + next() * 6) * (next() < 0.5 ? -1 : 1);
  const { width = 1, height = 1 } = await sharp(scan).metadata();
  // The receipt fills most of the photo's height, as when a phone is held over it.
  const scale = Math.min((PHOTO_HEIGHT * (0.62 + next() * 0.12)) / height, (PHOTO_WIDTH * 0.62) / width);
  const sheet = await sharp(scan)
    .resize({ width: Math.round(width * scale), height: Math.round(height * scale), kernel: 'cubic' })
    .ensureAlpha()
    .rotate(turn, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png({ compressionLevel: 0 })
    .toBuffer({ resolveWithObject: true });
  const left = Math.round((PHOTO_WIDTH - sheet.info.width) * (0.3 + next() * 0.4));
  const top = Math.round((PHOTO_HEIGHT - sheet.info.height) * (0.3 + next() * 0.4));
  // A darker table: a brown-grey gradient with a wood-like grain and noise.
  const table = Buffer.alloc(PHOTO_WIDTH * PHOTO_HEIGHT * 3);
  const [r0, g0, b0] = [70 + next() * 40, 55 + next() * 30, 40 + next() * 25];
  const grain = 0.01 + next() * 0.02;
  for (let y = 0, at = 0; y < PHOTO_HEIGHT; y++) {
    for (let x = 0; x < PHOTO_WIDTH; x++, at += 3) {
      const shade = 1 + 0.25 * (x / PHOTO_WIDTH - 0.5) + 0.12 * Math.sin(y * grain + Math.sin(x * 0.004) * 4) + (next() - 0.5) * 0.15;
      table[at] = Math.max(0, Math.min(255, r0 * shade));
      table[at + 1] = Math.max(0, Math.min(255, g0 * shade));
      table[at + 2] = Math.max(0, Math.min(255, b0 * shade));
    }
  }
  const laid = await sharp(table, { raw: { width: PHOTO_WIDTH, height: PHOTO_HEIGHT, channels: 3 } })
    .composite([{ input: sheet.data, left, top }])
    .removeAlpha()
    .raw()
    .toBuffer();
  // Uneven light: brightest near a point off the middle, dimmer (down to about 70 %) away from it.
  const [lightX, lightY] = [PHOTO_WIDTH * next(), PHOTO_HEIGHT * next()];
  const reach = Math.hypot(PHOTO_WIDTH, PHOTO_HEIGHT);
  for (let y = 0, at = 0; y < PHOTO_HEIGHT; y++) {
    for (let x = 0; x < PHOTO_WIDTH; x++, at += 3) {
      const light = 1.03 - 0.35 * (Math.hypot(x - lightX, y - lightY) / reach);
      laid[at] = Math.min(255, laid[at] * light);
      laid[at + 1] = Math.min(255, laid[at + 1] * light);
      laid[at + 2] = Math.min(255, laid[at + 2] * light * 0.97);
    }
  }
  const image = await sharp(laid, { raw: { width: PHOTO_WIDTH, height: PHOTO_HEIGHT, channels: 3 } })
    .blur(1.2)
    .jpeg({ quality: 85 })
    .toBuffer();
  return { image, angle: turn, paper: { left, top, width: sheet.info.width, height: sheet.info.height } };
}

/** The scans the bench photographs: `limit` of SROIE's train-images, spread over the sorted names. */
export function benchScans(limit = 20): Array<{ name: string; scan: Buffer; truth: Truth }> {
  const folder = join(SROIE, 'train-images');
  const names = readdirSync(folder).filter((name) => name.endsWith('.jpg')).sort();
  const step = Math.max(1, Math.floor(names.length / limit));
  return names
    .filter((_, index) => index % step === 0)
    .slice(0, limit)
    .map((name) => ({ name, scan: readFileSync(join(folder, name)), truth: JSON.parse(readFileSync(join(folder, name.replace(/\.jpg$/, '.json')), 'utf8')) as Truth }));
}

const FIELDS = ['total', 'date', 'company'] as const;

async function readAll(images: Buffer[], prepare: boolean, truths: Truth[], label: string, verbose: boolean) {
  // The reader processes inherit the environment when the pool forks them (on the first read).
  if (prepare) delete process.env.OCR_PHOTO_PREP;
  else process.env.OCR_PHOTO_PREP = 'off';
  const pool = new ReaderPool({ timeoutMs: 120_000, workers: 1, engine: 'tesseract' });
  const hits = { total: 0, date: 0, company: 0 };
  const seconds: number[] = [];
  const totals: string[] = [];
  const each: Array<Record<(typeof FIELDS)[number], boolean>> = [];
  try {
    for (const [index, image] of images.entries()) {
      const started = performance.now();
      let fields = {};
      try {
        fields = extractDocumentFields((await pool.read(image, 'image/jpeg')).segments);
      } catch (error) {
        console.log(`  ${label} #${index}: ${(error as Error).message}`);
      }
      seconds.push((performance.now() - started) / 1000);
      const value = valueHits(fields, truths[index]);
      for (const field of FIELDS) if (value[field]) hits[field]++;
      each.push(value);
      totals.push(String((fields as { total?: string }).total));
      if (verbose) console.log(`  ${label} #${index}: ${JSON.stringify(fields)} want ${JSON.stringify(truths[index])}`);
    }
  } finally {
    await pool.close();
    delete process.env.OCR_PHOTO_PREP;
  }
  return { hits, seconds, totals, each };
}

if (process.argv[1]?.endsWith('phone-photos.ts')) {
  const args = process.argv.slice(2);
  const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const limit = Number(option('--limit') ?? 20);
  const save = option('--save');
  const verbose = args.includes('-v');
  const scans = benchScans(limit);
  const photos: PhonePhoto[] = [];
  for (const [index, { name, scan }] of scans.entries()) {
    photos.push(await phonePhoto(scan, index + 1));
    if (save) {
      mkdirSync(save, { recursive: true });
      writeFileSync(join(save, name), photos[index].image);
    }
  }
  console.log(`${scans.length} SROIE scans and their phone-like photos (3024x4032, turned 2-8 degrees, on a table, JPEG 85)`);
  // The preparation alone, in this process: its time per picture, and how well it finds the turn and the sheet.
  const prepMs = { scans: [] as number[], photos: [] as number[] };
  const prepCpuMs: number[] = [];
  const changedScans = new Set<number>();
  let untouched = 0;
  const angleErrors: number[] = [];
  const boxErrors: number[] = [];
  for (const [index, photo] of photos.entries()) {
    let started = performance.now();
    const scanPrepared = await preparePhoto(scans[index].scan);
    prepMs.scans.push(performance.now() - started);
    if (!scanPrepared.changed) untouched++;
    else changedScans.add(index);
    started = performance.now();
    const cpu = process.cpuUsage();
    await preparePhoto(photo.image);
    prepMs.photos.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    prepCpuMs.push((used.user + used.system) / 1000);
    const plan = await analysePhoto(photo.image);
    // SROIE's scans are themselves turned a little (up to 2 degrees): the photo's turn adds to the scan's own.
    angleErrors.push(Math.abs(plan.skew - (photo.angle + scanPrepared.plan.skew)));
    const box = plan.paper ?? { left: 0, top: 0, width: PHOTO_WIDTH, height: PHOTO_HEIGHT };
    boxErrors.push(Math.max(Math.abs(box.left - photo.paper.left), Math.abs(box.top - photo.paper.top), Math.abs(box.left + box.width - photo.paper.left - photo.paper.width), Math.abs(box.top + box.height - photo.paper.top - photo.paper.height)) / PHOTO_WIDTH);
    if (verbose) console.log(`  ${scans[index].name}: angle ${photo.angle.toFixed(2)} found ${plan.skew}; box ${JSON.stringify(photo.paper)} found ${JSON.stringify(plan.paper)}; line ${plan.lineHeight.toFixed(1)} px`);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  const max = (values: number[]) => Math.max(...values);
  console.log(`preparation: photos median ${median(prepMs.photos).toFixed(0)} ms (CPU ${median(prepCpuMs).toFixed(0)} ms), max ${max(prepMs.photos).toFixed(0)} ms; scans median ${median(prepMs.scans).toFixed(0)} ms, ${untouched}/${scans.length} scans left untouched`);
  console.log(`  turn found within ${max(angleErrors).toFixed(2)} degrees of the photo's plus the scan's own (median ${median(angleErrors).toFixed(2)}); sheet's edges within ${(max(boxErrors) * 100).toFixed(1)} % of the photo's width`);
  if (args.includes('--prep-only')) process.exit(0);
  const truths = scans.map((one) => one.truth);
  const scansOff = await readAll(scans.map((one) => one.scan), false, truths, 'scan/off', verbose);
  // A scan the preparation leaves untouched (the same bytes) reads the same: only the others are read again.
  const changed = [...changedScans];
  const again = await readAll(changed.map((index) => scans[index].scan), true, changed.map((index) => truths[index]), 'scan/on', verbose);
  const scansOn = { hits: { ...scansOff.hits }, seconds: [...scansOff.seconds], totals: [...scansOff.totals] };
  for (const [at, index] of changed.entries()) {
    scansOn.totals[index] = again.totals[at];
    scansOn.seconds[index] = again.seconds[at];
  }
  for (const field of FIELDS) scansOn.hits[field] = scansOff.hits[field] - changed.filter((index) => scansOff.each[index][field]).length + again.hits[field];
  const runs = [
    ['scans, preparation off', scansOff],
    [`scans, preparation on (${changed.length} changed)`, scansOn],
    ['photos, preparation off', await readAll(photos.map((one) => one.image), false, truths, 'photo/off', verbose)],
    ['photos, preparation on', await readAll(photos.map((one) => one.image), true, truths, 'photo/on', verbose)],
  ] as const;
  const percent = (value: number) => `${((value * 100) / scans.length).toFixed(1)}%`;
  console.log(`\n${''.padEnd(40)}${FIELDS.map((field) => field.padStart(10)).join('')}${'median s'.padStart(10)}`);
  for (const [label, run] of runs) console.log(`${label.padEnd(40)}${FIELDS.map((field) => percent(run.hits[field]).padStart(10)).join('')}${median(run.seconds).toFixed(2).padStart(10)}`);
  const same = runs[3][1].totals.filter((total, index) => total === runs[1][1].totals[index]).length;
  console.log(`photos (preparation on) whose total is their scan's: ${same}/${scans.length}`);
}
