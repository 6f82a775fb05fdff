import { useRef, useState } from 'react';
import { useDataProvider, useInput, useTranslate } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { useMutation } from '@tanstack/react-query';
import { isoDay, slashesToDashes } from '../../../shared/domain/dates';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { withBusyRetry } from '../../providers/busyRetry';
import { errorMessage } from '../../providers/http';
import { useElapsedSeconds } from '../../custom/useElapsedSeconds';
import { readingOf } from './moveFormRules';
import type { AiField, MoveValues, Provider, SupplierRead } from './moveTypes';
import type { AiMarks } from './useAiMarks';
import { mayBeEInvoice, readAsDataUrl } from './upload';
import { billLinesOf, type BillLine, type EInvoiceReading } from '../../../shared/domain/einvoice';
import { readByJob, type ReadingProgress } from './readingJob';

/** The fields a reading writes, as they were when it began: one the user changed meanwhile keeps what they typed. */
const READ_FIELDS = ['amount', 'date', 'concept', 'partner_id'] as const;

interface Options {
  marks: AiMarks;
  setPicked: (provider: Provider | null) => void;
  /** The supplier lookup: told what a reading found, or that the reading no longer stands. */
  supplier: { found: (read: SupplierRead | null) => void; forget: () => void };
}

/**
 * The document's file (chosen, taken or dropped) and its reading by the AI button (POST /ocr/move/, a named action of
 * moves), which fills the amount, the date, the concept and the supplier it finds.
 */
