import { describe, expect, it } from 'vitest';
import { isIsoDate, isWithinDateWindow, newestAllowedDate, oldestAllowedDate, slashesToDashes } from '../../shared/domain/dates';
import { base64Payload, isPreviewable, pdfHasObjects, sniffBase64 } from '../../shared/domain/files';
import { demoPdf } from '../../server/erp/embedded/files';
import { formatMoney, roundMoney } from '../../shared/domain/money';

describe('roundMoney: two decimals, half away from zero', () => {
  it.each([
    [1.005, 1.01],
    [1.004, 1],
    [2.675, 2.68],
    [-1.005, -1.01],
    [0.1 + 0.2, 0.3],
    [100.005, 100.01],
    [1234567.885, 1234567.89],
    [0, 0],
    [-0.001, 0],
  ])('%d -> %d', (value, expected) => {
    expect(roundMoney(value)).toBe(expected);
  });
});

describe('formatMoney (spec: two decimals, EUR €, USD $, else the code)', () => {
  it.each([
    [1234.5, 'EUR', 'es', '1.234,50 €'],
    [1234567.891, 'EUR', 'es', '1.234.567,89 €'],
    [1234.5, 'EUR', 'en', '€1,234.50'],
    [-98.765, 'USD', 'en', '-$98.77'],
    [-1234.5, 'EUR', 'es', '-1.234,50 €'],
    [12, 'USD', 'es', '12,00 $'],
    [12, 'GBP', 'es', '12,00 GBP'],
    [12, 'GBP', 'en', 'GBP 12.00'],
    [12, '', 'es', '12,00'],
  ])('%d %s in %s -> %s', (amount, currency, locale, expected) => {
    expect(formatMoney(amount, currency, locale).replace(/\u00a0/g, ' ')).toBe(expected);
  });
});

describe('attachment type from the start of the base64 data', () => {
  const b64 = (bytes: number[] | string) => Buffer.from(typeof bytes === 'string' ? bytes : Uint8Array.from(bytes)).toString('base64');
  it.each([
    [b64('%PDF-1.7\n...'), 'application/pdf'],
    [`data:application/pdf;base64,${b64('%PDF-1.4')}`, 'application/pdf'],
    [b64([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), 'image/png'],
    [b64([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'image/jpeg'],
    [b64('<?xml version="1.0" encoding="UTF-8"?><Facturae/>'), 'application/xml'],
    [b64([0xef, 0xbb, 0xbf, ...Buffer.from('<?xml version="1.0"?><Invoice/>')]), 'application/xml'],
    // Without its declaration, by an e-invoice's root element only.
    [b64('<fe:Facturae xmlns:fe="http://www.facturae.es/Facturae/2014/v3.2.2/Facturae">'), 'application/xml'],
    [b64('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">'), 'application/xml'],
    [b64('\n<rsm:CrossIndustryInvoice xmlns:rsm="urn:x">'), 'application/xml'],
    [b64('<html><body>hi</body></html>'), 'application/octet-stream'],
    [b64('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'application/octet-stream'],
    [b64('<Invoices/>'), 'application/octet-stream'],
    [b64('GIF89a'), 'application/octet-stream'],
    [b64('hello'), 'application/octet-stream'],
    ['', 'application/octet-stream'],
  ])('%s -> %s', (data, type) => {
    expect(sniffBase64(data)).toBe(type);
  });
  it('strips a data URL header and says which types can be shown', () => {
    expect(base64Payload('data:image/png;base64,AAAA')).toBe('AAAA');
    expect(isPreviewable('image/png')).toBe(true);
    expect(isPreviewable('application/octet-stream')).toBe(false);
    // An e-invoice's XML is no picture: named and offered to save (issue 55).
    expect(isPreviewable('application/xml')).toBe(false);
  });
});

describe('a PDF the browser can show: its header and a first object', () => {
  const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
  it('is one with an object after its header', () => {
    expect(pdfHasObjects(new Uint8Array(demoPdf(['Ticket 12,50'])))).toBe(true);
    expect(pdfHasObjects(bytes('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n12 0 obj\n<< /Linearized 1 >>\nendobj\n'))).toBe(true);
  });
  it('is not a header and nothing else, nor a file without the header', () => {
    expect(pdfHasObjects(bytes('%PDF-1.4\n% Locale en 1764400000\n%%EOF\n'))).toBe(false);
    expect(pdfHasObjects(bytes('%PDF-'))).toBe(false);
    expect(pdfHasObjects(bytes('<html>1 0 obj</html>'))).toBe(false);
  });
});

describe('the two-year date rule', () => {
  const today = new Date(2026, 10, 22);
  it('accepts from the same day two years ago', () => {
    expect(oldestAllowedDate(today)).toBe('2024-11-22');
    expect(isWithinDateWindow('2024-11-22', today)).toBe(true);
    expect(isWithinDateWindow('2024-11-21', today)).toBe(false);
    expect(isWithinDateWindow('2026-11-22', today)).toBe(true);
  });
  it('refuses a date more than five years ahead (issue 29: 2199 was accepted)', () => {
    expect(newestAllowedDate(today)).toBe('2031-11-22');
    expect(isWithinDateWindow('2031-11-22', today)).toBe(true);
    expect(isWithinDateWindow('2031-11-23', today)).toBe(false);
    expect(isWithinDateWindow('2199-12-31', today)).toBe(false);
    expect(newestAllowedDate(new Date(2028, 1, 29))).toBe('2033-02-28');
  });
  it('handles 29 February and refuses impossible dates', () => {
    expect(oldestAllowedDate(new Date(2028, 1, 29))).toBe('2026-02-28');
    expect(isIsoDate('2026-02-30')).toBe(false);
    expect(isIsoDate('2026-2-3')).toBe(false);
    expect(isIsoDate(20261122)).toBe(false);
    expect(isWithinDateWindow('2026-13-01', today)).toBe(false);
  });
  it('turns slashes into dashes', () => {
    expect(slashesToDashes('2026/11/22')).toBe('2026-11-22');
  });
});
