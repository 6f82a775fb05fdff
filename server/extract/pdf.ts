/** The text layer of a born-digital PDF, with positions (unpdf, pdf.js underneath). */
import { getDocumentProxy } from 'unpdf';
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
