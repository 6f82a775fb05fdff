import { Button, useListContext, useLocaleState, useTranslate } from 'react-admin';
import DownloadIcon from '@mui/icons-material/GetApp';
import CircularProgress from '@mui/material/CircularProgress';
import type { CsvWriter } from './csv';
import { exportCount, useWholeExport } from './useWholeExport';

/**
 * A list's Exportar (issue 54, item 3), in place of react-admin's ExportButton, which read one page of `maxResults`
 * rows and said nothing of the rest: every row the filters match, read page by page, the label saying how far it is
 * ("Exportando 3.000 de 5.042…"). `perPage` is the largest page the list's search answers.
 */
export function WholeExportButton({ writer, perPage }: { writer: CsvWriter; perPage: number }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { total } = useListContext();
  const { progress, start } = useWholeExport(writer, perPage);
  const count = exportCount(locale);
  const label = !progress
    ? translate('ra.action.export')
    : progress.done === 0
      ? translate('app.export.starting')
      : translate(progress.more ? 'app.export.progressMore' : 'app.export.progress', { done: count(progress.done), total: count(progress.total) });
  return (
    <Button onClick={() => void start()} label={label} disabled={total === 0 || progress !== null} aria-busy={progress !== null}>
      {progress ? <CircularProgress size={16} color="inherit" /> : <DownloadIcon />}
    </Button>
  );
}
