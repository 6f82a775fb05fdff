import { useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { errorMessage } from '../../providers/http';

/** A load that failed: what could not be read, why in the user's language, and a retry. Never "nothing pending". */
export function ValidationLoadProblem({ title, error, onRetry }: { title: string; error: unknown; onRetry: () => void }) {
  const translate = useTranslate();
  return (
    <Alert
      severity="error"
      role="alert"
      sx={{ mt: 2 }}
      data-testid="validation-load-error"
      action={<Button color="inherit" size="small" onClick={onRetry} data-testid="validation-retry">{translate('app.list.retry')}</Button>}
    >
      <AlertTitle>{title}</AlertTitle>
      {errorMessage(error, translate)}
    </Alert>
  );
}
