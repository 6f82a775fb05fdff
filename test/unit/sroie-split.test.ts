import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { merchantOf, receipts } from '../../bench/sroie-626';

const folder = mkdtempSync(join(tmpdir(), 'sroie-split-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("the bench's split of SROIE's 626 receipts (issue 30)", () => {
  it('names one merchant however its receipts spell it, a chain whatever the branch', () => {
    expect(merchantOf('BOOK TA .K (TAMAN DAYA) SDN BHD')).toBe(merchantOf('BOOK TA.K(TAMAN DAYA) SDN. BHD.'));
    expect(merchantOf('MR. D.I.Y. (KUCHAI) SDN BHD')).toBe(merchantOf('MR D.I.Y. (JOHOR) SDN BHD'));
    expect(merchantOf('RESTORAN WAN SHENG')).not.toBe(merchantOf('RESTORAN SIAM VILLAGE'));
  });

  it('holds out whole merchants, at least 45 % of the receipts, the same ones whatever the order', () => {
    mkdirSync(join(folder, 'key'));
    const companies = ['MR. D.I.Y. (KUCHAI) SDN BHD', 'MR D.I.Y. (JOHOR) SDN BHD', 'BHPETROL PERMAS JAYA 2', 'BHPETROL SUBANG AIRPORT', 'ABC HO TRADING', 'SANYU STATIONERY SHOP', 'UNIHAKKA INTERNATIONAL SDN BHD', 'GARDENIA BAKERIES (KL) SDN BHD', 'RESTORAN WAN SHENG', '99 SPEED MART S/B', '99 SPEED MART S/B', 'LIAN HING STATIONERY SDN BHD'];
    companies.forEach((company, index) => writeFileSync(join(folder, 'key', `${String(index).padStart(3, '0')}.json`), JSON.stringify({ company, date: '01/01/2018', total: '1.00' })));
    const split = receipts(folder);
    const held = split.filter((one) => one.heldOut);
    expect(held.length).toBeGreaterThanOrEqual(Math.ceil(companies.length * 0.45));
    expect(held.length).toBeLessThan(companies.length);
    const stems = (some: typeof split) => new Set(some.map((one) => one.merchant.slice(0, 8)));
    const tuning = stems(split.filter((one) => !one.heldOut));
    for (const stem of stems(held)) expect(tuning.has(stem)).toBe(false);
    expect(receipts(folder).map((one) => one.heldOut)).toEqual(split.map((one) => one.heldOut));
  });
});
