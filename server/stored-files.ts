/**
 * Stored PDFs checked before the console shows them inline (issue 29, item 8). Uploads are checked before they are
 * stored, but files stored before that check existed, or written into Odoo by other means, are not: each PDF is
 * checked again when it is served, in an attachment process (the same scan and limits as an upload), and one that
 * holds active content or exceeds the limits is answered as a download only, with a notice in the user's language.
 * A file's check is remembered by the hash of its bytes, so a validation queue shown again is not scanned again.
 */
import { createHash } from 'node:crypto';
import { HttpError } from './http-error';
import { renderMessage, type MessageLocale } from './messages';
import type { AttachmentProcessor, AttachmentRequest, StoredCheck } from './extract/files';
import { base64Payload, sniffBase64 } from '../shared/domain/files';

/** How a stored file may be shown: inline, or (with why) only downloaded. */
export interface Showing {
  shown: boolean;
  notice?: string;
}

/** Checks remembered (by content hash): a few hundred bytes each. */
const REMEMBERED = 2000;

export class StoredFileChecks {
  private readonly known = new Map<string, StoredCheck['refusal']>();

  constructor(private readonly attachments: AttachmentProcessor) {}

  /** Whether the console may show a stored file inline. Images (shown as pictures, which run nothing) always are. */
  async showing(datas: unknown, locale: MessageLocale, signal?: AbortSignal): Promise<Showing> {
    if (typeof datas !== 'string' || sniffBase64(datas) !== 'application/pdf') return { shown: true };
    const refusal = await this.refusalOf(base64Payload(datas), signal);
    if (!refusal) return { shown: true };
    const words = locale === 'api' ? 'en' : locale;
    if (refusal.key === 'attachment.activeContent') return { shown: false, notice: renderMessage(words, 'attachment.storedActive', refusal.params) };
    return { shown: false, notice: renderMessage(words, 'attachment.storedHeavy') };
  }

  private async refusalOf(payload: string, signal?: AbortSignal): Promise<StoredCheck['refusal']> {
    const hash = createHash('sha256').update(payload).digest('hex');
    if (this.known.has(hash)) {
      const known = this.known.get(hash)!;
      // Most recently used last: the oldest is forgotten first.
      this.known.delete(hash);
      this.known.set(hash, known);
      return known;
    }
    let refusal: StoredCheck['refusal'];
    let remember = true;
    try {
      const request = { buffer: Buffer.from(payload, 'base64'), type: 'application/pdf', maxPixels: this.attachments.maxPixels, inspect: true } satisfies AttachmentRequest & { inspect: true };
      refusal = (await this.attachments.process<StoredCheck>(request, signal)).refusal;
    } catch (error) {
      // Busy, starting or stopping: the answer is a 503 to try again. A file that outlasts the time or memory of a
      // check, or stops its process, is not shown inline: no viewer should be handed what a check could not finish.
      if (!(error instanceof HttpError) || error.statusCode === 503) throw error;
      refusal = { key: error.key, params: error.params };
      remember = error.statusCode !== 500;
    }
    if (remember) {
      this.known.set(hash, refusal);
      if (this.known.size > REMEMBERED) this.known.delete(this.known.keys().next().value!);
    }
    return refusal;
  }
}
