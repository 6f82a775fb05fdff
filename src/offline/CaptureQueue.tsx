import { useEffect, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import { DuplicateWarning } from '../resources/moves/DuplicateWarning';
import { captureStore, announceChange, type Capture } from './captureStore';
import { countByStatus } from './captureQueue';
import { sharedFile } from './captureText';
import { CaptureQueueItem } from './CaptureQueueItem';
import { useCaptureQueue } from './useCaptureQueue';
import { useOnline } from './useOnline';

/**
 * The Move page's capture queue (issue 33, item 2): "3 pendientes de enviar" with "Enviar ahora" and the list to look
 * at, save anyway or discard; files shared to the app, to fill in; and, without a network, that a send is kept here.
 * `onFillIn` takes a shared file into the form; several files shared at once go to `onSharedMany` (the batch
 * receipts, issue 33 item 1) as soon as there is a network, each kept here until the batch has taken it.
 */
export function CaptureQueue({ onFillIn, onSharedMany }: { onFillIn: (file: File) => void; onSharedMany: (files: File[], keys: string[]) => Promise<File[]> }) {
  const translate = useTranslate();
  const online = useOnline();
  const queue = useCaptureQueue();
  useSharedToBatch(queue.captures, online, onSharedMany);
  // Opened by a share (/move?shared=1): the shared files are what the user came for.
  const [open, setOpen] = useState(() => new URLSearchParams(window.location.search).has('shared'));
  const [reviewing, setReviewing] = useState<Capture | null>(null);
  const counts = countByStatus(queue.captures);
  const held = counts.duplicate + counts.refused;
  if (!queue.captures.length && online) return null;

  async function fillIn(capture: Capture) {
    const file = sharedFile(capture);
    if (file) onFillIn(file);
    await captureStore().remove(capture.id);
    announceChange();
  }

  const summary = [
    counts.waiting && translate('app.offline.waiting', { smart_count: counts.waiting }),
    held && translate('app.offline.needsAttention', { smart_count: held }),
    counts.shared && translate('app.offline.shared', { smart_count: counts.shared }),
  ].filter(Boolean).join(' · ');
  return (
    <Alert
      severity={held ? 'warning' : online ? 'info' : 'warning'}
      icon={online ? <CloudUploadIcon /> : <CloudOffIcon />}
      sx={{ '& .MuiAlert-message': { flex: 1, minWidth: 0 } }}
      data-testid="capture-queue"
    >
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', justifyContent: 'space-between' }}>
        <Box role="status" data-testid="capture-queue-count">
          {summary && <Box sx={{ fontWeight: 600 }}>{summary}</Box>}
          {!online && <div>{translate('app.offline.noNetwork')}</div>}
        </Box>
        {queue.captures.length > 0 && (
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            {counts.waiting > 0 && (
              <Button size="small" variant="outlined" color="inherit" disabled={!online || queue.sending} onClick={() => void queue.flush()} data-testid="capture-send-now">
                {translate('app.offline.sendNow')}
              </Button>
            )}
            <Button size="small" color="inherit" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="capture-toggle">
              {translate(open ? 'app.offline.hide' : 'app.offline.show')}
            </Button>
          </Box>
        )}
      </Box>
      {open && queue.captures.length > 0 && (
        <Box component="ul" sx={{ listStyle: 'none', m: 0, mt: 1, p: 0 }} data-testid="capture-list">
          {queue.captures.map((capture) => (
            <CaptureQueueItem
              key={capture.id}
              capture={capture}
              busy={queue.sending}
              onDiscard={() => void queue.discard(capture.id)}
              onSendAgain={(onDuplicate) => void queue.sendAgain(capture, onDuplicate)}
              onFillIn={() => void fillIn(capture)}
              onReview={() => setReviewing(capture)}
            />
          ))}
        </Box>
      )}
      {reviewing?.duplicates && (
        <DuplicateWarning
          duplicates={reviewing.duplicates}
          busy={queue.sending}
          onSaveAnyway={() => {
            setReviewing(null);
            void queue.sendAgain(reviewing, 'save');
          }}
          onKeepEditing={() => setReviewing(null)}
        />
      )}
    </Alert>
  );
}

/**
 * Several shared files become batch receipts (drafts read on the server), online; those it could not take stay. Each
 * is sent with its place in the queue as its submission key: sent again (the page opened twice, a network that came
 * back mid-way), it is the draft it already made (a fresh-clone run on a busy machine once made two of one).
 */
function useSharedToBatch(captures: Capture[], online: boolean, onSharedMany: (files: File[], keys: string[]) => Promise<File[]>) {
  const moving = useRef(false);
  const shared = captures.filter((capture) => capture.status === 'shared');
  const ids = shared.map((capture) => capture.id).join(',');
  useEffect(() => {
    if (!online || shared.length < 2 || moving.current) return;
    moving.current = true;
    const files = shared.flatMap((capture) => {
      const file = sharedFile(capture);
      return file ? [{ capture, file }] : [];
    });
    void onSharedMany(files.map(({ file }) => file), files.map(({ capture }) => capture.id))
      .then(async (notKept) => {
        for (const { capture, file } of files) if (!notKept.includes(file)) await captureStore().remove(capture.id);
        announceChange();
      })
      .finally(() => (moving.current = false));
    // Once per set of shared files (their ids), not at every render of the page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [online, ids]);
}
