/**
 * Photos as phones take them (issue 30): a receipt photographed on a table is a small, slightly turned sheet of
 * paper in a large picture, lit unevenly. Before OCR (reader.ts, whatever the engine) the picture is cropped to the
 * paper, turned straight and brought to the size OCR reads best; a scan (all paper, straight, of a usual size) is
 * left byte for byte as it came. Everything is decided on a small grey copy (about 1000 px on its long side), so
 * the cost stays near one decoding of the photo. OCR_PHOTO_PREP=off turns it off (bench/phone-photos.ts compares).
 */
import sharp from 'sharp';
import { tooManyPixels } from './limits';
import { OCR_LINE_HEIGHT } from './ocr';

/** Long side of the grey copy every decision is made on. */
const ANALYSIS_SIDE = 1000;
/** Side of the squares the paper is found by (in the grey copy's pixels). */
const BLOCK = 4; // the squares are found by shifting by 2 (x >> 2): keep it 4
/** Pictures larger than this are brought down so their print is about OCR_LINE_HEIGHT high. */
export const HUGE_PIXELS = 4_500_000;
/** Turns smaller than this are left alone: they do not hurt OCR, and turning a picture blurs it. */
export const MIN_SKEW = 0.5;
const MAX_SKEW = 15;

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface PhotoPlan {
  /** The upright picture's size (after its EXIF orientation). */
  width: number;
  height: number;
  /** The sheet of paper's box in the upright picture; undefined when the picture is all paper (a scan). */
  paper?: Box;
  /** How far the print is turned clockwise, in degrees (-15..15); 0 when nothing reads as lines of print. */
  skew: number;
  /** Height of a printed line in the picture's pixels; 0 when unknown. */
  lineHeight: number;
}

export const photoPreparationEnabled = () => (process.env.OCR_PHOTO_PREP ?? '').toLowerCase() !== 'off';

/** Otsu's threshold of a grey histogram: the level best separating dark from light. */
function otsu(histogram: Uint32Array, total: number): number {
  let sum = 0;
  for (let level = 0; level < 256; level++) sum += level * histogram[level];
  let below = 0;
  let sumBelow = 0;
  let best = 0;
  let threshold = 128;
  for (let level = 0; level < 256; level++) {
    below += histogram[level];
    if (!below) continue;
    const above = total - below;
    if (!above) break;
    sumBelow += level * histogram[level];
    const between = below * above * (sumBelow / below - (sum - sumBelow) / above) ** 2;
    if (between > best) {
      best = between;
      threshold = level;
    }
  }
  return threshold;
}

/**
 * The squares of the grey copy that are paper: the largest connected patch of mostly light squares, with what it
 * encloses (print, stamps) filled in. `undefined` when no patch stands out.
 */
