import { useState, type BaseSyntheticEvent } from 'react';
import { useGetIdentity, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { useFormContext, useWatch, type FieldErrors } from 'react-hook-form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage, fieldErrorsOf, isUnreachable } from '../../providers/http';
import { announceChange } from '../../offline/captureStore';
import { isForLater, withCaptureLock } from '../../offline/captureQueue';
import { useDeviceQueue } from '../../offline/useDeviceQueue';
import { SUBMISSION_HEADER, submissionDone, submissionKey } from '../../providers/submission';
import { FORM_FIELDS, emptyMove, movePayload } from './moveFormRules';
import type { Company, MoveType, MoveValues, Project } from './moveTypes';
import { SERVER_MESSAGE_KEYS, postWithProgress, readAsDataUrl } from './upload';
import { duplicatesOf, type PossibleDuplicate } from './duplicates';
import { moveSendNeeds } from './moveSendNeeds';
import type { DuplicateAnswer } from '../../../shared/domain/duplicates';

interface Options {
  tab: MoveType;
  companyId: MoveValues['company_id'];
  company: Company | undefined;
  projects: readonly Project[];
  file: File | null;
  /** Told once a move is created and the form emptied, for the page to forget what it kept of that one. */
  onSent: () => void;
  /** What the creation carries beyond the form's fields (issue 55: an e-invoice's lines, a refund). */
  extras?: () => Record<string, unknown>;
}

/**
 * The send (spec section 3): whether it can be, its upload's progress, the move's creation, and what a refusal marks.
 * The creation keeps its own request (POST /odoo/moves/create, the spec's payload): it reports the upload's progress,
 * which fetch (and so the dataProvider) cannot. The move lists are stale afterwards.
 */
export function useMoveSubmission({ tab, companyId, company, projects, file, onSent, extras }: Options) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const { identity } = useGetIdentity();
  const queryClient = useQueryClient();
  const { getValues, reset, handleSubmit, setError } = useFormContext<MoveValues>();
  const paymentMethod = useWatch<MoveValues, 'paymentMethod'>({ name: 'paymentMethod' });
  const { keep, forget, queuedNotice } = useDeviceQueue(identity?.email ? String(identity.email) : undefined);
  const [progress, setProgress] = useState<number | null>(null);
  // The send carries the submission's key (the same when the same bill is sent again after a failure, or saved anyway
  // after the duplicates warning): the server then makes one bill of it, however many times its answer was lost.
  const creation = useMutation({
    mutationFn: async ({ body, onDuplicate, key, signal }: { body: Record<string, unknown>; onDuplicate: DuplicateAnswer; key: string; signal: AbortSignal }) => {
      // Asked in the query: the body stays the spec's payload.
      const answer = await postWithProgress(`/odoo/moves/create?onDuplicate=${onDuplicate}`, body, setProgress, { [SUBMISSION_HEADER]: key }, signal);
      submissionDone('moves', key);
      return answer;
    },
    // Sent whatever react-query believes of the network: paused while the browser said it was offline, the send
    // stalled with its progress bar and was lost with the page (issue 51). Without a network it fails at once, and
    // the capture waits in the device's queue.
    networkMode: 'always',
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['moves'] }),
  });
  // The moves the last send may repeat, with what it sent: nothing is saved until the user chooses (issue 33).
  const [warned, setWarned] = useState<{ duplicates: PossibleDuplicate[]; body: Record<string, unknown>; values: MoveValues } | null>(null);
  const missing = moveSendNeeds({ tab, companyId, file, paymentMethod });
  const canSend = !missing.length && progress === null;

  // Everything but company and project is cleared (spec sections 2 and 4).
  function readyForNext(values: MoveValues, told?: () => void) {
    setWarned(null);
    reset(emptyMove(values.company_id, values.project));
    onSent();
    if (told) {
      announceChange();
      told();
    }
  }

  /**
   * The send (issue 51, item 1): the capture is written to the device's queue first, under its submission key, so a
   * reload, a closed tab or a lost network never loses it; without a network it stays there and the form is emptied
   * for the next one. Otherwise it is sent at once holding its lock (no flush sends it meanwhile) and leaves the
   * queue once the server has answered: created, a duplicates warning or a refusal for the user to read on the form.
   */
  async function deliver(body: Record<string, unknown>, onDuplicate: DuplicateAnswer, values: MoveValues) {
    const key = submissionKey('moves', body);
    // Busy from the first moment (a second click of "Guardar de todos modos" sent it twice).
    setProgress(0);
    const kept = await keep(body, key, onDuplicate);
    if (kept && typeof navigator !== 'undefined' && navigator.onLine === false) {
      setProgress(null);
      return readyForNext(values, await queuedNotice(key));
    }
    const gone = new AbortController();
    const abort = () => gone.abort();
    window.addEventListener('offline', abort);
    try {
      setProgress(0);
      // Sent, and taken out of the queue, under the capture's lock: no flush finds it still waiting in between.
      const failure = await withCaptureLock(key, async () => {
        try {
          await creation.mutateAsync({ body, onDuplicate, key, signal: gone.signal });
          if (kept) await forget(key);
          return null;
        } catch (error) {
          // The moment's failure (no network, the server or the ERP down, the session ended) keeps it queued.
          if (kept && !isForLater(error)) await forget(key);
          return { error };
        }
      });
      if (!failure) {
        notify('app.move.created', { type: 'success', messageArgs: { concept: body.concept } });
        return readyForNext(values);
      }
      // Kept on the device, sent with its key when the network or the server is back; said with why it waits.
      if (kept && isForLater(failure.error)) return readyForNext(values, await queuedNotice(key, isUnreachable(failure.error) ? undefined : failure.error));
      refusedSend(failure.error, body, values);
    } finally {
      window.removeEventListener('offline', abort);
      setProgress(null);
    }
  }

  /** The server's answer that the form shows: the moves it may repeat, or a refusal marking its fields. */
  function refusedSend(error: unknown, body: Record<string, unknown>, values: MoveValues) {
    const duplicates = duplicatesOf(error);
    if (duplicates) return setWarned({ duplicates, body, values });
    setWarned(null);
    // A refusal that names a field of the form marks it, in the words the server said it (the user's language).
    const marked = fieldErrorsOf(error, (path) => (FORM_FIELDS.has(path) ? path : undefined));
    for (const [source, text] of Object.entries(marked ?? {})) setError(source as keyof MoveValues, { type: 'server', message: text });
    const message = errorMessage(error, translate);
    notify(SERVER_MESSAGE_KEYS.get(message) ?? message, { type: 'error' });
  }

  async function send(values: MoveValues) {
    // The file as chosen (the submitted values are a copy).
    const chosenFile = getValues('file');
    if (!canSend || !company || !chosenFile) return;
    const payload = { ...movePayload(values, { tab, company, projects, locale }), ...extras?.() };
    let data: string;
    try {
      setProgress(0);
      data = await readAsDataUrl(chosenFile);
    } catch (error) {
      setProgress(null);
      return notify(errorMessage(error, translate), { type: 'error' });
    }
    // Warned first of a document the company may already have; saved only once the user chose to.
    await deliver({ ...payload, file: { name: chosenFile.name, data } }, 'warn', values);
  }

  // A refused send: a wrong amount shows on its field; a wrong date also says so in a message (spec section 5).
  function refused(errors: FieldErrors<MoveValues>) {
    if (!canSend || errors.amount) return;
    if (errors.date) notify('app.move.incorrectDate', { type: 'warning' });
  }

  return {
    progress,
    canSend,
    /** What the send still waits for (the company, the file, an expense's payment method): the disabled button says it. */
    missing,
    submit: (event: BaseSyntheticEvent) => handleSubmit(send, refused)(event),
    /** The moves the document may repeat, while the user chooses. */
    duplicates: warned?.duplicates ?? null,
    saveAnyway: () => (warned ? deliver(warned.body, 'save', warned.values) : undefined),
    keepEditing: () => setWarned(null),
  };
}
