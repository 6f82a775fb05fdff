import { useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';
import { errorMessage } from '../providers/http';

/**
 * What could not be loaded, why in the user's language (the ERP down, the server out of reach) and a retry: a failed
 * load is said as a failure, never as an empty state ("no company", "nothing pending"; issue 27). `message` is a
 * catalogue key taking the reason as `%{error}` (and `messageArgs`); with `title`, the title names what failed and the reason follows.
 */
export function LoadError({ message, messageArgs, title, error, onRetry, testId = 'load-error', sx }: { message?: string; messageArgs?: Record<string, unknown>; title?: string; error: unknown; onRetry: () => void; testId?: string; sx?: SxProps<Theme> }) {
  const translate = useTranslate();
  const reason = errorMessage(error, translate);
  return (
    <Alert
      severity="error"
      role="alert"
      sx={sx}
      data-testid={testId}
      action={<Button color="inherit" size="small" onClick={onRetry} data-testid={`${testId}-retry`}>{translate('app.list.retry')}</Button>}
    >
      {title ? <AlertTitle>{translate(title)}</AlertTitle> : null}
      {message ? translate(message, { ...messageArgs, error: reason }) : reason}
    </Alert>
  );
}
