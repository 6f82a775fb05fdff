/**
 * MUI's Snackbar as the built console uses it (scripts/stand-ins.ts puts it in place of @mui/material's Snackbar for
 * the build): loaded with the first message react-admin's notifications show; every page renders one, closed.
 */
import type { SnackbarProps } from '@mui/material/Snackbar';
import { whenOpen } from './whenOpen';

export default whenOpen<SnackbarProps>(() => import('@mui/material/Snackbar'), 'Snackbar');
