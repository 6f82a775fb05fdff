import { useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Snackbar from '@mui/material/Snackbar';
import { usePhone } from '../../custom/usePhone';
import { ValidationContent } from './ValidationContent';
import { RejectReasonDialog } from './RejectReasonDialog';
import { ValidationDialog } from './ValidationDialog';
import type { ValidationRowsProps } from './ValidationRows';
import { useValidationDecisions } from './useValidationDecisions';
import { useValidationPaging } from './useValidationPaging';
import { useValidationSelection } from './useValidationSelection';
import type { QueueMove } from './validationQueue';

/**
 * The validation page (spec section 2): moves of the user's journals awaiting a manager, a page at a time per tab
 * (expenses, invoices) with how many wait in each, to validate or reject one by one or the selected rows together.
 */
export function ValidationPage() {
  const phone = usePhone();
  const [open, setOpen] = useState<QueueMove | null>(null);
  const body = useRef<HTMLDivElement>(null);
  const selection = useValidationSelection();
  const paging = useValidationPaging(selection.clear);
  const decisions = useValidationDecisions(body, paging.current.data, selection.forget);
  const { decide, validate, reject, refresh } = decisions;
  const rows: ValidationRowsProps = {
    phone,
    selected: selection.selected,
    onSelect: selection.onSelect,
    onSelectAll: (on) => selection.selectAll(decisions.moves, on),
    onOpen: setOpen,
    onValidate: decisions.onValidate,
    onReject: decisions.onReject,
  };

  return (
    <Paper sx={{ mt: 2, p: { xs: 1, md: 2 }, minWidth: 0 }} data-testid="validation-page">
      <Box ref={body}>
        <ValidationContent paging={paging} decisions={decisions} selection={selection} rows={rows} />
      </Box>
      {/* The message bar's code (loaded when a first message shows) is loaded with the page: the first decision's
          confirmation must not wait for it. Closed, it draws nothing. */}
      <Snackbar open={false} {...({ keepMounted: true } as object)} />
      <RejectReasonDialog {...decisions.rejecting} />
      <ValidationDialog
        move={open}
        phone={phone}
        onClose={() => setOpen(null)}
        onValidate={(move, comment) => {
          setOpen(null);
          decide([move], (moves) => validate(moves, comment), move);
        }}
        onReject={(move, comment) => {
          setOpen(null);
          decide([move], (moves) => reject(moves, comment), move);
        }}
        onCommented={(move) => {
          setOpen(move);
          void refresh();
        }}
      />
    </Paper>
  );
}