function findPaper(grey: Uint8Array, width: number, height: number): { mask: Uint8Array; columns: number; rows: number; brightness: number; contrast: number } | undefined {
  const histogram = new Uint32Array(256);
  for (let at = 0; at < grey.length; at++) histogram[grey[at]]++;
  const threshold = otsu(histogram, grey.length);
  const columns = Math.ceil(width / BLOCK);
  const rows = Math.ceil(height / BLOCK);
  // Light pixels counted per square in one pass; a square is light when at least half its pixels are.
  const bright = new Uint16Array(columns * rows);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const squares = (y >> 2) * columns;
    for (let x = 0; x < width; x++) if (grey[row + x] > threshold) bright[squares + (x >> 2)]++;
  }
  const light = new Uint8Array(columns * rows);
  for (let at = 0; at < light.length; at++) {
    const x = at % columns;
    const y = Math.floor(at / columns);
    const pixels = (Math.min(width, (x + 1) * BLOCK) - x * BLOCK) * (Math.min(height, (y + 1) * BLOCK) - y * BLOCK);
    light[at] = bright[at] * 2 >= pixels ? 1 : 0;
  }
  // The largest 4-connected patch of light squares.
  const label = new Int32Array(columns * rows).fill(-1);
  const stack: number[] = [];
  let bestLabel = -1;
  let bestSize = 0;
  let next = 0;
  const visit = (at: number) => {
    label[at] = next;
    stack.push(at);
  };
  for (let start = 0; start < light.length; start++) {
    if (!light[start] || label[start] >= 0) continue;
    let size = 0;
    visit(start);
    while (stack.length) {
      const at = stack.pop()!;
      size++;
      const x = at % columns;
      if (x > 0 && light[at - 1] && label[at - 1] < 0) visit(at - 1);
      if (x < columns - 1 && light[at + 1] && label[at + 1] < 0) visit(at + 1);
      if (at >= columns && light[at - columns] && label[at - columns] < 0) visit(at - columns);
      if (at + columns < light.length && light[at + columns] && label[at + columns] < 0) visit(at + columns);
    }
    if (size > bestSize) {
      bestSize = size;
      bestLabel = next;
    }
    next++;
  }
  if (bestLabel < 0 || bestSize < light.length * 0.05) return undefined;
  // What the patch encloses is paper too: everything not reached from the border without crossing the patch.
  const outside = new Uint8Array(columns * rows);
  for (let at = 0; at < light.length; at++) {
    const x = at % columns;
    const y = Math.floor(at / columns);
    if ((x === 0 || y === 0 || x === columns - 1 || y === rows - 1) && label[at] !== bestLabel) {
      outside[at] = 1;
      stack.push(at);
    }
  }
  while (stack.length) {
    const at = stack.pop()!;
    const x = at % columns;
    const reach = (near: number) => {
      if (!outside[near] && label[near] !== bestLabel) {
        outside[near] = 1;
        stack.push(near);
      }
    };
    if (x > 0) reach(at - 1);
    if (x < columns - 1) reach(at + 1);
    if (at >= columns) reach(at - columns);
    if (at + columns < light.length) reach(at + columns);
  }
  const mask = new Uint8Array(columns * rows);
  let paperSum = 0;
  let paperCount = 0;
  let restSum = 0;
  let restCount = 0;
  for (let at = 0; at < mask.length; at++) {
    mask[at] = outside[at] ? 0 : 1;
    // Brightness from the squares' top-left pixels: enough to compare paper with what lies around it.
    const value = grey[Math.min(height - 1, Math.floor(at / columns) * BLOCK) * width + Math.min(width - 1, (at % columns) * BLOCK)];
    if (mask[at] && label[at] === bestLabel) {
      paperSum += value;
      paperCount++;
    } else if (!mask[at]) {
      restSum += value;
      restCount++;
    }
  }
  const brightness = paperSum / Math.max(1, paperCount);
  return { mask, columns, rows, brightness, contrast: restCount ? brightness - restSum / restCount : 0 };
}

/** Each pixel's mean over the square of side 2 x radius + 1 around it (clipped at the edges). */
function localMean(grey: Uint8Array, width: number, height: number, radius: number): Float32Array {
  const table = new Float64Array((width + 1) * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += grey[y * width + x];
      table[(y + 1) * (width + 1) + x + 1] = table[y * (width + 1) + x + 1] + row;
    }
  }
  const mean = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const top = Math.max(0, y - radius);
    const bottom = Math.min(height, y + radius + 1);
    for (let x = 0; x < width; x++) {
      const left = Math.max(0, x - radius);
      const right = Math.min(width, x + radius + 1);
      const sum = table[bottom * (width + 1) + right] - table[top * (width + 1) + right] - table[bottom * (width + 1) + left] + table[top * (width + 1) + left];
      mean[y * width + x] = sum / ((bottom - top) * (right - left));
    }
  }
  return mean;
}

