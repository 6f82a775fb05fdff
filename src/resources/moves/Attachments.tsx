import { useEffect } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { base64Payload, isPreviewable, sniffBase64 } from '../../../shared/domain/files';
import type { BackofficeDataProvider } from '../../providers/dataProvider';

/** A stored file as served: `shown: false` when the server's check found it unsafe to open inline, with its `notice`. */
interface Attachment {
  id: number;
  name: string;
  datas: string;
  shown?: boolean;
  notice?: string;
}

export const PREVIEW_HEIGHT = 500;

/**
 * A move's files shown inline (PDF, PNG, JPEG by their first bytes), 500px high; anything else says so, and a PDF the
 * server withholds (active content, beyond the limits) is offered as a download with the server's notice.
 */
export function Attachments({ ids }: { ids: number[] }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const key = ids.join(',');
  // GET /odoo/moves/attachments?attachmentIds=1,2 (the moves 'attachments' action); a move's files do not change.
  const { data: files, error } = useQuery({
    queryKey: ['moves', 'attachments', key],
    queryFn: ({ signal }) => dataProvider.action<Attachment[]>('moves', 'attachments', { query: { attachmentIds: key }, signal }),
    enabled: Boolean(key),
    staleTime: Infinity,
    // Spec section 7: a failure returns nothing and only a warning is logged; it is not tried again.
    retry: false,
  });
  useEffect(() => {
    if (error) console.warn(error);
  }, [error]);
  if (!ids.length) return null;
  if (error) return <Alert severity="error">{translate('app.validation.attachmentError')}</Alert>;
  if (!files) return <CircularProgress size={24} aria-label={translate('ra.page.loading')} />;
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      {files.map((file) => {
        const type = sniffBase64(file.datas);
        if (type === 'application/xml') {
          // An e-invoice's XML (issue 55): named as one, and offered to save (a browser shows XML as code).
          return (
            <Alert key={file.id} severity="info" data-testid="attachment-xml">
              {translate('app.validation.xmlFile', { name: file.name })}
              <Box sx={{ mt: 1 }}>
                <Button variant="outlined" color="inherit" size="small" sx={{ textTransform: 'none' }} href={`data:application/octet-stream;base64,${base64Payload(file.datas)}`} download={file.name}>
                  {translate('app.validation.downloadFile', { name: file.name })}
                </Button>
              </Box>
            </Alert>
          );
        }
        if (!isPreviewable(type)) {
          return <Alert key={file.id} severity="warning">{translate('app.validation.unsupportedFile')}</Alert>;
        }
        if (file.shown === false) {
          // Offered as bytes to save, never as a document the browser would open.
          return (
            <Alert key={file.id} severity="warning" data-testid="attachment-withheld">
              {file.notice}
              <Box sx={{ mt: 1 }}>
                <Button variant="outlined" color="inherit" size="small" sx={{ textTransform: "none" }} href={`data:application/octet-stream;base64,${base64Payload(file.datas)}`} download={file.name}>
                  {translate('app.validation.downloadFile', { name: file.name })}
                </Button>
              </Box>
            </Alert>
          );
        }
        const src = `data:${type};base64,${base64Payload(file.datas)}`;
        return type === 'application/pdf' ? (
          <object key={file.id} data={src} type="application/pdf" height={PREVIEW_HEIGHT} width="100%" aria-label={file.name} data-testid="attachment-pdf">
            <a href={src} download={file.name}>{file.name}</a>
          </object>
        ) : (
          <Box key={file.id} component="img" src={src} alt={file.name} sx={{ height: PREVIEW_HEIGHT, maxWidth: '100%', objectFit: 'contain' }} data-testid="attachment-image" />
        );
      })}
    </Box>
  );
}
