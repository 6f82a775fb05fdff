import type { RefObject } from 'react';
import { useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';

export interface ContactCardScanProps {
  /** A card is being read; `queued`: the reader is busy and will be asked again. */
  pending: boolean;
  queued: boolean;
  inputRef: RefObject<HTMLInputElement | null>;
  onFile: (file: File | undefined) => unknown;
}

/** The Contact form's top bar: the button that reads a business card (the camera on a phone), and its progress. */
export function ContactCardScan({ pending, queued, inputRef, onFile }: ContactCardScanProps) {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 1 }}>
      {pending && <CircularProgress size={20} aria-label={translate(queued ? 'app.contactForm.scanQueued' : 'app.contactForm.scanning')} data-testid="card-scanning" />}
      <Tooltip title={translate('app.contactForm.scan')}>
        <span>
          <IconButton color="primary" aria-label={translate('app.contactForm.scan')} onClick={() => inputRef.current?.click()} disabled={pending} data-testid="scan-card">
            <PhotoCameraIcon />
          </IconButton>
        </span>
      </Tooltip>
      {/* capture: the phone's camera opens directly; a computer shows the file picker. */}
      <input ref={inputRef} type="file" accept="image/*" capture="environment" hidden onChange={(event) => void onFile(event.target.files?.[0])} data-testid="card-input" />
    </Box>
  );
}
