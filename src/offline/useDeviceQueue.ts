import { useNotify, useTranslate } from 'react-admin';
import { errorMessage } from '../providers/http';
import { submissionDone } from '../providers/submission';
import type { DuplicateAnswer } from '../../shared/domain/duplicates';
import { captureStore } from './captureStore';
import { isOwnedBy, queueCapture } from './captureQueue';

/**
 * The Move page's sends in the device's queue (issue 51, item 1): each written there first (`keep`), taken out once
 * the server has answered it (`forget`), and, when it stays, "Guardado en este dispositivo (N pendientes)" said with
 * why (`queuedNotice`). `owner`: the signed-in user's e-mail, whose captures they are.
 */
export function useDeviceQueue(owner: string | undefined) {
  const translate = useTranslate();
  const notify = useNotify();

  /** The capture in the device's queue; false when the browser cannot keep it (no storage, full). */
  async function keep(body: Record<string, unknown>, key: string, onDuplicate: DuplicateAnswer): Promise<boolean> {
    try {
      await queueCapture(captureStore(), { id: key, body, onDuplicate, owner });
      return true;
    } catch {
      return false;
    }
  }

  async function forget(key: string) {
    await captureStore().remove(key).catch(() => undefined);
  }

  /** What to say once the form is ready again: how many of the user's wait, and why when a server answered. */
  async function queuedNotice(key: string, reason?: unknown) {
    // Its values sent again are a new move (the queued one keeps its key).
    submissionDone('moves', key);
    const waiting = (await captureStore().all().catch(() => [])).filter((capture) => capture.status === 'waiting' && (!owner || isOwnedBy(capture, owner))).length;
    const queued = translate('app.offline.queued', { smart_count: Math.max(waiting, 1) });
    // A server that answered (down, busy, a session ended): why it waits, then that it is kept.
    const why = reason ? errorMessage(reason, translate) : '';
    const said = /^[a-z]+\.[\w.]+$/i.test(why) ? translate(why) : why;
    return () => notify(said ? `${said} · ${queued}` : queued, { type: said ? 'warning' : 'info' });
  }

  return { keep, forget, queuedNotice };
}
