import { formatDay } from '../../shared/domain/format';
import { formatNumber } from '../../shared/domain/numbers';
import type { Capture } from './captureStore';

/** A queued capture as one line: its concept (else its file's name), amount and date, in the user's language. */
export function captureSummary(capture: Capture, locale: string): { title: string; detail: string } {
  const body = capture.body ?? {};
  const file = body.file as { name?: string } | undefined;
  const title = String(body.concept || file?.name || capture.fileName || '');
  const amount = typeof body.amount === 'number' ? formatNumber(body.amount, locale, { minDecimals: 2, maxDecimals: 2 }) : '';
  return { title, detail: [amount, formatDay(body.date)].filter(Boolean).join(' · ') };
}

/** A shared file as the Move form's file box takes it. */
export function sharedFile(capture: Capture): File | null {
  if (!capture.file) return null;
  return new File([capture.file], capture.fileName || 'document', { type: capture.fileType || capture.file.type });
}