/** Sum of squares of the projection of `points` (x, y pairs) on lines turned `degrees` clockwise: high when the lines of print line up. */
function profile(points: Int32Array, count: number, degrees: number, bins: Float64Array, offset: number): number {
  const radians = (degrees * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  bins.fill(0);
  for (let at = 0; at < count; at++) bins[Math.round(points[2 * at + 1] * cos - points[2 * at] * sin) + offset]++;
  let score = 0;
  for (let at = 0; at < bins.length; at++) score += bins[at] * bins[at];
  return score;
}

/** The median height of the runs of well-filled bins: a printed line's height, in the grey copy's pixels. */
function medianRun(bins: Float64Array): number {
  const sorted = Array.from(bins).filter((value) => value > 0).sort((a, b) => a - b);
  if (!sorted.length) return 0;
  const threshold = Math.max(2, sorted[Math.floor(sorted.length * 0.9)] * 0.2);
  const runs: number[] = [];
  let run = 0;
  for (let at = 0; at <= bins.length; at++) {
    if (at < bins.length && bins[at] >= threshold) run++;
    else {
      if (run >= 2) runs.push(run);
      run = 0;
    }
  }
  runs.sort((a, b) => a - b);
  return runs.length >= 3 ? runs[Math.floor(runs.length / 2)] : 0;
}

/** Crop, skew and print size of a picture, decided on a small grey copy. */
export async function analysePhoto(image: Buffer, maxPixels = Infinity): Promise<PhotoPlan> {
  return analyseDecoded(await decode(image, maxPixels));
}

interface Decoded {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/** The upright picture's pixels, decoded once: the grey copy is taken from them, and the prepared picture cut from them. */
async function decode(image: Buffer, maxPixels: number): Promise<Decoded> {
  const header = await sharp(image, { limitInputPixels: false }).metadata();
  if ((header.width ?? 0) * (header.height ?? 0) > maxPixels) throw tooManyPixels(header.width!, header.height!, maxPixels);
  const { data, info } = await sharp(image, { failOn: 'error', limitInputPixels: Number.isFinite(maxPixels) ? maxPixels : false })
    .autoOrient()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

function analyseDecoded({ data, width, height, channels }: Decoded): PhotoPlan {
  // The grey copy, by nearest neighbour: finding the paper and the lines of print does not need more.
  const step = Math.max(1, Math.max(width, height) / ANALYSIS_SIDE);
  const small = { width: Math.max(1, Math.floor(width / step)), height: Math.max(1, Math.floor(height / step)) };
  const grey = new Uint8Array(small.width * small.height);
  for (let y = 0, px = 0; y < small.height; y++) {
    const row = Math.floor(y * step) * width;
    for (let x = 0; x < small.width; x++, px++) {
      const at = (row + Math.floor(x * step)) * channels;
      grey[px] = channels >= 3 ? (data[at] * 77 + data[at + 1] * 150 + data[at + 2] * 29) >> 8 : data[at];
    }
  }
  const factor = width / small.width;
  const plan: PhotoPlan = { width, height, skew: 0, lineHeight: 0 };
  const paper = findPaper(grey, small.width, small.height);
  // Where the print is looked for: the paper's squares, or the whole picture.
  let inside = (x: number, y: number) => x >= 0 && y >= 0;
  if (paper) {
    let [left, top, right, bottom] = [paper.columns, paper.rows, -1, -1];
    for (let at = 0; at < paper.mask.length; at++) {
      if (!paper.mask[at]) continue;
      const x = at % paper.columns;
      const y = Math.floor(at / paper.columns);
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
    const box = {
      left: Math.round(left * BLOCK * factor),
      top: Math.round(top * BLOCK * factor),
      width: Math.min(width, Math.round((right + 1) * BLOCK * factor)) - Math.round(left * BLOCK * factor),
      height: Math.min(height, Math.round((bottom + 1) * BLOCK * factor)) - Math.round(top * BLOCK * factor),
    };
    // A sheet clearly lighter than what lies around it, and clearly smaller than the picture: a photo of paper.
    if (paper.contrast >= 35 && (box.width < width * 0.9 || box.height < height * 0.9)) plan.paper = box;
    const { mask, columns } = paper;
    // Print at the paper's very edge is the edge's shadow, not text: one square in from the edge.
    inside = (x, y) => {
      const bx = Math.floor(x / BLOCK);
      const by = Math.floor(y / BLOCK);
      return mask[by * columns + bx] === 1 && mask[by * columns + bx - 1] === 1 && mask[by * columns + bx + 1] === 1 && mask[(by - 1) * columns + bx] === 1 && mask[(by + 1) * columns + bx] === 1;
    };
  }
  // Print: pixels clearly darker than their surroundings (the mean of the 17x17 square around them, from a summed
  // area table), so uneven light does not count as ink.
  const around = localMean(grey, small.width, small.height, 8);
  const points = new Int32Array(small.width * small.height * 2);
  let count = 0;
  for (let y = 1; y < small.height - 1; y++) {
    for (let x = 1, row = y * small.width; x < small.width - 1; x++) {
      if (grey[row + x] < around[row + x] * 0.8 - 8 && inside(x, y)) {
        points[2 * count] = x;
        points[2 * count + 1] = y;
        count++;
      }
    }
  }
  if (count < 200) return plan;
  const diagonal = Math.ceil(Math.hypot(small.width, small.height));
  const bins = new Float64Array(diagonal * 2 + 2);
  let best = 0;
  let bestScore = -1;
  const search = (from: number, to: number, step: number) => {
    for (let degrees = from; degrees <= to + 1e-9; degrees += step) {
      const score = profile(points, count, degrees, bins, diagonal);
      if (score > bestScore) {
        bestScore = score;
        best = degrees;
      }
    }
  };
  search(-MAX_SKEW, MAX_SKEW, 0.5);
  search(best - 0.45, best + 0.45, 0.05);
  plan.skew = Math.round(best * 100) / 100;
  profile(points, count, best, bins, diagonal);
  plan.lineHeight = medianRun(bins) * factor;
  return plan;
}

/**
 * The picture ready for OCR: cropped to the paper (with a margin), turned straight, its print brought to about
 * OCR_LINE_HEIGHT when the picture is huge; `image` is the very buffer given when nothing was to be done.
 */
export async function preparePhoto(image: Buffer, maxPixels = Infinity): Promise<{ image: Buffer; plan: PhotoPlan; changed: boolean }> {
  const decoded = await decode(image, maxPixels);
  const plan = analyseDecoded(decoded);
  const huge = plan.width * plan.height > HUGE_PIXELS;
  // Only a photo (paper found on a background, or a huge picture) is turned: straightening scans that are themselves
  // slightly turned cost SROIE's scans 5-10 points (total 90 -> 85 %, company 85 -> 75 % on 20), which tesseract reads
  // well as they are.
  const turn = Math.abs(plan.skew) >= MIN_SKEW && (plan.paper !== undefined || huge);
  if (!plan.paper && !turn && !huge) return { image, plan, changed: false };
  const margin = plan.paper ? Math.round(0.02 * Math.max(plan.paper.width, plan.paper.height)) : 0;
  const crop = plan.paper
    ? {
        left: Math.max(0, plan.paper.left - margin),
        top: Math.max(0, plan.paper.top - margin),
        width: Math.min(plan.width, plan.paper.left + plan.paper.width + margin) - Math.max(0, plan.paper.left - margin),
        height: Math.min(plan.height, plan.paper.top + plan.paper.height + margin) - Math.max(0, plan.paper.top - margin),
      }
    : { left: 0, top: 0, width: plan.width, height: plan.height };
  // Huge pictures: print about OCR_LINE_HEIGHT high (never enlarged here: prepareImage enlarges small print).
  let scale = 1;
  if (huge && plan.lineHeight > 0) scale = Math.min(1, OCR_LINE_HEIGHT / plan.lineHeight);
  // One pass over the photo: crop, size, turn, then cut to the turned sheet.
  const pipeline = sharp(decoded.data, { raw: { width: decoded.width, height: decoded.height, channels: decoded.channels }, limitInputPixels: false });
  if (plan.paper) pipeline.extract(crop);
  const [w, h] = [Math.max(1, Math.round(crop.width * scale)), Math.max(1, Math.round(crop.height * scale))];
  if (scale < 1) pipeline.resize({ width: w, height: h, fit: 'fill' });
  if (turn) pipeline.rotate(-plan.skew, { background: '#ffffff' });
  if (turn && plan.paper) {
    // The turned sheet's corners (what lay around it is turned into the corners of the canvas): cut to the sheet.
    const radians = (plan.skew * Math.PI) / 180;
    const [pw, ph] = [plan.paper.width * scale, plan.paper.height * scale];
    const cos = Math.abs(Math.cos(radians));
    const sin = Math.abs(Math.sin(radians));
    // A sheet of sw x sh turned by the skew has the box pw x ph: pw = sw cos + sh sin, ph = sw sin + sh cos.
    const det = cos * cos - sin * sin;
    const sheetW = Math.max(1, (pw * cos - ph * sin) / det);
    const sheetH = Math.max(1, (ph * cos - pw * sin) / det);
    // The canvas the turn gives (sharp enlarges it to hold the turned picture); a pixel less, to stay inside it.
    const canvasW = Math.floor(w * cos + h * sin) - 1;
    const canvasH = Math.floor(w * sin + h * cos) - 1;
    const keepW = Math.min(canvasW, Math.round(sheetW + 2 * margin * scale));
    const keepH = Math.min(canvasH, Math.round(sheetH + 2 * margin * scale));
    // The sheet's centre, from the crop's centre, turned with the picture.
    const dx = (plan.paper.left + plan.paper.width / 2 - (crop.left + crop.width / 2)) * scale;
    const dy = (plan.paper.top + plan.paper.height / 2 - (crop.top + crop.height / 2)) * scale;
    const back = -radians;
    const cx = canvasW / 2 + dx * Math.cos(back) - dy * Math.sin(back);
    const cy = canvasH / 2 + dx * Math.sin(back) + dy * Math.cos(back);
    const left = Math.max(0, Math.min(canvasW - keepW, Math.round(cx - keepW / 2)));
    const top = Math.max(0, Math.min(canvasH - keepH, Math.round(cy - keepH / 2)));
    pipeline.extract({ left, top, width: keepW, height: keepH });
  }
  // Uncompressed TIFF: lossless and next to free to write (the OCR engine decodes it and prepares it its own way).
  return { image: await pipeline.tiff({ compression: 'none' }).toBuffer(), plan, changed: true };
}
