/** The text layer of a born-digital PDF, with positions (unpdf, pdf.js underneath). */
import sharp from 'sharp';
import { extractImages, getDocumentProxy } from 'unpdf';
import type { Segment } from './fields';

export const MAX_PDF_PAGES = 5;

export async function pdfSegments(data: Buffer): Promise<{ segments: Segment[]; pages: number }> {
  const document = await getDocumentProxy(new Uint8Array(data));
  const segments: Segment[] = [];
  let offset = 0;
  const pages = Math.min(document.numPages, MAX_PDF_PAGES);
  for (let number = 1; number <= pages; number++) {
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
  await document.destroy();
  return { segments, pages };
}

/** Pages OCR reads from a scanned PDF (each page's scan is read like a photo). */
export const MAX_SCANNED_PAGES = 2;

/**
 * The scanned page images of a PDF without a text layer: the largest picture painted on each of its first pages,
 * as PNG. pdf.js decodes the embedded JPEG/CCITT/Flate images itself, so no canvas is needed; a PDF whose pages are
 * vector drawings only answers none.
 */
export async function pdfScannedPages(data: Buffer): Promise<Buffer[]> {
  const document = await getDocumentProxy(new Uint8Array(data));
  try {
    const pages: Buffer[] = [];
    for (let number = 1; number <= Math.min(document.numPages, MAX_SCANNED_PAGES); number++) {
      const images = (await extractImages(document, number)).filter((image) => image.width >= 300 && image.height >= 300);
      const largest = images.sort((a, b) => b.width * b.height - a.width * a.height)[0];
      if (!largest) continue;
      pages.push(await sharp(Buffer.from(largest.data.buffer, largest.data.byteOffset, largest.data.byteLength), {
        raw: { width: largest.width, height: largest.height, channels: largest.channels },
      }).png().toBuffer());
    }
    return pages;
  } finally {
    await document.destroy();
  }
}
