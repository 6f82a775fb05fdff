/**
 * The PP-OCR engine (issue 17): a reader process started with OCR_ENGINE=paddle reads a photographed receipt into the
 * same word segments as tesseract, and the setting is refused with a clear message when it names no engine.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { extractDocumentFields } from '../../server/extract/document-fields';
import { combine } from '../../server/extract/ocr-engines';
import { respace, splitLine } from '../../server/extract/paddle';
import { ReaderPool } from '../../server/extract/pool';
import { receiptPhoto } from '../support/receipt';


const pool = new ReaderPool({ workers: 1, engine: 'paddle', timeoutMs: 120_000 });
afterAll(() => pool.close());

describe('OCR_ENGINE=paddle (PP-OCRv4 in a reader process)', () => {
  it('reads the total and the date of a receipt photo', async () => {
    const { segments, source } = await pool.read(await receiptPhoto(), 'image/jpeg');
    expect(source).toBe('ocr');
    expect(segments.length).toBeGreaterThan(10);
    for (const segment of segments) {
      expect(segment.text).not.toMatch(/\s/);
      expect(segment.confidence).toBeGreaterThanOrEqual(0);
      expect(segment.confidence).toBeLessThanOrEqual(100);
    }
    const fields = extractDocumentFields(segments);
    expect(fields.total).toBe('5.70');
    expect(fields.date).toBe('2026-11-21');
  }, 120_000);

  it('is refused with a clear message when the setting names no engine', () => {
    expect(loadConfig({}).ocrEngine).toBe('tesseract');
    expect(loadConfig({ OCR_ENGINE: 'paddle' }).ocrEngine).toBe('paddle');
    expect(loadConfig({ OCR_ENGINE: ' combined ' }).ocrEngine).toBe('combined');
    try {
      loadConfig({ OCR_ENGINE: 'easyocr' });
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.join('\n')).toMatch(/OCR_ENGINE must be one of 'tesseract', 'paddle', 'combined' \(got "easyocr"\)/);
    }
  });
});

describe('PP-OCR text as word segments', () => {
  it('splits a box at its spaces, and where PP-OCR dropped one between a date and its time or after a label', () => {
    expect(respace('25/12/20188:13:39PM')).toBe('25/12/2018 8:13:39PM');
    expect(respace('Total:9.00')).toBe('Total: 9.00');
    expect(respace('TOTAL7,85')).toBe('TOTAL 7,85');
    expect(respace('TOTAL1.234,56')).toBe('TOTAL 1.234,56');
    const words = splitLine('TOTAL 5,70', [0, 10, 100, 30], 90);
    expect(words.map((word) => word.text)).toEqual(['TOTAL', '5,70']);
    expect(words[0].box[2]).toBeLessThan(words[1].box[0]);
    expect(words[1]).toMatchObject({ box: [60, 10, 100, 30], confidence: 90 });
  });

  it('combined: takes tesseract words where PP-OCR merged them or lacks the letters (ñ, €)', () => {
    const lines = [
      { text: 'OJCMARKETINGSDNBHD', box: [0, 0, 180, 20] as [number, number, number, number], confidence: 95 },
      { text: 'TOTAL 9.00', box: [0, 40, 100, 60] as [number, number, number, number], confidence: 99 },
      { text: 'Espana 5,00 E', box: [0, 80, 130, 100] as [number, number, number, number], confidence: 90 },
    ];
    const words = [
      { text: 'OJC', box: [0, 0, 30, 20] as [number, number, number, number], confidence: 90 },
      { text: 'MARKETING', box: [40, 0, 130, 20] as [number, number, number, number], confidence: 90 },
      { text: 'SDN', box: [140, 0, 160, 20] as [number, number, number, number], confidence: 90 },
      { text: 'BHD', box: [165, 0, 180, 20] as [number, number, number, number], confidence: 90 },
      { text: 'TOTA1', box: [0, 40, 50, 60] as [number, number, number, number], confidence: 40 },
      { text: 'España', box: [0, 80, 60, 100] as [number, number, number, number], confidence: 90 },
      { text: '5,00', box: [70, 80, 110, 100] as [number, number, number, number], confidence: 90 },
      { text: '€', box: [118, 80, 130, 100] as [number, number, number, number], confidence: 90 },
    ];
    expect(combine(lines, words).map((word) => word.text)).toEqual(['OJC', 'MARKETING', 'SDN', 'BHD', 'TOTAL', '9.00', 'España', '5,00', '€']);
  });
});
