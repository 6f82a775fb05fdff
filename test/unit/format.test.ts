import { describe, expect, it } from 'vitest';
import { formatDay } from '../../shared/domain/format';

describe('formatDay', () => {
  it('writes a calendar day as dd/mm/yyyy, from the text, whatever the time zone', () => {
    expect(formatDay('2026-11-20')).toBe('20/11/2026');
    expect(formatDay('2026-01-31 23:30:00')).toBe('31/01/2026');
    expect(formatDay('2026-01-31T00:10:00Z')).toBe('31/01/2026');
  });
  it('leaves empty values empty and anything else as it came', () => {
    expect(formatDay(false)).toBe('');
    expect(formatDay(null)).toBe('');
    expect(formatDay('')).toBe('');
    expect(formatDay('soon')).toBe('soon');
  });
});

describe('toCsv', () => {
  it('writes Spanish CSV with semicolons and decimal commas, English with commas and points, quoting what needs it', async () => {
    const { toCsv } = await import('../../src/custom/csv');
    const rows = [['Número', 'Importe', 'Nota'], ['F-1', 1234.5, 'dice "hola"; adiós'], ['F-2', -9, null]];
    expect(toCsv(rows, 'es')).toBe('\uFEFFNúmero;Importe;Nota\r\nF-1;1234,5;"dice ""hola""; adiós"\r\nF-2;-9;\r\n');
    expect(toCsv(rows, 'en')).toBe('\uFEFFNúmero,Importe,Nota\r\nF-1,1234.5,"dice ""hola""; adiós"\r\nF-2,-9,\r\n');
  });
});

describe('formatInstant', () => {
  it("writes Odoo's UTC datetimes in the reader's zone and language", async () => {
    const { formatInstant } = await import('../../shared/domain/format');
    expect(formatInstant('2026-11-23 21:53:00', 'es', 'Europe/Madrid')).toBe('23/11/2026, 22:53');
    expect(formatInstant('2026-11-23T21:53:00Z', 'en', 'UTC')).toBe('23/11/2026, 21:53');
    expect(formatInstant(false, 'es')).toBe('');
    expect(formatInstant('soon', 'es')).toBe('soon');
  });
});
