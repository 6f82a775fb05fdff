import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { errorMessage } from '../../providers/http';
import { focusRowAt, rowIndexOf, waiting } from './validationHelpers';
import { useDecisions, type Outcome, type QueueMove, type QueuePage } from './validationQueue';

/**
 * The decisions on the current tab's page (`data`): the moves still shown and how many wait, the decision on one move
 * or several (`forget` takes the decided ones out of the selection), the refusals of a decision of several, and the
 * keyboard's focus, which goes to the row that takes a decided one's place among those drawn in `body`.
 */
export function useValidationDecisions(body: RefObject<HTMLElement | null>, data: QueuePage | undefined, forget: (decided: QueueMove[]) => void) {
  const notify = useNotify();
  const translate = useTranslate();
  const [refusals, setRefusals] = useState<Outcome | null>(null);
  /** Where the keyboard's focus goes once a decided row has left: the row now at its place. */
  const focusRow = useRef<number | null>(null);

  const onOutcome = useCallback(
    (outcome: Outcome) => {
      if (!outcome.refused.length) return;
      // One move: the spec's message with the reason, as an error (never a green notice for a failure, issue 50);
      // several: which were refused, and why.
      if (outcome.decided.length + outcome.refused.length === 1) {
        const [refusal] = outcome.refused;
        const reason = refusal.message ?? errorMessage(refusal.error, translate);
        notify(`${translate('app.validation.error')}: ${reason}`, { type: 'error', autoHideDuration: 10_000 });
      } else setRefusals(outcome);
    },
    [notify, translate],
  );
  const { hidden, validate, reject, refresh } = useDecisions({ onOutcome });

  const moves = (data?.moves ?? []).filter((move) => !hidden.has(move.id));

  useEffect(() => {
    if (focusRow.current === null) return;
    focusRowAt(body.current, focusRow.current);
    focusRow.current = null;
  }, [body, moves]);

  // Stable, so that the rows (memoised) are drawn again only when their own move or selection changes.
  const decide = useCallback(
    (decided: QueueMove[], how: (moves: QueueMove[]) => unknown, fromRow?: QueueMove) => {
      setRefusals(null);
      forget(decided);
      if (fromRow) focusRow.current = rowIndexOf(body.current, fromRow);
      void how(decided);
    },
    [body, forget],
  );
  const onValidate = useCallback((move: QueueMove) => decide([move], validate, move), [decide, validate]);
  // A rejection first asks for its optional reason (RejectReasonDialog), then goes with it in one request.
  const [asking, setAsking] = useState<{ moves: QueueMove[]; fromRow?: QueueMove } | null>(null);
  const onReject = useCallback((move: QueueMove) => setAsking({ moves: [move], fromRow: move }), []);
  const askReject = useCallback((moves: QueueMove[]) => setAsking({ moves }), []);
  const rejecting = {
    count: asking?.moves.length ?? 0,
    onCancel: () => setAsking(null),
    onConfirm: (reason?: string) => {
      if (!asking) return;
      setAsking(null);
      decide(asking.moves, (moves) => reject(moves, reason), asking.fromRow);
    },
  };
  const closeRefusals = () => setRefusals(null);

  return { moves, count: waiting(data, hidden), hidden, refusals, closeRefusals, decide, validate, reject, refresh, onValidate, onReject, askReject, rejecting };
}

export type ValidationDecisions = ReturnType<typeof useValidationDecisions>;
