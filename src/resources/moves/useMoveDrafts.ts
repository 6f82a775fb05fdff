import { useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { errorMessage } from '../../providers/http';
import type { MoveDraftRow } from '../../../shared/domain/move-drafts';
import { DRAFTS_POLL_MS, MOVE_DRAFTS_PER_USER, fileOfDraft, stillReading } from './drafts';
import type { MoveType } from './moveTypes';
import { readAsDataUrl } from './upload';

const DRAFTS_KEY = ['move-drafts'];

interface Options {
  /** A draft taken into the form: its file, what its reading found (POST /ocr/move/'s result) and its tab. */
  onReview: (file: File, result: string | null, moveType: MoveType) => void;
}

/**
 * Receipts dropped many at once (issue 33, item 1): each uploaded as a draft of the user's on the server, which reads
 * it in the background. The list is the server's (GET /me/move-drafts), asked again while something is being read, so
 * leaving the page or closing the tab loses nothing. A draft reviewed in the form is deleted once sent as a move.
 */
export function useMoveDrafts({ onReview }: Options) {
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const [uploading, setUploading] = useState<{ done: number; total: number } | null>(null);
  const [reviewing, setReviewing] = useState<number | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const query = useQuery({
    queryKey: DRAFTS_KEY,
    queryFn: ({ signal }) => dataProvider.moveDrafts(signal),
    refetchInterval: (current) => (stillReading(current.state.data ?? []) ? DRAFTS_POLL_MS : false),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: DRAFTS_KEY });

  /**
   * Uploads each file as a draft of the tab it was dropped on; a refused one is said by its name, the rest go on.
   * Answers the files that were not kept (refused, or not sent), so that a caller holding them elsewhere keeps those.
   * `keys`: each file's submission key, where the caller has one that outlives this page (a shared file's place in
   * the phone's queue): sent again, it is the same draft.
   */
  async function upload(files: readonly File[], moveType: MoveType, keys: readonly string[] = []): Promise<File[]> {
    if (files.length > MOVE_DRAFTS_PER_USER) {
      notify('app.move.drafts.tooMany', { type: 'error', messageArgs: { maximum: MOVE_DRAFTS_PER_USER } });
      return [...files];
    }
    const notKept: File[] = [];
    let done = 0;
    let full = false;
    setUploading({ done, total: files.length });
    // One after the other: the list keeps the order they were chosen in (the server numbers them as they arrive), and
    // preparing a file takes far less than reading it, so the readers are kept busy all the same.
    for (const [index, file] of files.entries()) {
      try {
        // The user's own limit reached: the files left are not sent to be refused one by one.
        if (full) notKept.push(file);
        else await dataProvider.addMoveDraft({ moveType, file: { name: file.name, data: await readAsDataUrl(file) } }, keys[index]);
      } catch (error) {
        notKept.push(file);
        full = (error as { status?: number }).status === 409;
        notify('app.move.drafts.uploadFailed', { type: 'error', messageArgs: { name: file.name, error: errorMessage(error, translate) } });
      } finally {
        done += 1;
        setUploading({ done, total: files.length });
        void refresh();
      }
    }
    setUploading(null);
    return notKept;
  }

  async function review(draft: MoveDraftRow) {
    setBusy(draft.id);
    try {
      const { data } = await dataProvider.moveDraftFile(draft.id);
      onReview(fileOfDraft(data, draft.fileName), draft.fields ? JSON.stringify(draft.fields) : null, draft.moveType);
      setReviewing(draft.id);
    } catch (error) {
      notify(errorMessage(error, translate), { type: 'error' });
    } finally {
      setBusy(null);
    }
  }

  async function discard(draft: MoveDraftRow) {
    setBusy(draft.id);
    try {
      await dataProvider.deleteMoveDraft(draft.id);
      if (reviewing === draft.id) setReviewing(null);
      notify('app.move.drafts.discarded', { type: 'info', messageArgs: { name: draft.fileName } });
    } catch (error) {
      notify(errorMessage(error, translate), { type: 'error' });
    } finally {
      setBusy(null);
      void refresh();
    }
  }

  /** The draft under review was sent as a move: it is no longer a draft. */
  async function sent() {
    if (reviewing === null) return;
    setReviewing(null);
    // Gone already (discarded in another tab): nothing left to do.
    await dataProvider.deleteMoveDraft(reviewing).catch(() => undefined);
    void refresh();
  }

  return {
    drafts: query.data ?? [],
    error: query.error,
    retry: () => void query.refetch(),
    uploading,
    reviewing,
    busy,
    upload,
    review,
    discard,
    sent,
    /** Another file was chosen in the form: no draft is under review. */
    forget: () => setReviewing(null),
  };
}

export type MoveDrafts = ReturnType<typeof useMoveDrafts>;
