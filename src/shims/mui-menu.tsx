/**
 * MUI's Menu as the built console uses it (scripts/stand-ins.ts puts it in place of @mui/material's Menu for the
 * build, Select's own included): loaded the first time a menu opens (the account menu, a column chooser, the
 * rows-per-page choice); every page has several, closed.
 */
import type { MenuProps } from '@mui/material/Menu';
import { whenOpen } from './whenOpen';

export default whenOpen<MenuProps>(() => import('@mui/material/Menu'), 'Menu');
