import { useMemo } from 'react';
import { useLocaleState, useTranslate, type RaRecord } from 'react-admin';

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
export function toCsv(rows: ReadonlyArray<ReadonlyArray<CsvCell>>, locale: string): string {
  return `\uFEFF${csvLines(rows, locale)}`;
}

type CsvCell = string | number | boolean | null | undefined;

/** The lines of `rows` as toCsv writes them (each ended by CRLF), without the byte order mark: a part of a file. */
export function csvLines(rows: ReadonlyArray<ReadonlyArray<CsvCell>>, locale: string): string {
  const separator = locale === 'en' ? ',' : ';';
  const cell = (value: CsvCell) => {
    const text = value === null || value === undefined ? '' : typeof value === 'number' ? (locale === 'en' ? String(value) : String(value).replace('.', ',')) : inertText(String(value));
    return text.includes(separator) || /["\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return rows.map((row) => `${row.map(cell).join(separator)}\r\n`).join('');
}

/**
 * A list's CSV written a page at a time (issue 54, item 3): the head line once, then each page's records as lines,
 * so that a whole export holds text, not the records read; `download` hands the parts to the browser as one file.
 */
export interface CsvWriter {
  head: () => string;
  lines: (records: readonly RaRecord[]) => string;
  download: (parts: readonly string[]) => void;
}

/** A file of the CSV parts (the head first): a Blob of the parts, never one string of the whole file. */
export function downloadCsvParts(parts: readonly string[], filename: string): void {
  const link = document.createElement('a');
  link.style.display = 'none';
  document.body.appendChild(link);
  const href = URL.createObjectURL(new Blob(['\uFEFF', ...parts], { type: 'text/csv;charset=utf-8' }));
  link.setAttribute('href', href);
  link.setAttribute('download', `${filename}.csv`);
  link.click();
  link.remove();
  // The file's memory is given back once the browser has taken the download.
  setTimeout(() => URL.revokeObjectURL?.(href), 60_000);
}

/** The CSV of a list's columns, headed in the user's language, written page by page (CsvWriter). */
export function useCsvWriter<R = RaRecord>(filename: string, columns: ReadonlyArray<CsvColumn<R>>): CsvWriter {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return useMemo<CsvWriter>(
    () => ({
      head: () => csvLines([columns.map((column) => translate(column.label))], locale),
      lines: (records) => csvLines((records as unknown as R[]).map((record) => columns.map((column) => column.value(record))), locale),
      download: (parts) => downloadCsvParts(parts, filename),
    }),
    [columns, filename, locale, translate],
  );
}
