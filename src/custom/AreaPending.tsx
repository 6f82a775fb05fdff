import { useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';

/** The body of a screen whose area is not built yet: says so plainly instead of pretending. */
export function AreaPending() {
  const translate = useTranslate();
  return (
    <Box sx={{ maxWidth: 720, mt: 3 }}>
      <Alert severity="info" data-testid="area-pending">
        {translate('app.pending.message')}
      </Alert>
    </Box>
  );
}
