import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';

function Help({ text }: { text: string }) {
  return (
    <Tooltip title={text}>
      <IconButton size="small" aria-label={text} sx={{ ml: 0.5, alignSelf: 'center' }}>
        <HelpOutlineIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

/** One of the Move form's rows: its input(s), with the field's help beside them. */
export function MoveRow({ help, children }: { help: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}>
      <Box sx={{ flex: 1 }}>{children}</Box>
      <Help text={help} />
    </Box>
  );
}
