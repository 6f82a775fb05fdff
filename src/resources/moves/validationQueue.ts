import { createElement, useCallback, useState } from 'react';
import { useDataProvider, useGetIdentity, useNotify, useTranslate } from 'react-admin';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { whileSending } from '../../custom/whileSending';
import { errorMessage } from '../../providers/http';
import { UndoDecision } from './UndoDecision';

export interface Message { id: number; date: string; body: string; email_from: string | false }
export interface Journals { expensesJournals: Array<[number, string]>; invoicesJournals: Array<[number, string]> }
export interface QueueMove {
  id: number;
  date: string;
  invoice_date: string | false;
  company_id: [number, string];
  partner_id: [number, string] | false;
  amount_total: number;
  currency_id: [number, string] | false;
  uploadedBy: string | null;
  attachment_ids: number[];
  messages: Message[];
  /** The concept (the move's reference) and the uploader's comment as the move holds them. */
  ref?: string | false;
  comment?: string;
}
export interface QueuePage { moves: QueueMove[]; total: number; totalIsLowerBound: boolean }
export type Tab = 'expenses' | 'invoices';
/** A move the server would not decide, with why (its answer's status and message, or the call's failure). */
export interface Refusal { move: QueueMove; statusCode?: number; message?: string; error?: unknown }
export interface Outcome { validate: boolean; decided: QueueMove[]; refused: Refusal[] }

/** Runs `then` after the browser has painted what is pending (the next frame), or soon where nothing paints. */
function afterPaint(then: () => void) {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(then));
  else setTimeout(then);
}

const EMPTY: QueuePage = { moves: [], total: 0, totalIsLowerBound: false };

/** The user's journals (GET /odoo/users/:id/journals, the moves 'journals' action). */
export function useJournals() {
  const { identity } = useGetIdentity();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  return useQuery({
    queryKey: ['moves', 'journals', identity?.id],
    queryFn: ({ signal }) => dataProvider.action<Journals>('moves', 'journals', { params: { id: identity!.id }, signal }),
    enabled: Boolean(identity?.id),
    retry: false,
  });
}

/**
 * A page of a tab's queue (GET /odoo/journals/:ids/moves?filter=to_validate&pageNumber&numberOfRecords, the moves
 * 'toValidate' action) with the tab's total. `journals` undefined: not known yet; none: nothing to ask, an empty queue.
 * Another page keeps the rows shown until it arrives, so the table does not jump.
 */
export function useQueuePage(journals: number[] | undefined, page: number, perPage: number) {
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const key = journals?.join(',') ?? '';
  return useQuery({
    queryKey: ['moves', 'toValidate', key, page, perPage],
    queryFn: ({ signal }) =>
      key
        ? dataProvider.action<QueuePage>('moves', 'toValidate', { params: { ids: key }, query: { filter: 'to_validate', pageNumber: page, numberOfRecords: perPage }, signal })
        : Promise.resolve(EMPTY),
    enabled: journals !== undefined,
    retry: false,
    placeholderData: keepPreviousData,
  });
}

/**
 * The manager's decisions. A decided move leaves the queue at once (hidden here) and comes back only if the server
 * refuses it; once decided, the queue is read again in the background and the move stays hidden until that new
 * reading is in, so it never flashes back. Validations and rejections reach the server when clicked (issue 51: a
 * rejection held for its undo window was lost with a reload or a closed tab), sent with fetch's keepalive so that a
 * page closed at once still sends them whole; the confirmation's "Deshacer" then withdraws the decision
 * (DELETE /odoo/moves/:id/validate), and the moves wait again. One move goes by its own route
 * (PUT /odoo/moves/:id/validate), several by POST /odoo/moves/validate; `onOutcome` hears what was refused.
 */
