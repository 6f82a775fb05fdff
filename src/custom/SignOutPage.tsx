import { useEffect, useRef } from 'react';
import { useLogout, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';

/** The sign-out link (/sign-out): ends the session and leaves through the identity provider's logout address. */
export function SignOutPage() {
  const translate = useTranslate();
  const logout = useLogout();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void logout();
  }, [logout]);
  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }} role="status">
        <CircularProgress size={28} aria-hidden />
        <Typography>{translate('app.signOut.progress')}</Typography>
      </Box>
    </Box>
  );
}
