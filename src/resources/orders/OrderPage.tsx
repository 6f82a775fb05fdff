import { useMemo, useRef, type RefObject } from 'react';
import { Form, useLocaleState, useTranslate } from 'react-admin';
import { useFieldArray, useFormState, useWatch } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import { useReferenceList } from '../../providers/useReferenceList';
import { LoadError } from '../../custom/LoadError';
import { ReferenceLoadError } from '../../custom/ReferenceLoadError';
import { OrderTotals } from './OrderTotals';
import { OrderHeaderFields } from './OrderHeaderFields';
import { OrderLinesTable } from './OrderLinesTable';
import { initialValues, newLine, type OrderCompany, type OrderValues, type Send } from './orderForm';
import { useOrderReference } from './useOrderReference';
import { useIncorrectDateNotice } from './useIncorrectDateNotice';
import { useCompanyDefaults } from './useCompanyDefaults';
import { useOrderTotals } from './useOrderTotals';
import { useOrderSubmit } from './useOrderSubmit';
import { OrderSendBar } from './OrderSendBar';
import { sendNeeds } from './orderLineNotes';

export { ORDER_KEYS } from './orderForm';

/** The Order page (spec section 2): a budget (sale order in draft) with its lines, taxes and totals, on react-admin's Form. */
export function OrderPage() {
  const translate = useTranslate();
  // The user's companies, a reference list read once and shared with the other screens.
  const companiesQuery = useReferenceList<OrderCompany>('companies');
  const companies = companiesQuery.data ?? null;
  // What the form starts with: the remembered company, customer and customer reference, today, one empty line.
  const defaultValues = useMemo<OrderValues>(() => initialValues(), []);
  // The form's body sends (it has the company's lists); the Form calls it once its validators pass.
  const send = useRef<Send>(null);

  // A failed load says so, with its reason and a retry: never "no company" (issue 27).
  if (companiesQuery.isError) {
    return <LoadError message="app.order.companiesError" error={companiesQuery.error} onRetry={() => void companiesQuery.refetch()} testId="companies-error" sx={{ mt: 2 }} />;
  }
  if (companies && companies.length === 0) return <Alert severity="info" sx={{ mt: 2 }}>{translate('app.order.noCompanies')}</Alert>;
  return (
    <Paper sx={{ mt: 2, p: { xs: 2, sm: 3 }, maxWidth: 1200 }} data-testid="order-page">
      <Form<OrderValues> defaultValues={defaultValues} onSubmit={(values: Partial<OrderValues>) => send.current?.(values as OrderValues)} disableInvalidFormNotification>
        <OrderFormBody companies={companies} ref={send} />
      </Form>
    </Paper>
  );
}

/** The form inside the page: its fields, lines, totals and send, over the company's lists. */
function OrderFormBody({ companies, ref }: { companies: OrderCompany[] | null; ref: RefObject<Send | null> }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { fields, append, remove, replace } = useFieldArray<OrderValues, 'lines'>({ name: 'lines' });
  const { isSubmitting } = useFormState<OrderValues>();
  const [chosenCompany, partnerId, pricelistId, watchedLines, orderDate] = useWatch<OrderValues, ['companyId', 'partnerId', 'pricelistId', 'lines', 'date']>({ name: ['companyId', 'partnerId', 'pricelistId', 'lines', 'date'] });
  const lines = useMemo(() => watchedLines ?? [], [watchedLines]);
  const { companyId, reference, referenceError, referenceSettled, partners, referenceFailure } = useOrderReference(companies, chosenCompany);
  useIncorrectDateNotice();
  const loadingReference = useCompanyDefaults({ companyId, reference, referenceError, referenceSettled, replace });
  const { totals, currency, money, problems, invalid } = useOrderTotals({ lines, taxes: reference.taxes, pricelists: reference.pricelists, pricelistId, companies, companyId });
  // Spec section 2: sending needs a company, a customer and a product on every line (and the lists in); issue 51: and
  // every quantity and price right. Whatever is missing is said beside the button.
  const needs = sendNeeds({ loading: loadingReference || companies === null, companyId, partnerId, lines, products: reference.products, problems }, translate, locale);
  const complete = needs.length === 0;
  useOrderSubmit({ ref, complete, companyId, partners, reference });

  return (
    <>
      {(companies === null || loadingReference) && <LinearProgress sx={{ mb: 2 }} />}
      {referenceFailure ? <ReferenceLoadError {...referenceFailure} sx={{ mb: 2 }} /> : null}
      <OrderHeaderFields companies={companies} companyId={companyId} partners={partners} reference={reference} orderDate={orderDate} />
      <OrderLinesTable fields={fields} lines={lines} reference={reference} companyId={companyId} money={money} problems={problems} onRemove={remove} onAdd={() => append(newLine(null, reference.taxes), { shouldFocus: false })} />
      <OrderTotals untaxed={totals.untaxed} tax={totals.tax} total={totals.total} currency={currency} invalid={invalid} />
      <OrderSendBar needs={needs} busy={isSubmitting} />
    </>
  );
}