export function useDecisions({ onOutcome }: { onOutcome: (outcome: Outcome) => void }) {
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const translate = useTranslate();
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());

  const hide = useCallback((moves: QueueMove[]) => setHidden((current) => new Set([...current, ...moves.map((move) => move.id)])), []);
  const show = useCallback((moves: QueueMove[]) => {
    if (!moves.length) return;
    const ids = new Set(moves.map((move) => move.id));
    setHidden((current) => new Set([...current].filter((id) => !ids.has(id))));
  }, []);
  // Every move query is stale after a decision (this queue, the move lists when next shown); the user's journals
  // and the files shown do not change.
  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: ['moves'], predicate: (query) => query.queryKey[1] !== 'journals' && query.queryKey[1] !== 'attachments' }),
    [queryClient],
  );

  // Leaving the page asks first until the server has answered (whileSending).
  // A manager's comment goes with a decision on one move, in its request (one note, never a comment without it).
  const send = useCallback(
    (moves: QueueMove[], validate: boolean, comment?: string): Promise<Outcome> => whileSending(async () => {
      if (moves.length === 1) {
        try {
          await dataProvider.action('moves', 'validate', { params: { id: moves[0].id }, body: { validate, ...(comment ? { comment } : {}) }, keepalive: true });
          return { validate, decided: moves, refused: [] };
        } catch (error) {
          return { validate, decided: [], refused: [{ move: moves[0], error }] };
        }
      }
      try {
        const answer = await dataProvider.action<{ decided: number[]; failed: Array<{ id: number; statusCode: number; message: string }> }>('moves', 'validateMany', {
          body: { ids: moves.map((move) => move.id), validate, ...(comment ? { comment } : {}) },
          keepalive: true,
        });
        const failed = new Map(answer.failed.map((one) => [one.id, one]));
        return {
          validate,
          decided: moves.filter((move) => !failed.has(move.id)),
          refused: moves.filter((move) => failed.has(move.id)).map((move) => ({ move, statusCode: failed.get(move.id)!.statusCode, message: failed.get(move.id)!.message })),
        };
      } catch (error) {
        return { validate, decided: [], refused: moves.map((move) => ({ move, error })) };
      }
    }),
    [dataProvider],
  );

  /**
   * After the server's answer: the refused come back at once, the decided once the queue has been read again. That
   * reading starts once the confirmation is on the screen: its own rendering must not hold the confirmation back.
   */
  const settle = useCallback(
    (outcome: Outcome) => {
      show(outcome.refused.map((refusal) => refusal.move));
      onOutcome(outcome);
      if (outcome.decided.length) afterPaint(() => void refresh().finally(() => show(outcome.decided)));
    },
    [show, onOutcome, refresh],
  );

  /** The undo: each decided move's decision withdrawn; they wait again, shown once the queue has been read again. */
  const withdraw = useCallback(
    async (moves: QueueMove[], validate: boolean) => {
      const failed: unknown[] = [];
      await whileSending(async () => {
        for (const move of moves) await dataProvider.action('moves', 'withdraw', { params: { id: move.id }, query: { validate: String(validate) }, keepalive: true }).catch((error: unknown) => failed.push(error));
      });
      await refresh();
      show(moves);
      if (failed.length) notify(`${translate('app.validation.undoFailed')}: ${errorMessage(failed[0], translate)}`, { type: 'error', autoHideDuration: 10_000 });
      else notify('app.validation.undone', { type: 'info', messageArgs: { smart_count: moves.length } });
    },
    [dataProvider, refresh, show, notify, translate],
  );

  /** A decision sent at once; its confirmation offers to undo it while it shows. */
  const decideNow = useCallback(
    async (moves: QueueMove[], validate: boolean, comment?: string) => {
      if (!moves.length) return;
      hide(moves);
      const outcome = await send(moves, validate, comment);
      if (outcome.decided.length) {
        const key = validate ? (moves.length === 1 ? 'app.validation.validated' : 'app.validation.validatedMany') : moves.length === 1 ? 'app.validation.rejected' : 'app.validation.rejectedMany';
        const decided = outcome.decided;
        notify(key, { type: validate ? 'success' : 'info', messageArgs: { smart_count: decided.length }, action: createElement(UndoDecision, { onUndo: () => void withdraw(decided, validate) }) });
      }
      settle(outcome);
    },
    [hide, send, notify, settle, withdraw],
  );

  const validate = useCallback((moves: QueueMove[], comment?: string) => decideNow(moves, true, comment), [decideNow]);
  const reject = useCallback((moves: QueueMove[], comment?: string) => decideNow(moves, false, comment), [decideNow]);

  return { hidden, validate, reject, refresh };
}
