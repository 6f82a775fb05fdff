import { useCloseNotification, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';

/** A decision's confirmation's "Deshacer": closes the message and withdraws the decision (issue 51). */
export function UndoDecision({ onUndo }: { onUndo: () => void }) {
  const translate = useTranslate();
  const close = useCloseNotification();
  return (
    <Button
      color="inherit"
      size="small"
      onClick={() => {
        close();
        onUndo();
      }}
      data-testid="undo-decision"
    >
      {translate('ra.action.undo')}
    </Button>
  );
}
