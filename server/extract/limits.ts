/**
 * What a document may hold before anything decodes it (issue 15): checked on the image's header or the PDF's image
 * dictionaries, so a small file that unpacks to gigabytes (a "pixel bomb") is refused without being unpacked.
 */
import { ExtractionError } from './errors';

/**
 * The largest picture read, in pixels (width x height): 50 megapixels takes a 48-megapixel phone photo (8000 x 6000)
 * and an A4 page scanned at 600 dpi (35 megapixels); a 20000 x 20000 bomb (400) is refused.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** PDFs with more pages are refused (only the first MAX_PDF_PAGES are read anyway). */
export const MAX_PDF_PAGE_COUNT = 50;

const megapixels = (pixels: number) => Math.round(pixels / 100_000) / 10;

export function tooManyPixels(width: number, height: number, maxPixels = MAX_IMAGE_PIXELS): ExtractionError {
  return new ExtractionError(422, 'file.tooManyPixels', { width, height, megapixels: megapixels(width * height), maxMegapixels: megapixels(maxPixels) });
}

export function pdfImageTooLarge(width: number, height: number, maxPixels = MAX_IMAGE_PIXELS): ExtractionError {
  return new ExtractionError(422, 'extract.pdfImageTooLarge', { width, height, megapixels: megapixels(width * height), maxMegapixels: megapixels(maxPixels) });
}

export function tooManyPages(pages: number): ExtractionError {
  return new ExtractionError(422, 'extract.tooManyPages', { pages, maximum: MAX_PDF_PAGE_COUNT });
}

/**
 * Width and height from a PNG's or JPEG's header, without decoding it: null when the header cannot be found (the
 * reader then says the file is damaged).
 */
export function imageSize(buffer: Buffer): { width: number; height: number } | null {
  // PNG: the signature, then the IHDR chunk (length, "IHDR", width, height).
  if (buffer.length >= 24 && buffer.readUInt32BE(0) === 0x89504e47 && buffer.toString('latin1', 12, 16) === 'IHDR') {
    return { width: buffer.readUInt32BE(16), height: buffer.readUInt32BE(20) };
  }
  // JPEG: walk the markers to the first start-of-frame (SOF0-SOF15 but DHT C4, JPG C8 and DAC CC).
  if (buffer.length >= 4 && buffer[0] === 0xff && buffer[1] === 0xd8) {
    let at = 2;
    while (at + 9 < buffer.length) {
      if (buffer[at] !== 0xff) return null;
      const marker = buffer[at + 1];
      if (marker === 0xff) {
        at++;
        continue;
      }
      // Markers without a length: TEM, RST0-7.
      if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        at += 2;
        continue;
      }
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: buffer.readUInt16BE(at + 5), width: buffer.readUInt16BE(at + 7) };
      }
      if (marker === 0xda || marker === 0xd9) return null;
      at += 2 + buffer.readUInt16BE(at + 2);
    }
  }
  return null;
}

/** Throws the clear refusal when a PNG or JPEG's header declares more pixels than are read. */
export function checkImageHeader(buffer: Buffer, maxPixels = MAX_IMAGE_PIXELS): void {
  const size = imageSize(buffer);
  if (size && size.width * size.height > maxPixels) throw tooManyPixels(size.width, size.height, maxPixels);
}

/**
 * The largest image a PDF declares, from the dictionaries of its image streams (an image is always a stream, and a
 * stream's dictionary is never compressed), without decoding anything: null when there is none. A dictionary this
 * does not understand (an odd encoding of its names) is left to pdf.js's own limit (maxImageSize), which then drops
 * the image undecoded.
 */
export function largestPdfImage(buffer: Buffer): { width: number; height: number } | null {
  const text = buffer.toString('latin1');
  const number = (window: string, key: string): number => {
    let most = 0;
    for (const found of window.matchAll(new RegExp(`/${key}\\s+(\\d+)(?:\\s+(\\d+)\\s+R)?`, 'g'))) {
      // An indirect value (/Width 12 0 R): the number in that object.
      const value = found[2] === undefined ? Number(found[1]) : Number(new RegExp(`(?:^|\\s)${found[1]}\\s+${found[2]}\\s+obj\\s*(\\d+)`).exec(text)?.[1] ?? 0);
      most = Math.max(most, value);
    }
    return most;
  };
  let largest: { width: number; height: number } | null = null;
  for (const match of text.matchAll(/\/Subtype\s*\/Image\b/g)) {
    const start = Math.max(text.lastIndexOf('obj', match.index), match.index - 4096, 0);
    const ends = [text.indexOf('stream', match.index), text.indexOf('endobj', match.index)].filter((at) => at >= 0);
    const window = text.slice(start, Math.min(match.index + 4096, ...ends));
    const width = number(window, 'Width');
    const height = number(window, 'Height');
    if (!largest || width * height > largest.width * largest.height) largest = { width, height };
  }
  return largest;
}