export function useMoveReading({ marks, setPicked, supplier }: Options) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const { setValue, getValues, formState } = useFormContext<MoveValues>();
  const file = useWatch<MoveValues, 'file'>({ name: 'file' });
  const { field: fileField } = useInput({ source: 'file' });
  const [reading, setReading] = useState(false);
  const [queued, setQueued] = useState(false);
  // Issue 51: the place in the readers' queue while the document waits, then the seconds of its own reading; and a
  // failed reading's reason, kept beside the file (with a way to read again) until another reading or file.
  const [progress, setProgress] = useState<ReadingProgress | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // Issue 55: the last reading was an e-invoice's XML (what it says and what could be checked), said under the file.
  const [einvoice, setEInvoice] = useState<EInvoiceReading | null>(null);
  // Its lines registered with their VAT (when they make its total by themselves), or the bill by its total.
  const [withLines, setWithLines] = useState(true);
  const readingSeconds = useElapsedSeconds(reading && progress?.status !== 'queued');
  const before = useRef<Partial<MoveValues>>({});
  const fileInput = useRef<HTMLInputElement>(null);
  const chooseFileButton = useRef<HTMLButtonElement>(null);

  const ocr = useMutation({
    // Busy readers (503 with Retry-After) are asked again after the time they give; the user sees the reading waits.
    // The company chosen when the button is pressed: its own suppliers are looked for on the document (issue 52).
    mutationFn: async ({ document, company }: { document: File; company?: number }) => {
      const body = { file: await readAsDataUrl(document), ...(company ? { companyId: company } : {}) };
      return withBusyRetry(() => readByJob(dataProvider, body, setProgress), { onWait: setQueued });
    },
  });

  /**
   * What the last reading filled and the user left as it was goes (issue 27): it belongs to another document, or to
   * none (a new file, a new reading, one that failed). What the user typed or chose stays.
   */
  function forgetReading() {
    const how = { shouldDirty: true, shouldValidate: formState.isSubmitted };
    for (const field of marks.fromAi) {
      if (field === 'provider') {
        setPicked(null);
        setValue('partner_id', '', how);
      } else if (field === 'date') setValue('date', isoDay(new Date()), { ...how, shouldValidate: true });
      else setValue(field, field === 'amount' ? null : '', how);
    }
    marks.clear();
    supplier.forget();
    setFailure(null);
    setEInvoice(null);
  }

  /**
   * A file chosen, taken or dropped: the reading of the previous one no longer stands. An e-invoice (issue 55) is read
   * at once: its values are exact and come without OCR, so there is nothing to wait for or to ask.
   */
  function chooseFile(chosen: File | null, { readNow = true } = {}) {
    fileField.onChange(chosen);
    forgetReading();
    if (!chosen || !readNow) return;
    void mayBeEInvoice(chosen)
      .then((yes) => {
        if (yes && getValues('file') === chosen) void readWithAi(chosen);
      })
      .catch(() => undefined);
  }

  /** What a reading found (POST /ocr/move/'s `result`) written into the form, as the AI button writes it. */
  function fill(result: string, kept: Partial<MoveValues> = {}, company?: number) {
    // The form's own API fills it: the values count as changed, and are checked again once a send was tried.
    const how = { shouldDirty: true, shouldValidate: formState.isSubmitted };
    // What the user changed while the document was read stays as they left it.
    const { amount, date, concept, supplier: found, lines, einvoice: electronic } = readingOf(result, company);
    const changed = (field: (typeof READ_FIELDS)[number]) => field in kept && getValues(field) !== kept[field];
    const read = { amount: changed('amount') ? undefined : amount, date: changed('date') ? undefined : date, concept: changed('concept') ? undefined : concept, supplier: changed('partner_id') ? null : found, lines };
    const filled = new Set<AiField>();
    if (read.amount !== undefined) {
      setValue('amount', read.amount, how);
      filled.add('amount');
    }
    if (read.date) {
      // Checked at once: a date the send would refuse (an old receipt) is said now, under the date.
      setValue('date', slashesToDashes(read.date), { ...how, shouldValidate: true });
      filled.add('date');
    }
    if (read.concept) {
      setValue('concept', read.concept, how);
      filled.add('concept');
    }
    // The supplier: looked for in the company chosen then, which may be another than when the button was pressed;
    // a lookup still under way for the previous reading is overtaken.
    supplier.found(read.supplier);
    marks.markRead(filled, read.lines, electronic ? 'einvoice' : 'ocr');
    setEInvoice(electronic ?? null);
    setWithLines(true);
  }

  async function readWithAi(document: File | null = file) {
    if (!document) return;
    forgetReading();
    before.current = Object.fromEntries(READ_FIELDS.map((field) => [field, getValues(field)]));
    setReading(true);
    try {
      const company = getValues('company_id') || undefined;
      const json = await ocr.mutateAsync({ document, company });
      // Another file chosen while this one was read: its reading is not this file's.
      if (getValues('file') !== document) return;
      fill(json.result, before.current, company);
    } catch (error) {
      console.error(error);
      setFailure(errorMessage(error, translate));
    } finally {
      setReading(false);
      setProgress(null);
    }
  }

  /**
   * A draft read in the background (issue 33, item 1) taken into the form: its file, and what its reading found, as
   * if the user had chosen that file and pressed the AI button.
   */
  function takeRead(chosen: File, result: string | null) {
    chooseFile(chosen, { readNow: false });
    if (result) fill(result);
  }

  /** After a send: the file inputs are empty, and focus goes to choosing the next document's file. */
  /**
   * What an invoice registered from an e-invoice adds to the creation (issue 55): its lines with their VAT when chosen
   * (and they make its total), and a credit note booked as a refund.
   */
  function billExtras(tab: 'expense' | 'invoice'): { lines?: BillLine[]; refund?: true } {
    if (!einvoice || tab !== 'invoice') return {};
    const lines = withLines ? billLinesOf(einvoice) : null;
    return { ...(lines ? { lines } : {}), ...(einvoice.kind === 'creditNote' ? { refund: true as const } : {}) };
  }

  function readyForNext() {
    setEInvoice(null);
    if (fileInput.current) fileInput.current.value = '';
    chooseFileButton.current?.focus();
  }

  return { file, reading, queued, position: progress?.status === 'queued' ? progress.position : null, failure, einvoice, withLines, setWithLines, billExtras, readingSeconds, fileInput, chooseFileButton, chooseFile, readWithAi: () => readWithAi(), takeRead, readyForNext };
}

/** The document's file and its reading, as the file box shows them. */
export type MoveReading = ReturnType<typeof useMoveReading>;
