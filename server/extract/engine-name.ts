/** The OCR engines a reader can run (setting OCR_ENGINE), apart from the engines so the server's process loads none. */
export const OCR_ENGINES = ['tesseract', 'paddle', 'combined'] as const;
export type OcrEngineName = (typeof OCR_ENGINES)[number];
export const DEFAULT_OCR_ENGINE: OcrEngineName = 'tesseract';

export function isOcrEngineName(value: unknown): value is OcrEngineName {
  return typeof value === 'string' && (OCR_ENGINES as readonly string[]).includes(value);
}
