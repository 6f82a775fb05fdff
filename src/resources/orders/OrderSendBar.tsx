import { useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import SendIcon from '@mui/icons-material/Send';

/**
 * The Order page's create button and, while it cannot be used, what to do first beside it (issue 51: never a disabled
 * button without a word). The hint is the button's description for a screen reader too.
 */
export function OrderSendBar({ needs, busy }: { needs: string[]; busy: boolean }) {
  const translate = useTranslate();
  const blocked = needs.length > 0;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', flexWrap: 'wrap', columnGap: 2, rowGap: 1, mt: 2 }}>
      {blocked && (
        <FormHelperText id="order-send-needs" data-testid="order-send-needs" sx={{ m: 0, maxWidth: 640, textAlign: 'right', fontSize: '0.875rem' }}>
          {translate('app.order.needs.intro', { needs: needs.join('; ') })}
        </FormHelperText>
      )}
      <Button type="submit" variant="contained" startIcon={<SendIcon />} disabled={blocked || busy} aria-describedby={blocked ? 'order-send-needs' : undefined} data-testid="order-send">
        {translate('app.order.send')}
      </Button>
    </Box>
  );
}
