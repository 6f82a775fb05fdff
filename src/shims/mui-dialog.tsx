/**
 * MUI's Dialog as the built console uses it (scripts/stand-ins.ts puts it in place of @mui/material's Dialog for the
 * build): loaded the first time a dialog opens; a list page's dialogs (a move's detail, a confirmation) start closed.
 */
import type { DialogProps } from '@mui/material/Dialog';
import { whenOpen } from './whenOpen';

export default whenOpen<DialogProps>(() => import('@mui/material/Dialog'), 'Dialog');
