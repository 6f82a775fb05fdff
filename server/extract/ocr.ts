/**
 * OCR with tesseract.js, offline: the Spanish and English models come from the @tesseract.js-data packages on
 * disk (nothing is downloaded, nothing cached). It runs inside a reader process (worker.ts), one document at a time;
 * the server's pool (pool.ts) bounds its time and memory.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, existsSync, symlinkSync, copyFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { createWorker, PSM, type Worker } from 'tesseract.js';
import { type OcrRead, type Segment } from './fields';
import { plausibleReceiptFields } from './document-fields';
import { MAX_IMAGE_PIXELS, tooManyPixels } from './limits';
import { PaddleEngine } from './paddle';
import { secondOpinionOnDate, secondOpinionOnIssuer, secondOpinionOnTotal } from './second-opinion';

const require = createRequire(import.meta.url);

/** The languages tesseract knows here: their models ship in the @tesseract.js-data packages. */
export const OCR_LANGUAGES = ['spa', 'eng'] as const;
export type OcrLanguage = (typeof OCR_LANGUAGES)[number];
const modelFile = (lang: string) => join(dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`)), '4.0.0_best_int', `${lang}.traineddata.gz`);

/** One folder holding both models (tesseract.js reads `${langPath}/${lang}.traineddata.gz`). */
export function languageFolder(base = join(tmpdir(), 'backoffice-tessdata')): string {
  mkdirSync(base, { recursive: true });
  for (const lang of OCR_LANGUAGES) {
    const source = modelFile(lang);
    const target = join(base, `${lang}.traineddata.gz`);
    if (existsSync(target)) continue;
    try {
      symlinkSync(source, target);
    } catch {
      copyFileSync(source, target);
    }
  }
  return base;
}

/**
 * The same models unpacked, for a native tesseract (issue 52: `OCR_NATIVE`), which reads `<dir>/<lang>.traineddata`:
 * the very models tesseract.js reads, so both engines read alike. Written once, whole (a temporary name renamed).
 */
export function nativeLanguageFolder(base = join(tmpdir(), 'backoffice-tessdata-native')): string {
  mkdirSync(base, { recursive: true });
  for (const lang of OCR_LANGUAGES) {
    const target = join(base, `${lang}.traineddata`);
    if (existsSync(target)) continue;
    const partial = `${target}.${process.pid}`;
    writeFileSync(partial, gunzipSync(readFileSync(modelFile(lang))));
    renameSync(partial, target);
  }
  return base;
}

/**
 * The usual height of a printed line, in pixels: rows of the grey image holding ink are grouped into runs and the
 * median run (5 px or more, so speckles do not count) is taken. 0 when nothing looks like text.
 */
export async function textLineHeight(grey: Sharp): Promise<number> {
  const { data, info } = await grey.clone().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  let sum = 0;
  let count = 0;
  for (let at = 0; at < data.length; at += 7) {
    sum += data[at];
    count++;
  }
  const dark = Math.min(128, (sum / Math.max(1, count)) * 0.6);
  const runs: number[] = [];
  let run = 0;
  for (let y = 0; y <= height; y++) {
    let ink = 0;
    if (y < height) for (let x = 0, row = y * width; x < width; x++) if (data[row + x] < dark) ink++;
    if (y < height && ink > 2 && ink > width * 0.004) run++;
    else {
      if (run >= 5) runs.push(run);
      run = 0;
    }
  }
  runs.sort((a, b) => a - b);
  return runs[Math.floor(runs.length / 2)] ?? 0;
}

/**
 * The prepared picture's PNG compression: it only travels to the OCR engine, in memory or on a pipe, so fast beats
 * small (a receipt: 7 ms to write at level 1, 21 ms at the default 6; 0.5 MB against 0.37).
 */
const PNG_LEVEL = 1;

/** Line height OCR reads best at (measured on SROIE with bench/extraction.ts). */
export const OCR_LINE_HEIGHT = 24;

/**
 * Photos are read grey at a size OCR likes. Measured on SROIE (bench/extraction.ts): stretching the contrast
 * (normalise) turns the speckles of a white scanned page into text-like noise and tesseract then reads nothing,
 * so the grey levels are left alone. Small print is enlarged (up to 2.5 times) until its lines are about
 * OCR_LINE_HEIGHT pixels high; large print is left as it is; anything that would pass 4.5 megapixels comes down
 * to 4, which read as well as 6 on SROIE and faster. A red stamp over the print ("PAID", a date) is taken away
 * (dropRedInk): on SROIE's tuning part, issuer by value 80.0 % -> 83.3 % (two names under a stamp read whole,
 * none lost), totals and dates unchanged. An image over `maxPixels` is refused from its header, before it is decoded.
 */
export async function prepareImage(image: Buffer, maxPixels = MAX_IMAGE_PIXELS): Promise<Buffer> {
  const header = await sharp(image, { limitInputPixels: false }).metadata();
  if ((header.width ?? 0) * (header.height ?? 0) > maxPixels) throw tooManyPixels(header.width!, header.height!, maxPixels);
  const grey = sharp(image, { failOn: 'error', limitInputPixels: Number.isFinite(maxPixels) ? maxPixels : false }).rotate().grayscale().toColourspace('b-w');
  const { width = 0, height = 0, orientation = 1 } = await grey.metadata();
  // EXIF orientations 5 to 8 swap the sides once rotated.
  const [wide, high] = orientation >= 5 ? [height, width] : [width, height];
  const line = await textLineHeight(grey);
  let scale = line > 0 ? Math.min(2.5, Math.max(1, OCR_LINE_HEIGHT / line)) : 1;
  if (wide * high * scale * scale > 4_500_000) scale = Math.sqrt(4_000_000 / (wide * high));
  if ((header.channels ?? 1) >= 3) {
    const colour = sharp(image, { failOn: 'error', limitInputPixels: Number.isFinite(maxPixels) ? maxPixels : false }).rotate().removeAlpha().toColourspace('srgb');
    const sized = scale === 1 ? colour : colour.resize({ width: Math.round(wide * scale) });
    const { data, info } = await sized.raw().toBuffer({ resolveWithObject: true });
    const withoutStamps = dropRedInk(data, info.channels);
    // A picture made from raw pixels has no resolution: tesseract warns and reads it as 70 dpi, said here (measured
    // on SROIE: the photo's own resolution instead reads a total less, a stamped receipt's).
    if (withoutStamps) return sharp(withoutStamps, { raw: { width: info.width, height: info.height, channels: 1 } }).toColourspace('b-w').withMetadata({ density: 70 }).png({ compressionLevel: PNG_LEVEL }).toBuffer();
  }
  return (scale === 1 ? grey : grey.resize({ width: Math.round(wide * scale) })).png({ compressionLevel: PNG_LEVEL }).toBuffer();
}

/** Fewer sure words than this is a reading that saw next to nothing: the picture is read again with its contrast raised (fainterPrint). */
export const FAINT_WORDS = 10;

/** The words of a reading OCR is sure of (80 % or more) holding three letters or more: a receipt has scores; noise none. */
export const sureWords = (segments: readonly Segment[]) => segments.filter((segment) => /\p{L}{3}/u.test(segment.text) && (segment.confidence ?? 100) >= 80).length;

/**
 * A reading that saw next to nothing: no word of three letters, or fewer than FAINT_WORDS sure ones making less than
 * 70 % of them (letters guessed in specks). A short document read well (a card: a few words, all sure) is not one.
 */
export function sawLittle(segments: readonly Segment[]): boolean {
  const words = segments.filter((segment) => /\p{L}{3}/u.test(segment.text)).length;
  const sure = sureWords(segments);
  return words === 0 || (sure < FAINT_WORDS && sure < words * 0.7);
}

/**
 * Faint print on grey paper, made darker two ways (`grey`: the prepared picture): its grey levels stretched between
 * its 1st and 99th percentiles, and its darker half spread over the whole range (twice the grey less white).
 * Tesseract's own threshold takes a faint dot-matrix receipt for blank paper and reads nothing (SROIE 387, 415: no
 * word); each of these ways reads some of those whole. Only a reading that saw next to nothing is made again
 * (FAINT_WORDS): stretching every picture's contrast turns a white page's speckles into noise (prepareImage).
 */
export async function fainterPrint(grey: Buffer): Promise<Buffer[]> {
  return Promise.all([sharp(grey).greyscale().normalise().png({ compressionLevel: PNG_LEVEL }).toBuffer(), sharp(grey).greyscale().linear(2, -255).png({ compressionLevel: PNG_LEVEL }).toBuffer()]);
}

/** Which of two readings to keep: the one giving more of a receipt's fields, then more sure words; the first on a tie. */
const betterReading = (first: Segment[], second: Segment[]) => {
  const [a, b] = [plausibleReceiptFields(first), plausibleReceiptFields(second)];
  return b > a || (b === a && sureWords(second) > sureWords(first)) ? second : first;
};

/**
 * A grey picture without its red ink (`rgb`: pixels of `channels` bytes, red, green, blue first): a red stamp over
 * black print is taken away (a red pixel is given its lightest channel, light for red ink on white paper), while
 * black print stays dark, where the stamp covers it too (ink over ink is dark in all three channels). Blue is kept:
 * thermal print and pens are often blue (SROIE has receipts printed blue-grey, and ticks in blue ink). Undefined
 * when the picture has next to no red (under 0.1 % of its pixels), or more red than three times its black ink (a
 * picture printed in red): then the usual grey is read.
 */
export function dropRedInk(rgb: Uint8Array, channels: number): Uint8Array | undefined {
  const pixels = Math.floor(rgb.length / channels);
  const grey = new Uint8Array(pixels);
  let red = 0;
  let black = 0;
  for (let at = 0, px = 0; px < pixels; px++, at += channels) {
    const r = rgb[at];
    const g = rgb[at + 1];
    const b = rgb[at + 2];
    if (r - Math.max(g, b) > 30) {
      red++;
      grey[px] = r;
    } else {
      const luma = (r * 299 + g * 587 + b * 114) / 1000;
      if (luma < 110) black++;
      grey[px] = luma;
    }
  }
  if (red < pixels * 0.001 || red > black * 3) return undefined;
  return grey;
}

/** How a reader's tesseract runs: its languages, and a native tesseract program to run instead of tesseract.js. */
export interface TesseractSettings {
  /**
   * The languages read (default both, Spanish and English: one alone reads a third faster, but fewer issuers' names,
   * measured on SROIE's tuning part; see the README).
   */
  languages?: readonly OcrLanguage[];
  /** The path of a native tesseract (5.x) program; tesseract.js when absent. */
  native?: string;
  /**
   * The threads a native tesseract uses (default 1). Two read a receipt about 10 % faster on a quiet 2-core machine
   * (1.40 s against 1.55 s, 12 receipts; the same words), but with the cores busy their waiting for each other makes
   * it 2.7 times slower (6.23 s against 2.28 s; asleep rather than spinning, slower still even quiet):
   * bench/extraction-load.ts --threads.
   */
  threads?: number;
}

/** One tesseract worker (a thread of the reader process), started by start() or on first use. */
export class OcrEngine {
  private worker: Promise<Worker> | null = null;
  private readonly languages: readonly OcrLanguage[];
  private readonly native: string | undefined;
  private readonly threads: number;
  /** A native block reading started for the next picture (recognize). */
  private spare: NativeReading | undefined;
  private closed = false;

  /**
   * `dateReader`: the PP-OCR engine whose recognition model reads the date's words again (second-opinion.ts); its
   * model is loaded on the first date to check. `null`: tesseract alone.
   */
  constructor(
    private readonly dateReader: PaddleEngine | null = new PaddleEngine(),
    { languages = OCR_LANGUAGES, native, threads = 1 }: TesseractSettings = {},
  ) {
    this.languages = languages;
    this.native = native;
    this.threads = threads;
  }

  start(): Promise<Worker | null> {
    if (this.native) {
      nativeLanguageFolder();
      // Warm: the first document's block reading finds its program started.
      this.warm();
      return Promise.resolve(null);
    }
    this.worker ??= createWorker([...this.languages], 1, { langPath: languageFolder(), cacheMethod: 'none', gzip: true, logger: () => undefined, errorHandler: () => undefined });
    return this.worker;
  }

  /**
   * The words of a picture, read as one block of text (tesseract.js's usual mode). When that read does not give a
   * receipt's total, date and issuer (see plausibleReceiptFields), the picture is read again as sparse text (words
   * wherever they are, which finds lines the block reading skips or merges), and the read giving more of them is
   * kept, the first on a tie. Measured on SROIE's tuning part (bench/extraction.ts): a quarter of the receipts are
   * read twice; the median stays about 1 s a receipt, the 95th percentile grows to 3-4.5 s. A receipt read as next to
   * no words is read again with its contrast raised (fainterPrint) first. A business card
   * (`receipt: false`) has none of these fields: it is read once.
   */
  async read(image: Buffer, options: { maxPixels?: number; receipt?: boolean } = {}): Promise<OcrRead> {
    try {
      return await this.readPicture(image, options);
    } finally {
      // The next document's program starts once this one is read (started sooner, its loading slows the second opinion).
      this.warm();
    }
  }

  private async readPicture(image: Buffer, { maxPixels = MAX_IMAGE_PIXELS, receipt = true }: { maxPixels?: number; receipt?: boolean }): Promise<OcrRead> {
    const prepared = await prepareImage(image, maxPixels);
    const { height = 0 } = await sharp(prepared).metadata();
    let block = await this.recognize(prepared, PSM.SINGLE_BLOCK);
    // Next to nothing read: faint print on grey paper, which tesseract's own threshold takes for paper.
    if (receipt && sawLittle(block)) for (const darker of await fainterPrint(prepared)) block = betterReading(block, await this.recognize(darker, PSM.SINGLE_BLOCK));
    const found = plausibleReceiptFields(block);
    // A business card has none of a receipt's fields: read once, as it is.
    if (!receipt) return { segments: block, height };
    let segments = block;
    if (found < 3) {
      const sparse = await this.recognize(prepared, PSM.SPARSE_TEXT);
      if (plausibleReceiptFields(sparse) > found) segments = sparse;
    }
    return { segments: await this.secondOpinion(prepared, segments), height };
  }

  /**
   * One reading of the picture in a page segmentation mode, by the native program or tesseract.js. A native block
   * reading takes the spare started after the last document (its models loaded meanwhile: about 0.2 s a document
   * less; see warm); a spare that failed is replaced by a program started now.
   */
  private async recognize(image: Buffer, mode: PSM): Promise<Segment[]> {
    if (!this.native) return recognize((await this.start())!, image, mode);
    if (mode !== PSM.SINGLE_BLOCK) return nativeRecognize(this.native, image, mode, this.languages.join('+'), this.threads);
    const spare = this.spare;
    this.spare = undefined;
    let words: Segment[];
    try {
      if (!spare) throw new Error('no spare');
      spare.read(image);
      words = await spare.words;
    } catch {
      words = await nativeRecognize(this.native, image, mode, this.languages.join('+'), this.threads);
    }
    return words;
  }

  /** A native block reading started for the next picture, if none is; its failure is seen when that picture is given. */
  private warm(): void {
    if (!this.native || this.spare || this.closed) return;
    this.spare = startNative(this.native, PSM.SINGLE_BLOCK, this.languages.join('+'), this.threads);
    this.spare.words.catch(() => undefined);
  }

  /** The date's and the total's digits and the issuer's letters mended by a second reading (second-opinion.ts); the words as read if it fails. */
  private async secondOpinion(prepared: Buffer, segments: Segment[]): Promise<Segment[]> {
    if (!this.dateReader) return segments;
    try {
      const dated = await secondOpinionOnDate(this.dateReader, prepared, segments);
      return await secondOpinionOnIssuer(this.dateReader, prepared, await secondOpinionOnTotal(this.dateReader, prepared, dated));
    } catch {
      return segments;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.spare?.stop();
    this.spare = undefined;
    const worker = await this.worker?.catch(() => null);
    this.worker = null;
    await worker?.terminate();
    await this.dateReader?.close();
  }
}

/**
 * The words of a picture read by a native tesseract program (its TSV: one row a word, with its box and confidence),
 * in `threads` threads, the picture on its standard input. Its failure (a missing
 * program, a crash) is the reading's.
 */
function nativeRecognize(program: string, image: Buffer, mode: PSM, langs: string, threads: number): Promise<Segment[]> {
  const started = startNative(program, mode, langs, threads);
  started.read(image);
  return started.words;
}

/** A native tesseract started, its models loading: `read` gives it the picture, `words` answers what it read. */
export interface NativeReading {
  read(image: Buffer): void;
  words: Promise<Segment[]>;
  /** Ends it unread (a spare the engine no longer needs). */
  stop(): void;
}

/**
 * A native tesseract started before its picture is ready: it loads its models (about 0.2 s for Spanish and English)
 * while it waits on its standard input, so a reader keeps one started for its next document (OcrEngine's spare).
 */
export function startNative(program: string, mode: PSM, langs: string, threads: number): NativeReading {
  const child = spawn(program, ['stdin', 'stdout', '--tessdata-dir', nativeLanguageFolder(), '-l', langs, '--psm', String(mode), '-c', 'tessedit_create_tsv=1', '-c', 'tessedit_do_invert=0'], { env: { ...process.env, OMP_THREAD_LIMIT: String(threads) }, stdio: ['pipe', 'pipe', 'ignore'] });
  const words = new Promise<Segment[]>((resolve, reject) => {
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.stdin.on('error', () => undefined);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`tesseract exited with ${code}`));
      const segments: Segment[] = [];
      for (const line of Buffer.concat(chunks).toString('utf8').split('\n').slice(1)) {
        const [level, , , , , , left, top, width, height, conf, ...text] = line.split('\t');
        const word = text.join('\t');
        if (level !== '5' || !word.trim() || Number(conf) <= 20) continue;
        segments.push({ text: word, box: [Number(left), Number(top), Number(left) + Number(width), Number(top) + Number(height)], confidence: Number(conf) });
      }
      resolve(segments);
    });
  });
  return {
    read: (image) => child.stdin.end(image),
    words,
    // Its input closed too: a program it started in turn reads the end of it and stops.
    stop: () => {
      child.stdin.destroy();
      child.kill();
    },
  };
}

/** One reading of the picture in the given page segmentation mode: its words (OCR's sure enough of) with their boxes. */
async function recognize(worker: Worker, image: Buffer, mode: PSM): Promise<Segment[]> {
  await worker.setParameters({ tessedit_pageseg_mode: mode });
  const { data } = (await worker.recognize(image, {}, { text: false, blocks: true })) as unknown as { data: RecognizedData };
  const segments: Segment[] = [];
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        for (const word of line.words) {
          if (word.text.trim() && word.confidence > 20) segments.push({ text: word.text, box: [word.bbox.x0, word.bbox.y0, word.bbox.x1, word.bbox.y1], confidence: word.confidence });
        }
      }
    }
  }
  return segments;
}

interface RecognizedData {
  blocks?: Array<{ paragraphs: Array<{ lines: Array<{ words: Array<{ text: string; confidence: number; bbox: { x0: number; y0: number; x1: number; y1: number } }> }> }> }> | null;
}
