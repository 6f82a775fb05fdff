import { useCallback, useState } from 'react';
import { useTranslate } from 'react-admin';
import { readLineOf } from './moveFormRules';
import type { AiField, ReadLines } from './moveTypes';

/**
 * The fields the last document reading filled: they stay marked until the user edits them (issue 8), and say the
 * printed row the amount and the date were read from (issue 27: where a value came from).
 */
export function useAiMarks() {
  const translate = useTranslate();
  const [fromAi, setFromAi] = useState<Set<AiField>>(new Set());
  const [readLines, setReadLines] = useState<ReadLines>({});
  // Read from an e-invoice's XML (issue 55): exact, said so, rather than "read from the document: check it".
  const [source, setSource] = useState<'ocr' | 'einvoice'>('ocr');
  const edited = (field: AiField) => setFromAi((current) => (current.has(field) ? new Set([...current].filter((one) => one !== field)) : current));
  const aiMark = (field: AiField) => (fromAi.has(field) ? { focused: true, color: 'secondary' as const } : {});
  const aiHelp = (field: AiField, otherwise: false | undefined | string) => {
    if (!fromAi.has(field)) return otherwise;
    if (source === 'einvoice') return 'app.move.fromEInvoice';
    const line = readLineOf(field, readLines);
    return line ? translate('app.move.fromLine', { line }) : 'app.move.fromAi';
  };
  /** A reading filled `filled`, read from the printed `lines`. */
  const markRead = (filled: Set<AiField>, lines: ReadLines, from: 'ocr' | 'einvoice' = 'ocr') => {
    setReadLines(lines);
    setSource(from);
    setFromAi(filled);
  };
  /** The supplier a reading found was chosen (once looked up). */
  const markSupplier = useCallback(() => setFromAi((marked) => new Set([...marked, 'provider'])), []);
  const clear = () => {
    setFromAi(new Set());
    setReadLines({});
  };
  return { fromAi, edited, aiMark, aiHelp, markRead, markSupplier, clear };
}

/** What the fields filled by a reading are marked with. */
export type AiMarks = ReturnType<typeof useAiMarks>;
