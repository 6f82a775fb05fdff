import { ReferenceInput, SelectInput } from 'react-admin';
import type { Named } from './orderForm';
import { inList, referenceListProps } from './orderInputs';

interface OrderReferenceSelectProps {
  source: 'pricelistId' | 'termId' | 'modeId';
  /** The per-company reference list it offers (priceLists, paymentTerms, paymentModes). */
  resource: string;
  label: string;
  /** The list as loaded: a value that is not one of them shows blank. */
  items: Named[];
  companyId: number | '';
  testId: string;
}

/** One of the order's selects over a company's list (price list, payment term, payment mode). */
export function OrderReferenceSelect({ source, resource, label, items, companyId, testId }: OrderReferenceSelectProps) {
  return (
    <ReferenceInput source={source} {...referenceListProps(resource, companyId)}>
      <SelectInput label={label} optionText="name" format={inList(items)} helperText={false} disabled={!companyId} inputProps={{ 'data-testid': testId }} />
    </ReferenceInput>
  );
}
