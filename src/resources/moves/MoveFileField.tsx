import { useRef } from 'react';
import { useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import AutoAwesomeIcon from '@mui/icons-material/AutoAwesome';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import type { MoveValues } from './moveTypes';
import type { MoveReading } from './useMoveReading';
import { MoveRow } from './MoveRow';
import { EInvoiceSummary } from './EInvoiceSummary';

function ReadingFailure({ message, onRetry }: { message: string; onRetry: () => void }) {
  const translate = useTranslate();
  return (
    <Alert severity="error" role="alert" sx={{ mt: 1 }} data-testid="ai-failure" action={<Button color="inherit" size="small" onClick={onRetry} data-testid="ai-retry">{translate('app.move.readAgain')}</Button>}>
      <AlertTitle>{translate('app.move.aiError')}</AlertTitle>
      {message}
    </Alert>
  );
}

/**
 * The document's box: its file (chosen, taken with the camera or dropped) and the button that reads it with AI. Several
 * files chosen or dropped at once go to `onFiles` (issue 33, item 1: each becomes a draft); one is the form's file.
 */
export function MoveFileField({ doc, onFiles, tab }: { doc: MoveReading; onFiles: (files: File[]) => void; tab: 'expense' | 'invoice' }) {
  const translate = useTranslate();
  const { formState } = useFormContext<MoveValues>();
  const { file, reading, queued, position, failure, readingSeconds, fileInput, chooseFileButton, readWithAi } = doc;
  const cameraInput = useRef<HTMLInputElement>(null);
  const touchScreen = useMediaQuery('(pointer: coarse)');
  function chosen(input: HTMLInputElement) {
    const files = [...(input.files ?? [])];
    // Several become drafts, not the form's file: the input is emptied, so that the same ones can be chosen again.
    if (files.length > 1) input.value = '';
    onFiles(files);
  }
  return (
    <MoveRow help={translate('app.move.help.file')}>
      <Box sx={{ border: '2px dashed', borderColor: formState.isSubmitted && !file ? 'error.main' : 'divider', borderRadius: 1, p: 2, display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}
        onDragOver={(event) => event.preventDefault()}
        onDrop={(event) => { event.preventDefault(); const dropped = [...event.dataTransfer.files]; if (dropped.length) onFiles(dropped); }}
      >
        <Button ref={chooseFileButton} variant="outlined" startIcon={<AttachFileIcon />} onClick={() => fileInput.current?.click()}>{translate('app.move.chooseFile')}</Button>
        <input ref={fileInput} type="file" hidden multiple accept="application/pdf,image/*,.xml,.xsig,application/xml,text/xml" onChange={(event) => chosen(event.target)} data-testid="file-input" />
        {/* On a phone the camera opens straight away; a computer keeps the file picker above. */}
        {touchScreen && (
          <Button variant="outlined" startIcon={<PhotoCameraIcon />} onClick={() => cameraInput.current?.click()} data-testid="take-photo">{translate('app.move.takePhoto')}</Button>
        )}
        <input ref={cameraInput} type="file" hidden accept="image/*" capture="environment" onChange={(event) => onFiles([...(event.target.files ?? [])].slice(0, 1))} data-testid="camera-input" />
        <Typography variant="body2" data-testid="file-name" sx={{ flex: 1, minWidth: 160 }}>
          {file ? `${file.name} (${file.type || (/\.(xml|xsig)$/i.test(file.name) ? 'application/xml' : translate('app.move.unknownType'))})` : translate('app.move.noFile')}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Button startIcon={reading ? <CircularProgress size={18} color="inherit" aria-hidden /> : <AutoAwesomeIcon />} disabled={!file || reading} onClick={readWithAi} data-testid="ai-button">{translate('app.move.ai')}</Button>
          {/* The wait is said where the user looks (at the button), with the seconds it has taken so far. */}
          {reading && (
            <Typography variant="body2" color="text.secondary" role="status" data-testid="ai-reading">
              {position ? translate('app.move.readingPosition', { position }) : translate(queued ? 'app.move.readingQueued' : 'app.move.readingSeconds', { seconds: readingSeconds })}
            </Typography>
          )}
        </Box>
      </Box>
      {/* A failed reading's reason stays beside the file until another reading or another file (issue 51). */}
      {failure && !reading ? <ReadingFailure message={failure} onRetry={readWithAi} /> : null}
      {doc.einvoice && !reading ? <EInvoiceSummary reading={doc.einvoice} withLines={doc.withLines} onWithLines={doc.setWithLines} tab={tab} /> : null}
    </MoveRow>
  );
}
