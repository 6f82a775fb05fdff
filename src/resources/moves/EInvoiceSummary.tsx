import { useLocaleState, useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { billLinesOf, type EInvoiceChecks, type EInvoiceReading } from '../../../shared/domain/einvoice';
import { formatMoney } from '../../../shared/domain/money';
import { formatNumber } from '../../../shared/domain/numbers';

/** The lines shown; a longer invoice says how many more it has. */
const SHOWN_LINES = 8;

type Translate = ReturnType<typeof useTranslate>;

/** What the checks found that the user should look at (none blocks registering the bill). */
function warningsOf(reading: EInvoiceReading, translate: Translate, money: (amount: number) => string, tab: 'expense' | 'invoice'): string[] {
  const { checks } = reading;
  const warnings: string[] = [];
  // Lines and refunds are invoices' (the server refuses them on an expense): a credit note as an expense would be positive.
  if (reading.kind === 'creditNote') warnings.push(translate(tab === 'invoice' ? 'app.einvoice.creditNote' : 'app.einvoice.creditNoteAsExpense'));
  for (const { key, params } of checks.totals) warnings.push(translate(`app.${key}`, { computed: money(params.computed), stated: money(params.stated) }));
  if (checks.schema && !checks.schema.valid) warnings.push(translate('app.einvoice.schemaInvalid', { error: checks.schema.errors[0] ?? '' }));
  if (checks.signature?.status === 'invalid') warnings.push(translate(checks.signature.reason === 'altered' ? 'app.einvoice.signatureAltered' : 'app.einvoice.signatureInvalid'));
  if (checks.buyer === 'other') warnings.push(translate('app.einvoice.buyerOther', { vat: reading.buyer.vat ?? '', name: reading.buyer.name ?? '' }));
  return warnings;
}

/** What was checked and found right, said in one line each. */
function confirmationsOf(checks: EInvoiceChecks, translate: Translate): string[] {
  return [
    ...(checks.schema?.valid ? [translate('app.einvoice.schemaValid')] : checks.schema ? [] : [translate('app.einvoice.schemaUnchecked')]),
    ...(checks.signature?.status === 'valid' ? [translate('app.einvoice.signedBy', { signer: checks.signature.signer })] : checks.signature?.status === 'unsigned' ? [translate('app.einvoice.unsigned')] : []),
    ...(checks.totals.length ? [] : [translate('app.einvoice.totalsAddUp')]),
    ...(checks.buyer === 'ours' ? [translate('app.einvoice.buyerOurs')] : []),
  ];
}

/**
 * Issue 55: the document is an e-invoice, read exactly from its XML. Says so ("Leído de la factura electrónica
 * (FacturaE 3.2.2)") instead of an OCR reading's "check it", what could be checked (schema, signature, sums, buyer),
 * and the invoice as it reads (a bare XML has no page to look at): its number, issuer, lines and total.
 */
export function EInvoiceSummary({ reading, withLines, onWithLines, tab }: { reading: EInvoiceReading; withLines: boolean; onWithLines: (chosen: boolean) => void; tab: 'expense' | 'invoice' }) {
  const translate = useTranslate();
  const [locale = 'es'] = useLocaleState();
  const money = (amount: number) => formatMoney(amount, reading.currency, locale);
  const warnings = warningsOf(reading, translate, money, tab);
  const confirmations = confirmationsOf(reading.checks, translate);
  const more = reading.lines.length - SHOWN_LINES;
  return (
    <Alert severity={warnings.length ? 'warning' : 'success'} sx={{ mt: 1, '& .MuiAlert-message': { width: '100%' } }} data-testid="einvoice-summary">
      <AlertTitle>{translate('app.einvoice.readFrom', { label: reading.label })}</AlertTitle>
      <Typography variant="body2" data-testid="einvoice-identity">
        {translate('app.einvoice.identity', { number: reading.number, seller: reading.seller.name, vat: reading.seller.vat ?? '—', total: money(reading.totals.total) })}
      </Typography>
      {warnings.length ? (
        <Box component="ul" sx={{ my: 0.5, pl: 2.5 }} data-testid="einvoice-warnings">
          {warnings.map((text) => <li key={text}><Typography variant="body2">{text}</Typography></li>)}
        </Box>
      ) : null}
      <Typography variant="body2" color="text.secondary" data-testid="einvoice-checks">{confirmations.join(' · ')}</Typography>
      {reading.lines.length ? (
        <Table size="small" aria-label={translate('app.einvoice.lines')} sx={{ mt: 1, '& td, & th': { px: 0.5 }, '& td[class*=alignRight]': { whiteSpace: 'nowrap' } }}>
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.einvoice.description')}</TableCell>
              <TableCell align="right">{translate('app.einvoice.quantity')}</TableCell>
              <TableCell align="right">{translate('app.einvoice.net')}</TableCell>
              <TableCell align="right">{translate('app.einvoice.taxRate')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {reading.lines.slice(0, SHOWN_LINES).map((line, index) => (
              <TableRow key={index} data-testid="einvoice-line">
                <TableCell>{line.description}</TableCell>
                <TableCell align="right">{formatNumber(line.quantity, locale, { maxDecimals: 4 })}</TableCell>
                <TableCell align="right">{money(line.net)}</TableCell>
                <TableCell align="right">{line.taxRate === undefined ? '' : `${formatNumber(line.taxRate, locale, { maxDecimals: 2 })} %`}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
      {more > 0 ? <Typography variant="body2" color="text.secondary">{translate('app.einvoice.moreLines', { count: formatNumber(more, locale, { maxDecimals: 0 }) })}</Typography> : null}
      {/* An invoice's lines booked each with its VAT, or the bill by its total (the console's one line). */}
      {tab !== 'invoice' ? null : billLinesOf(reading) ? (
        <FormControlLabel
          sx={{ mt: 0.5 }}
          control={<Checkbox size="small" checked={withLines} onChange={(event) => onWithLines(event.target.checked)} inputProps={{ 'data-testid': 'einvoice-with-lines' } as object} />}
          label={<Typography variant="body2">{translate('app.einvoice.withLines', { smart_count: reading.lines.length, count: formatNumber(reading.lines.length, locale, { maxDecimals: 0 }) })}</Typography>}
        />
      ) : (
        <Typography variant="body2" color="text.secondary" data-testid="einvoice-by-total">{translate('app.einvoice.byTotal')}</Typography>
      )}
    </Alert>
  );
}
