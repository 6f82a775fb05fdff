/**
 * Photos as phones take them (issue 30): a receipt photographed turned on a table is found, cropped and turned
 * straight before OCR (server/extract/photo.ts), a scan is left as it came, and a phone photo of a receipt reads the
 * total its scan reads.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { PHOTO_WIDTH, phonePhoto } from '../../bench/phone-photos';
import { extractDocumentFields } from '../../server/extract/document-fields';
import { analysePhoto, MIN_SKEW, preparePhoto } from '../../server/extract/photo';
import { ReaderPool } from '../../server/extract/pool';
import { receiptPhoto } from '../support/receipt';

const SROIE_IMAGES = '/work/shared/data/sroie/train-images';

describe('preparing a phone photo for OCR', () => {
  for (const [angle, seed] of [
    [5.3, 7],
    [-3.6, 11],
  ] as const) {
    it(`finds a receipt turned ${angle} degrees on a table, its sheet, and turns it straight`, async () => {
      const photo = await phonePhoto(await receiptPhoto(), seed, angle);
      const plan = await analysePhoto(photo.image);
      expect(Math.abs(plan.skew - angle)).toBeLessThanOrEqual(1);
      // The sheet's box: each edge within 2 % of the photo's width of where it lies.
      expect(plan.paper).toBeDefined();
      const found = plan.paper!;
      const slack = PHOTO_WIDTH * 0.02;
      expect(Math.abs(found.left - photo.paper.left)).toBeLessThanOrEqual(slack);
      expect(Math.abs(found.top - photo.paper.top)).toBeLessThanOrEqual(slack);
      expect(Math.abs(found.left + found.width - (photo.paper.left + photo.paper.width))).toBeLessThanOrEqual(slack);
      expect(Math.abs(found.top + found.height - (photo.paper.top + photo.paper.height))).toBeLessThanOrEqual(slack);
      // What OCR gets: the sheet alone, straight, far smaller than the photo.
      const prepared = await preparePhoto(photo.image);
      expect(prepared.changed).toBe(true);
      const { width = 0, height = 0 } = await sharp(prepared.image).metadata();
      expect(width).toBeLessThan(photo.paper.width);
      expect(height).toBeLessThan(photo.paper.height);
      const again = await analysePhoto(prepared.image);
      expect(Math.abs(again.skew)).toBeLessThan(MIN_SKEW + 0.25);
      expect(again.paper).toBeUndefined();
    }, 60_000);
  }

  it('leaves a straight scan as it came, byte for byte', async () => {
    const scan = await receiptPhoto();
    const prepared = await preparePhoto(scan);
    expect(prepared.changed).toBe(false);
    expect(prepared.image.equals(scan)).toBe(true);
    expect(prepared.plan.paper).toBeUndefined();
    expect(Math.abs(prepared.plan.skew)).toBeLessThan(MIN_SKEW);
  });

  it.skipIf(!existsSync(SROIE_IMAGES))('leaves a straight SROIE scan as it came', async () => {
    const scan = readFileSync(join(SROIE_IMAGES, '000.jpg'));
    const prepared = await preparePhoto(scan);
    expect(prepared.image.equals(scan)).toBe(true);
  });
});

describe('reading a phone photo (a reader process, tesseract)', () => {
  const pool = new ReaderPool({ workers: 1, engine: 'tesseract', timeoutMs: 120_000 });
  afterAll(() => pool.close());
  const total = async (image: Buffer) => extractDocumentFields((await pool.read(image, 'image/jpeg')).segments).total;

  it('reads the total of a phone photo of a ticket, as from the ticket itself', async () => {
    const scan = await receiptPhoto();
    expect(await total(scan)).toBe('5.70');
    expect(await total((await phonePhoto(scan, 3, -4.5)).image)).toBe('5.70');
  }, 240_000);

  it.skipIf(!existsSync(SROIE_IMAGES))('reads the total of a phone photo of a SROIE receipt that its scan reads', async () => {
    const scan = readFileSync(join(SROIE_IMAGES, '000.jpg'));
    const truth = JSON.parse(readFileSync(join(SROIE_IMAGES, '000.json'), 'utf8')) as { total: string };
    const fromScan = await total(scan);
    expect(Number(fromScan)).toBe(Number(truth.total));
    expect(await total((await phonePhoto(scan, 1)).image)).toBe(fromScan);
  }, 240_000);
});
