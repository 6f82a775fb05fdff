import { useState, type BaseSyntheticEvent } from 'react';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { useFormContext, useWatch, type FieldErrors } from 'react-hook-form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage, fieldErrorsOf } from '../../providers/http';
import { SUBMISSION_HEADER, submissionDone, submissionKey } from '../../providers/submission';
import { FORM_FIELDS, emptyMove, movePayload } from './moveFormRules';
import type { Company, MoveType, MoveValues, Project } from './moveTypes';
import { SERVER_MESSAGE_KEYS, postWithProgress, readAsDataUrl } from './upload';

interface Options {
  tab: MoveType;
  companyId: MoveValues['company_id'];
  company: Company | undefined;
  projects: readonly Project[];
  file: File | null;
  /** Told once a move is created and the form emptied, for the page to forget what it kept of that one. */
  onSent: () => void;
}

/**
 * The send (spec section 3): whether it can be, its upload's progress, the move's creation, and what a refusal marks.
 * The creation keeps its own request (POST /odoo/moves/create, the spec's payload): it reports the upload's progress,
 * which fetch (and so the dataProvider) cannot. The move lists are stale afterwards.
 */
export function useMoveSubmission({ tab, companyId, company, projects, file, onSent }: Options) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { getValues, reset, handleSubmit, setError } = useFormContext<MoveValues>();
  const paymentMethod = useWatch<MoveValues, 'paymentMethod'>({ name: 'paymentMethod' });
  const [progress, setProgress] = useState<number | null>(null);
  // The send carries the submission's key (the same when the same bill is sent again after a failure): the server
  // then makes one bill of it, however many times its answer was lost.
  const creation = useMutation({
    mutationFn: async (body: Record<string, unknown>) => {
      const key = submissionKey('moves', body);
      const answer = await postWithProgress('/odoo/moves/create', body, setProgress, { [SUBMISSION_HEADER]: key });
      submissionDone('moves', key);
      return answer;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['moves'] }),
  });
  const canSend = Boolean(companyId) && Boolean(file) && (tab === 'invoice' || Boolean(paymentMethod)) && progress === null;

  async function send(values: MoveValues) {
    // The file as chosen (the submitted values are a copy).
    const chosenFile = getValues('file');
    if (!canSend || !company || !chosenFile) return;
    const payload = movePayload(values, { tab, company, projects, locale });
    try {
      setProgress(0);
      const data = await readAsDataUrl(chosenFile);
      await creation.mutateAsync({ ...payload, file: { name: chosenFile.name, data } });
      notify('app.move.created', { type: 'success', messageArgs: { concept: payload.concept } });
      // Everything but company and project is cleared (spec sections 2 and 4).
      reset(emptyMove(values.company_id, values.project));
      onSent();
    } catch (error) {
      // A refusal that names a field of the form marks it, in the words the server said it (the user's language).
      const marked = fieldErrorsOf(error, (path) => (FORM_FIELDS.has(path) ? path : undefined));
      for (const [source, text] of Object.entries(marked ?? {})) setError(source as keyof MoveValues, { type: 'server', message: text });
      const message = errorMessage(error, translate);
      notify(SERVER_MESSAGE_KEYS.get(message) ?? message, { type: 'error' });
    } finally {
      setProgress(null);
    }
  }

  // A refused send: a wrong amount shows on its field; a wrong date also says so in a message (spec section 5).
  function refused(errors: FieldErrors<MoveValues>) {
    if (!canSend || errors.amount) return;
    if (errors.date) notify('app.move.incorrectDate', { type: 'warning' });
  }

  return { progress, canSend, submit: (event: BaseSyntheticEvent) => handleSubmit(send, refused)(event) };
}
