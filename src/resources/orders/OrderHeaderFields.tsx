import { AutocompleteInput, TextInput, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import { isFutureDay } from '../../../shared/domain/dates';
import { LocaleDateInput } from '../../custom/inputs/LocaleDateInput';
import { FieldHelp } from './FieldHelp';
import { OrderReferenceSelect } from './OrderReferenceSelect';
import type { Named, OrderCompany, Reference } from './orderForm';
import { COMPANY_INPUT, PARTNER_INPUT, asTyped, budgetDate, mandatory } from './orderInputs';

interface OrderHeaderFieldsProps {
  companies: OrderCompany[] | null;
  companyId: number | '';
  partners: Named[];
  reference: Reference;
  orderDate: string;
}

/** The order's own fields, each with its help: company (when there is a choice), customer, date, reference, lists, note. */
export function OrderHeaderFields({ companies, companyId, partners, reference, orderDate }: OrderHeaderFieldsProps) {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 3, rowGap: 1 }}>
      {companies && companies.length > 1 && (
        <FieldHelp text={translate('app.order.help.company')}>
          <AutocompleteInput source="companyId" choices={companies} translateChoice={false} filterSelectedOptions={false} label="app.order.fields.company" validate={mandatory} TextFieldProps={{ inputRef: COMPANY_INPUT }} />
        </FieldHelp>
      )}
      <FieldHelp text={translate('app.order.help.partner')}>
        <AutocompleteInput source="partnerId" choices={partners} translateChoice={false} filterSelectedOptions={false} label="app.order.fields.partner" validate={mandatory} disabled={!companyId} TextFieldProps={{ inputRef: PARTNER_INPUT }} />
      </FieldHelp>
      <FieldHelp text={translate('app.order.help.date')}>
        <LocaleDateInput
          source="date"
          label="app.order.fields.date"
          validate={budgetDate}
          // A budget dated ahead is allowed, but said (a slip of the year is seen before sending).
          helperText={isFutureDay(orderDate) ? translate('app.inputs.date.future') : undefined}
          color={isFutureDay(orderDate) ? 'warning' : undefined}
          focused={isFutureDay(orderDate) || undefined}
          inputProps={{ 'data-testid': 'order-date' }}
        />
      </FieldHelp>
      <FieldHelp text={translate('app.order.help.clientRef')}>
        <TextInput source="clientRef" label="app.order.fields.clientRef" parse={asTyped} inputProps={{ maxLength: 200, 'data-testid': 'order-client-ref' }} />
      </FieldHelp>
      <FieldHelp text={translate('app.order.help.pricelist')}>
        <OrderReferenceSelect source="pricelistId" resource="priceLists" label="app.order.fields.pricelist" items={reference.pricelists} companyId={companyId} testId="order-pricelist" />
      </FieldHelp>
      <FieldHelp text={translate('app.order.help.paymentTerm')}>
        <OrderReferenceSelect source="termId" resource="paymentTerms" label="app.order.fields.paymentTerm" items={reference.terms} companyId={companyId} testId="order-payment-term" />
      </FieldHelp>
      <FieldHelp text={translate('app.order.help.paymentMode')}>
        <OrderReferenceSelect source="modeId" resource="paymentModes" label="app.order.fields.paymentMode" items={reference.modes} companyId={companyId} testId="order-payment-mode" />
      </FieldHelp>
      <FieldHelp text={translate('app.order.help.note')}>
        <TextInput source="note" label="app.order.fields.note" multiline minRows={3} maxRows={4} parse={asTyped} helperText={false} inputProps={{ maxLength: 4000, 'data-testid': 'order-note' }} />
      </FieldHelp>
    </Box>
  );
}
