import { useMemo, useState } from 'react';
import { Confirm, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ClearIcon from '@mui/icons-material/FilterAltOff';
import SendIcon from '@mui/icons-material/Send';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { errorMessage } from '../../providers/http';
import { useReferenceList } from '../../providers/useReferenceList';
import { LoadError } from '../../custom/LoadError';
import { LocaleDateField, dateProblem, type DateFieldValue } from '../../custom/inputs/LocaleDateInput';
import { isIsoDate, isoDay } from '../../../shared/domain/dates';
import { formatDay } from '../../../shared/domain/format';

interface Company { id: number; name: string }

/**
 * The period the report opens on: this year so far, 1 January to today (issue 51: it opened on last year while the
 * invoices being paid are this year's). Last year's figure for the annual accounts is a change of the first date away.
 */
function thisYearSoFar(today: Date = new Date()): { from: string; to: string } {
  return { from: `${today.getFullYear()}-01-01`, to: isoDay(today) };
}

/** The payment report (spec section 2): dates and companies; generate asks first, then the mail brings the result. */
export function PaymentReportPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  // The user's companies, from the cached reference list.
  const companiesQuery = useReferenceList<Company>('companies');
  const companies = useMemo(() => companiesQuery.data ?? [], [companiesQuery.data]);
  const [dateFrom, setDateFrom] = useState<DateFieldValue>(() => thisYearSoFar().from);
  const [dateTo, setDateTo] = useState<DateFieldValue>(() => thisYearSoFar().to);
  const [picked, setChosen] = useState<number[] | null>(null);
  // Until the user picks: the only company when there is just one.
  const chosen = picked ?? (companies.length === 1 ? [companies[0].id] : []);
  const [asking, setAsking] = useState(false);
  const [sending, setSending] = useState(false);
  // POST /odoo/reports/payment (the paymentReport 'generate' action).
  const generation = useMutation({
    mutationFn: (body: { dateFrom: string; dateTo: string; companies: Company[] }) =>
      dataProvider.action<{ message?: string; unreadable?: Array<{ id: number; name: string }> }>('paymentReport', 'generate', { body }),
  });

  const bothDays = isIsoDate(dateFrom) && isIsoDate(dateTo);
  const rangeOk = bothDays && dateFrom <= dateTo;
  /** What is wrong with a typed date, said under it. */
  const dateSaid = (value: DateFieldValue) => {
    const wrong = dateProblem(value);
    return typeof wrong === 'string' ? translate(wrong) : undefined;
  };
  const ready = rangeOk && chosen.length > 0 && !sending;

  async function generate() {
    setAsking(false);
    setSending(true);
    try {
      if (!isIsoDate(dateFrom) || !isIsoDate(dateTo)) return;
      const answer = await generation.mutateAsync({ dateFrom, dateTo, companies: companies.filter((company) => chosen.includes(company.id)).map(({ id, name }) => ({ id, name })) });
      // Companies the ERP does not give the server are left out of the report: said here as in the mail.
      const unreadable = answer?.unreadable ?? [];
      if (unreadable.length) notify('app.report.startedWithout', { type: 'warning', messageArgs: { companies: unreadable.map((company) => company.name).join(', ') } });
      else notify('app.report.started', { type: 'success' });
    } catch (error) {
      // Why, in the user's language (the ERP down, a refusal): the server's words after the console's.
      notify('app.report.failed', { type: 'error', messageArgs: { error: errorMessage(error, translate) } });
    } finally {
      setSending(false);
    }
  }

  const names = companies.filter((company) => chosen.includes(company.id)).map((company) => company.name).join(', ');
  return (
    <Paper sx={{ mt: 2, p: { xs: 2, sm: 3 }, maxWidth: 760, display: 'grid', gap: 2 }} data-testid="payment-report">
      <Typography color="text.secondary">{translate('app.report.intro')}</Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
        <LocaleDateField label={translate('app.report.dateFrom')} value={dateFrom} onChange={setDateFrom} error={Boolean(dateSaid(dateFrom))} helperText={dateSaid(dateFrom) ?? ' '} inputProps={{ 'data-testid': 'report-from' }} />
        <LocaleDateField
          label={translate('app.report.dateTo')}
          value={dateTo}
          onChange={setDateTo}
          error={Boolean(dateSaid(dateTo)) || (bothDays && !rangeOk)}
          helperText={dateSaid(dateTo) ?? (bothDays && !rangeOk ? translate('app.report.badRange') : ' ')}
          inputProps={{ 'data-testid': 'report-to' }}
        />
      </Box>
      {companiesQuery.error ? (
        <LoadError message="app.report.companiesError" error={companiesQuery.error} onRetry={() => void companiesQuery.refetch()} testId="companies-error" />
      ) : null}
      <TextField
        select
        disabled={!companies.length}
        label={translate('app.report.companies')}
        value={chosen}
        onChange={(event) => setChosen((event.target.value as unknown as number[]).map(Number))}
        slotProps={{ select: { multiple: true, renderValue: () => names } }}
        inputProps={{ 'data-testid': 'report-companies' }}
      >
        {companies.map((company) => (
          <MenuItem key={company.id} value={company.id}>{company.name}</MenuItem>
        ))}
      </TextField>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1 }}>
        <Button startIcon={<ClearIcon />} onClick={() => { setDateFrom(null); setDateTo(null); setChosen([]); }} data-testid="report-clear">{translate('app.report.clear')}</Button>
        <Button variant="contained" startIcon={<SendIcon />} disabled={!ready} onClick={() => setAsking(true)} data-testid="report-generate">{translate('app.report.generate')}</Button>
      </Box>
      <Confirm
        isOpen={asking}
        title="app.report.confirmTitle"
        content="app.report.confirm"
        // The days as the console writes them (25/11/2026), not as the API takes them.
        translateOptions={{ from: formatDay(dateFrom), to: formatDay(dateTo), companies: names }}
        onConfirm={generate}
        onClose={() => setAsking(false)}
      />
    </Paper>
  );
}
