import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';

/** The sign-in return (spec section 2): store the token, load the user, go home; on any failure log and go to login. */
export function CallbackPage({ signIn }: { signIn: (token: string | null) => Promise<unknown> }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = new URLSearchParams(window.location.search).get('token');
    signIn(token).then(
      // What react-admin asked of the auth provider while the sign-in was being confirmed (no token yet) is asked again.
      () => queryClient.invalidateQueries({ queryKey: ['auth'] }).then(() => navigate('/', { replace: true })),
      (error: unknown) => {
        console.error(error instanceof Error ? error.message : error);
        navigate('/login', { replace: true });
      },
    );
  }, [signIn, navigate, queryClient]);
  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }} role="status" data-testid="callback-processing">
        <CircularProgress size={28} aria-hidden />
        <Typography>{translate('app.login.processing')}</Typography>
      </Box>
    </Box>
  );
}
