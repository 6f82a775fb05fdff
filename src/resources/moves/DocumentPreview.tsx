import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { PDF_OBJECT_WINDOW, pdfHasObjects } from '../../../shared/domain/files';

/** The chosen file's own address for the page (a blob: URL), released when the file changes or the page goes. */
function useFileUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- no file, nothing to show
      setUrl(null);
      return;
    }
    const made = URL.createObjectURL(file);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  return url;
}

/**
 * Whether a PDF can be handed to the browser's viewer (pdfHasObjects), once its start has been read: null until then.
 * A PDF that is a header only (an empty or cut file) would open to the viewer's error page, which takes the focus.
 */
function usePdfOpens(file: File | null, pdf: boolean): boolean | null {
  const [opens, setOpens] = useState<{ file: File; opens: boolean } | null>(null);
  useEffect(() => {
    if (!file || !pdf) return;
    // FileReader, which every browser (and the tests' jsdom) has for a slice of a file.
    const reader = new FileReader();
    reader.onload = () => setOpens({ file, opens: reader.result instanceof ArrayBuffer && pdfHasObjects(new Uint8Array(reader.result)) });
    reader.onerror = () => setOpens({ file, opens: false });
    reader.readAsArrayBuffer(file.slice(0, PDF_OBJECT_WINDOW));
    return () => {
      reader.onload = null;
      reader.onerror = null;
      reader.abort();
    };
  }, [file, pdf]);
  return opens?.file === file ? opens.opens : null;
}

/**
 * The document being registered, beside the form (issue 27, as Odoo 17's bill digitisation shows it): what was read
 * is checked against the paper without leaving the page. A PDF in the browser's viewer, a photo as a picture;
 * anything else is named only.
 */
export function DocumentPreview({ file, height }: { file: File | null; height: number | string }) {
  const translate = useTranslate();
  const url = useFileUrl(file);
  const pdf = file !== null && (file.type === 'application/pdf' || /\.pdf$/i.test(file.name));
  const pdfOpens = usePdfOpens(file, pdf);
  if (!file || !url) return null;
  const image = file.type.startsWith('image/') && file.type !== 'image/heic';
  return (
    <Box component="figure" sx={{ m: 0, display: 'grid', gap: 1 }} data-testid="document-preview">
      <Typography component="figcaption" variant="subtitle2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {translate('app.move.preview', { name: file.name })}
      </Typography>
      {pdf && pdfOpens === null ? null : pdf && !pdfOpens ? (
        <Typography variant="body2" data-testid="preview-pdf-unreadable">{translate('app.move.pdfUnreadable')}</Typography>
      ) : pdf ? (
        <object data={url} type="application/pdf" width="100%" height={typeof height === 'number' ? height : undefined} style={{ height, border: 0 }} aria-label={file.name} data-testid="preview-pdf">
          <a href={url} download={file.name}>{file.name}</a>
        </object>
      ) : /\.(xml|xsig)$/i.test(file.name) || /[/+]xml$/.test(file.type) ? (
        <Typography variant="body2" data-testid="preview-xml">{translate('app.move.xmlPreview')}</Typography>
      ) : image ? (
        <Box component="img" src={url} alt={file.name} sx={{ maxHeight: height, width: '100%', objectFit: 'contain', objectPosition: 'top' }} data-testid="preview-image" />
      ) : (
        <Typography variant="body2">{translate('app.move.noPreview')}</Typography>
      )}
    </Box>
  );
}
