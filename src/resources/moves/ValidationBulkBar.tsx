import { useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';

/** The selected rows' bar: how many, and the decision over all of them. */
export function ValidationBulkBar({ count, onValidate, onReject, onClear }: { count: number; onValidate: () => void; onReject: () => void; onClear: () => void }) {
  const translate = useTranslate();
  return (
    <Box
      role="region"
      aria-label={translate('app.validation.selected', { smart_count: count })}
      sx={{ mt: 1, px: 1, py: 0.5, display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, bgcolor: 'action.selected', borderRadius: 1 }}
      data-testid="validation-bulk"
    >
      <Typography variant="body2" sx={{ fontWeight: 500 }} data-testid="validation-selected">{translate('app.validation.selected', { smart_count: count })}</Typography>
      <Box sx={{ flex: 1 }} />
      <Button size="small" onClick={onClear}>{translate('app.validation.clearSelection')}</Button>
      <Button size="small" variant="outlined" color="error" sx={{ color: 'error.dark', borderColor: 'error.dark' }} startIcon={<CloseIcon />} onClick={onReject} data-testid="bulk-reject">{translate('app.validation.rejectSelected')}</Button>
      <Button size="small" variant="contained" color="success" startIcon={<CheckIcon />} onClick={onValidate} data-testid="bulk-validate">{translate('app.validation.validateSelected')}</Button>
    </Box>
  );
}
