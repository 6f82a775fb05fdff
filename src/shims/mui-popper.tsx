/**
 * MUI's Popper as the built console uses it (scripts/stand-ins.ts puts it in place of @mui/material's Popper for the
 * build, so Tooltip and Autocomplete get it too): loaded the first time one opens. Importing Tooltip ships the Popper
 * with @popperjs/core, about 20 KB of every page's first load (the app bar's buttons have tooltips) that runs only
 * when a tooltip or an autocomplete's list first shows.
 */
import type { PopperProps } from '@mui/material/Popper';
import { whenOpen } from './whenOpen';

export default whenOpen<PopperProps>(() => import('@mui/material/Popper'), 'Popper');
