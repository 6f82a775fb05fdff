import { useEffect, useState } from 'react';
import { Loading, useTranslate } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';

/** How long a page may say "Cargando" before it says the server is not answering. */
export const LOADING_PATIENCE_MS = 10_000;

/**
 * react-admin's loading page (the shell's checks of the session and permissions, the home's), which never waits for
 * ever (issue 51, item 4): past `LOADING_PATIENCE_MS` it says the server is not answering, with a retry that asks every
 * read of the screen again. A call to a server that is gone fails sooner (src/providers/watchdog.ts); this is for one
 * that answers it is there and nothing else.
 */
export function PatientLoading() {
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const [late, setLate] = useState(false);
  useEffect(() => {
    if (late) return undefined;
    const timer = setTimeout(() => setLate(true), LOADING_PATIENCE_MS);
    return () => clearTimeout(timer);
  }, [late]);
  const retry = () => {
    setLate(false);
    void queryClient.refetchQueries({ type: 'active' });
  };
  return (
    <Box>
      {late ? (
        <Alert
          severity="error"
          role="alert"
          sx={{ m: 2 }}
          data-testid="loading-late"
          action={<Button color="inherit" size="small" onClick={retry} data-testid="loading-late-retry">{translate('app.list.retry')}</Button>}
        >
          {translate('app.loads.slow')}
        </Alert>
      ) : null}
      <Loading />
    </Box>
  );
}
