/** A PDF's text layer with positions, or, for a scan, its page pictures (unpdf, pdf.js underneath). */
import sharp from 'sharp';
import { extractImages, getDocumentProxy } from 'unpdf';
import type { Segment } from './fields';
import { largestPdfImage, MAX_IMAGE_PIXELS, MAX_PDF_PAGE_COUNT, pdfImageTooLarge, tooManyPages } from './limits';

type PDFDocumentProxy = Awaited<ReturnType<typeof getDocumentProxy>>;

export const MAX_PDF_PAGES = 5;
/** Pages OCR reads from a scanned PDF (each page's scan is read like a photo). */
export const MAX_SCANNED_PAGES = 2;
/** Fewer printed characters than this and the PDF is taken for a scan. */
const MIN_TEXT_CHARACTERS = 15;

/**
 * The document opened once: its text with positions, and `scans` null when that text is the document; when it is
 * (nearly) empty, `scans` holds the scanned page images (none for a page of vector drawings). Throws when the PDF
 * cannot be opened at all, and the clear refusals (ExtractionError) of a PDF of more than MAX_PDF_PAGE_COUNT pages or
 * holding an image of more than `maxPixels`, found in the image's dictionary before anything decodes it (and pdf.js,
 * told the same limit, drops undecoded any image it finds larger).
 */
export async function readPdf(data: Buffer, { maxPixels = MAX_IMAGE_PIXELS }: { maxPixels?: number } = {}): Promise<{ segments: Segment[]; scans: Buffer[] | null }> {
  const document = await getDocumentProxy(new Uint8Array(data), { maxImageSize: Number.isFinite(maxPixels) ? maxPixels : -1, verbosity: 0 });
  try {
    if (document.numPages > MAX_PDF_PAGE_COUNT) throw tooManyPages(document.numPages);
    const segments = await textSegments(document);
    const characters = segments.reduce((sum, segment) => sum + segment.text.replace(/\s/g, '').length, 0);
    if (characters >= MIN_TEXT_CHARACTERS) return { segments, scans: null };
    const largest = largestPdfImage(data);
    if (largest && largest.width * largest.height > maxPixels) throw pdfImageTooLarge(largest.width, largest.height, maxPixels);
    return { segments, scans: await scannedPages(document, maxPixels).catch(() => []) };
  } finally {
    await document.destroy();
  }
}

async function textSegments(document: PDFDocumentProxy): Promise<Segment[]> {
  const segments: Segment[] = [];
  let offset = 0;
  for (let number = 1; number <= Math.min(document.numPages, MAX_PDF_PAGES); number++) {
    const page = await document.getPage(number);
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    for (const item of content.items as Array<{ str?: string; transform?: number[]; width?: number; height?: number }>) {
      if (!item.str?.trim() || !item.transform) continue;
      const x = item.transform[4];
      const height = Math.abs(item.height || item.transform[3] || 10);
      // PDF y grows upwards from the bottom; pages are stacked one below the other.
      const y = offset + viewport.height - item.transform[5] - height;
      segments.push({ text: item.str, box: [x, y, x + (item.width ?? item.str.length * height * 0.5), y + height] });
    }
    offset += viewport.height;
  }
  return segments;
}

/**
 * The largest picture painted on each of the first pages, as PNG. pdf.js decodes the embedded JPEG/CCITT/Flate
 * images itself, so no canvas is needed; pages that are vector drawings only give none.
 */
async function scannedPages(document: PDFDocumentProxy, maxPixels: number): Promise<Buffer[]> {
  const pages: Buffer[] = [];
  for (let number = 1; number <= Math.min(document.numPages, MAX_SCANNED_PAGES); number++) {
    const images = (await extractImages(document, number)).filter((image) => image.width >= 300 && image.height >= 300);
    const largest = images.sort((a, b) => b.width * b.height - a.width * a.height)[0];
    if (!largest) continue;
    pages.push(await sharp(Buffer.from(largest.data.buffer, largest.data.byteOffset, largest.data.byteLength), {
      raw: { width: largest.width, height: largest.height, channels: largest.channels },
      limitInputPixels: Number.isFinite(maxPixels) ? maxPixels : false,
    }).png().toBuffer());
  }
  return pages;
}
