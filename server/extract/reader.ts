/**
 * A document's words with their boxes: the PDF's text layer, or OCR of the image (a photo, or a scanned PDF's page
 * pictures). This is the heavy part of reading (PDF parsing, image decoding, OCR) and runs in a reader process
 * (worker.ts, started by pool.ts), never in the server's own: whatever the engine, it is "file -> segments + source".
 */
import { ExtractionError } from './errors';
import type { OcrRead, Segment } from './fields';
import { readPdf } from './pdf';
import { photoPreparationEnabled, preparePhoto } from './photo';

export type DocumentType = 'application/pdf' | 'image/jpeg' | 'image/png';

export interface ReadResult {
  segments: Segment[];
  source: 'pdf' | 'ocr';
}

/** What reads words off a picture (tesseract.js today, see ocr.ts). */
export interface OcrEngineLike {
  read(image: Buffer, options: { maxPixels: number; receipt?: boolean }): Promise<OcrRead>;
}

export async function readDocument(
  engine: OcrEngineLike,
  buffer: Buffer,
  type: DocumentType,
  { maxPixels, receipt = true }: { maxPixels: number; receipt?: boolean },
): Promise<ReadResult> {
  if (type === 'application/pdf') {
    let pdf: Awaited<ReturnType<typeof readPdf>>;
    try {
      pdf = await readPdf(buffer, { maxPixels });
    } catch (error) {
      if (error instanceof ExtractionError) throw error;
      throw new ExtractionError(422, 'extract.pdfDamaged');
    }
    if (!pdf.scans) return { segments: pdf.segments, source: 'pdf' };
    // A scan: its pages are pictures, read like photos.
    if (!pdf.scans.length) {
      throw new ExtractionError(422, 'extract.pdfEmpty');
    }
    const all: Segment[] = [];
    let offset = 0;
    for (const page of pdf.scans) {
      const read = await readImage(engine, page, maxPixels, receipt);
      all.push(...read.segments.map((segment) => ({ ...segment, box: [segment.box[0], segment.box[1] + offset, segment.box[2], segment.box[3] + offset] as Segment['box'] })));
      offset += read.height;
    }
    return { segments: all, source: 'ocr' };
  }
  return { segments: (await readImage(engine, buffer, maxPixels, receipt)).segments, source: 'ocr' };
}

async function readImage(engine: OcrEngineLike, image: Buffer, maxPixels: number, receipt: boolean): Promise<OcrRead> {
  try {
    // A phone's photo is cropped to the paper, turned straight and sized (photo.ts); a scan comes through as it is.
    const prepared = photoPreparationEnabled() ? (await preparePhoto(image, maxPixels)).image : image;
    return await engine.read(prepared, { maxPixels, receipt });
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    throw new ExtractionError(422, 'extract.imageDamaged');
  }
}
