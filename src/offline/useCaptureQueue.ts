import { useCallback, useEffect, useRef, useState } from 'react';
import { useGetIdentity, useNotify } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import { SUBMISSION_HEADER } from '../providers/submission';
import { postWithProgress } from '../resources/moves/upload';
import { CHANNEL, announceChange, captureStore, type Capture } from './captureStore';
import { flushCaptures, isOwnedBy, isSendingHere, withQueueLock } from './captureQueue';

/** POST /odoo/moves/create of a queued capture, with its own key (the same at every try). */
function sendCapture(capture: Capture) {
  return postWithProgress(`/odoo/moves/create?onDuplicate=${capture.onDuplicate ?? 'warn'}`, capture.body, () => undefined, { [SUBMISSION_HEADER]: capture.id });
}

/**
 * The capture queue as the Move page shows it (issue 33, item 2): what it holds, read again whenever it changes (this
 * tab, another tab, a share), and its sending: when the page opens, when the network comes back, and on demand.
 */
export function useCaptureQueue() {
  const notify = useNotify();
  const queryClient = useQueryClient();
  // The signed-in user's captures only (captureQueue.ts, flushCaptures): none until they are known.
  const { identity } = useGetIdentity();
  const owner = identity?.email ? String(identity.email) : undefined;
  const [captures, setCaptures] = useState<Capture[]>([]);
  const [sending, setSending] = useState(false);
  const mounted = useRef(true);

  const refresh = useCallback(async () => {
    const all = await captureStore().all().catch(() => [] as Capture[]);
    // The one the form is sending now is not yet waiting: it is, if its send does not reach the server.
    if (mounted.current) setCaptures(owner ? all.filter((capture) => isOwnedBy(capture, owner) && !isSendingHere(capture.id)) : []);
  }, [owner]);

  const flush = useCallback(async () => {
    if (!owner || (typeof navigator !== 'undefined' && navigator.onLine === false)) return;
    setSending(true);
    try {
      const result = await withQueueLock(() => flushCaptures(captureStore(), owner, sendCapture));
      if (result?.sent || result?.held) {
        announceChange();
        await queryClient.invalidateQueries({ queryKey: ['moves'] });
      }
      if (result?.sent) notify('app.offline.sent', { type: 'success', messageArgs: { smart_count: result.sent } });
      if (result?.held) notify('app.offline.held', { type: 'warning', messageArgs: { smart_count: result.held } });
    } finally {
      if (mounted.current) setSending(false);
      await refresh();
    }
  }, [notify, owner, queryClient, refresh]);

  useEffect(() => {
    mounted.current = true;
    void refresh().then(flush);
    const channel = typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel(CHANNEL) : undefined;
    const changed = () => void refresh();
    const online = () => void flush();
    channel?.addEventListener('message', changed);
    window.addEventListener(CHANNEL, changed);
    window.addEventListener('online', online);
    return () => {
      mounted.current = false;
      channel?.close();
      window.removeEventListener(CHANNEL, changed);
      window.removeEventListener('online', online);
    };
  }, [refresh, flush]);

  async function change(next: Capture | null, id: string) {
    await (next ? captureStore().put(next) : captureStore().remove(id));
    announceChange();
  }

  return {
    captures,
    sending,
    flush,
    discard: (id: string) => change(null, id),
    /** A warned capture saved anyway, or a refused one tried again: back in the queue, sent at once. */
    sendAgain: async (capture: Capture, onDuplicate: 'warn' | 'save') => {
      await change({ ...capture, status: 'waiting', onDuplicate, message: undefined, duplicates: undefined }, capture.id);
      await flush();
    },
  };
}

export type CaptureQueue = ReturnType<typeof useCaptureQueue>;
