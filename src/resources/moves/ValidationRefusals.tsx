import { useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import { errorMessage } from '../../providers/http';
import { useMoveName } from './ValidationTable';
import type { Outcome, Refusal } from './validationQueue';

/** Why the server would not decide a move: its refusal is worded in the user's language (Accept-Language). */
function useRefusalReason() {
  const translate = useTranslate();
  return (refusal: Refusal) => {
    if (refusal.error !== undefined) return errorMessage(refusal.error, translate);
    if (refusal.statusCode === 404) return translate('app.validation.reasons.notFound');
    return errorMessage({ status: refusal.statusCode, body: { message: refusal.message } }, translate);
  };
}

/** The moves of a decision of several that the server refused, each named with its reason; the others stand. */
export function ValidationRefusals({ outcome, onClose }: { outcome: Outcome; onClose: () => void }) {
  const translate = useTranslate();
  const name = useMoveName();
  const reason = useRefusalReason();
  const total = outcome.decided.length + outcome.refused.length;
  return (
    <Alert severity="error" role="alert" sx={{ mt: 2 }} onClose={onClose} slotProps={{ closeButton: { title: translate('app.validation.closeProblems') } }} data-testid="validation-refusals">
      <AlertTitle>{translate(outcome.validate ? 'app.validation.partial.validate' : 'app.validation.partial.reject', { done: outcome.decided.length, total })}</AlertTitle>
      <Box component="ul" sx={{ m: 0, pl: 2 }}>
        {outcome.refused.map((refusal) => (
          <li key={refusal.move.id} data-testid="validation-refused">{name(refusal.move)}: {reason(refusal)}</li>
        ))}
      </Box>
    </Alert>
  );
}
