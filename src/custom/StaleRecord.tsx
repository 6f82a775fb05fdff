/**
 * An edit refused because someone else changed the record since it was read (409, issue 29): the server's message
 * (who changed it and when, in the user's language) with a Reload action that reads the record again.
 */
import { useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import RefreshIcon from '@mui/icons-material/Refresh';
import { refusalOf } from '../providers/http';

const STALE_CODES = new Set(['records.changedBy', 'records.changed']);

/** The server's message when `error` is a stale edit's refusal, else undefined. */
export function staleMessage(error: unknown): string | undefined {
  const refusal = refusalOf(error);
  return refusal?.status === 409 && refusal.code && STALE_CODES.has(refusal.code) ? refusal.message : undefined;
}

export function StaleRecord({ message, onReload }: { message: string; onReload: () => void }) {
  const translate = useTranslate();
  return (
    <Alert
      severity="warning"
      role="alert"
      data-testid="stale-record"
      action={
        <Button color="inherit" size="small" startIcon={<RefreshIcon />} onClick={onReload} data-testid="stale-reload">
          {translate('app.staleRecord.reload')}
        </Button>
      }
    >
      {message}
    </Alert>
  );
}
