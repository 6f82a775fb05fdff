import { useEffect, useState } from 'react';
import { Loading } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import { LoadError } from './LoadError';

/** How long a page may say "Cargando" before it says the server is not answering. */
export const LOADING_PATIENCE_MS = 10_000;

/**
 * react-admin's loading page (the shell's checks of the session and permissions, the home's), which never waits for
 * ever (issue 51, item 4): past `LOADING_PATIENCE_MS` it says the server is not answering, with a retry that asks every
 * read of the screen again. A call to a server that is gone fails sooner (src/providers/watchdog.ts); this is for one
 * that answers it is there and nothing else.
 */
export function PatientLoading() {
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
      {/* The lists' own failure, its message saying what is wrong (no error to tell: the server said nothing). */}
      {late ? <LoadError message="app.loads.slow" error={null} onRetry={retry} testId="loading-late" sx={{ m: 2 }} /> : null}
      <Loading />
    </Box>
  );
}
