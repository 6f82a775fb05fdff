import { useMemo } from 'react';
import { downloadCSV, useLocaleState, useTranslate, type Exporter, type RaRecord } from 'react-admin';

/** A column of an export: its header (a translation key) and the readable value of a record. */
export interface CsvColumn<R = RaRecord> {
  label: string;
  value: (record: R) => string | number | boolean | null | undefined;
}

/**
 * What a spreadsheet reads as the start of a formula (issue 29, item 6; OWASP's CSV injection advice): '=', '+', '-',
 * '@', and a tab or carriage return before them. A text cell starting so is written after a single quote, which the
 * spreadsheet shows as text; a number is written as a number, so a negative amount stays a number.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell as a spreadsheet must show it: as text, never run as a formula. */
export function inertText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * CSV as a spreadsheet of the user's language opens it (issue 16): in Spanish fields are separated by ';' and
 * decimals written with a comma (Excel's Spanish defaults), in English ',' and a point; a field holding the
 * separator, a quote or a line break is quoted. A byte order mark tells Excel the text is UTF-8 (accents). Text that
 * a spreadsheet would run as a formula ('=HYPERLINK(...)' in a concept) is written inert (inertText).
 */
export function toCsv(rows: ReadonlyArray<ReadonlyArray<string | number | boolean | null | undefined>>, locale: string): string {
  const separator = locale === 'en' ? ',' : ';';
  const cell = (value: string | number | boolean | null | undefined) => {
    const text = value === null || value === undefined ? '' : typeof value === 'number' ? (locale === 'en' ? String(value) : String(value).replace('.', ',')) : inertText(String(value));
    return text.includes(separator) || /["\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return `\uFEFF${rows.map((row) => row.map(cell).join(separator)).join('\r\n')}\r\n`;
}

/** An exporter for a list's ExportButton: the columns a person reads, headed in their language. */
export function useCsvExporter<R = RaRecord>(filename: string, columns: ReadonlyArray<CsvColumn<R>>): Exporter {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return useMemo<Exporter>(
    () => (records) => downloadCSV(toCsv([columns.map((column) => translate(column.label)), ...(records as R[]).map((record) => columns.map((column) => column.value(record)))], locale), filename),
    [columns, filename, locale, translate],
  );
}
