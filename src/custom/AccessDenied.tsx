import { Link as RouterLink } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import LockIcon from '@mui/icons-material/Lock';

/** Shown to a signed-in user who lacks the screen's permission (the spec leaves this open). */
export function AccessDenied({ permission }: { permission: string }) {
  const translate = useTranslate();
  return (
    <Box sx={{ maxWidth: 560, mx: 'auto', mt: 8, textAlign: 'center' }} data-testid="access-denied" role="alert">
      <LockIcon color="disabled" sx={{ fontSize: 64 }} />
      <Typography variant="h5" component="h2" gutterBottom>
        {translate('app.accessDenied.title')}
      </Typography>
      <Typography color="text.secondary" gutterBottom>
        {translate('app.accessDenied.message', { permission })}
      </Typography>
      <Button component={RouterLink} to="/" variant="contained" sx={{ mt: 2 }}>
        {translate('app.accessDenied.back')}
      </Button>
    </Box>
  );
}
