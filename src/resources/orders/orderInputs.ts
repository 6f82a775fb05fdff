import { required, type Validator } from 'react-admin';
import { isWithinDateWindow } from '../../../shared/domain/dates';
import { resourceNamed } from '../../../shared/resources/registry';
import { REFERENCE_STALE_TIME } from '../../providers/useReferenceList';
import type { Named, Product } from './orderForm';

/** How the Order page's inputs are set up: validators, formats, reference queries, test ids. No React. */

/** Read by screen readers, not shown (a column header whose cells are icon buttons). */
// (In sx, a width of 1 would mean 100%: pixels are written out.)
export const visuallyHidden = { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

/** Inputs keep the text as typed (react-admin's inputs would turn an emptied field into null). */
export const asTyped = (value: string) => value;
/**
 * The price lists, terms, modes and taxes come through ReferenceInput with the query useReferenceList makes (the whole
 * list, in its declared order, for the company), so both read one cached list and nothing is asked twice.
 */
const WHOLE_LIST = 1000;
const sortOf = (resource: string) => resourceNamed(resource)?.defaultSort;
export const referenceListProps = (resource: string, companyId: number | '') => ({ reference: resource, filter: { companyId }, perPage: WHOLE_LIST, sort: sortOf(resource), queryOptions: { staleTime: REFERENCE_STALE_TIME } });
/** A select shows its value only while it is one of the choices (a tax kept from another company shows blank). */
export const inList = (items: Named[]) => (value: unknown) => (items.some((one) => one.id === value) ? value : '');
export const productLabel = (product: Product) => (product.default_code ? `[${product.default_code}] ${product.name}` : product.name);

export const mandatory = required('app.order.required');
/** Spec section 5: the budget date must be within two years back (an empty date is not). */
export const budgetDate: Validator = Object.assign((value: unknown) => (isWithinDateWindow(value) ? undefined : 'app.order.incorrectDate'), { isRequired: true });

/**
 * AutocompleteInput's TextFieldProps replace MUI's own input props instead of adding to them, so the input takes its
 * test id (and, on a line, where there is no label, its accessible name) from its ref.
 */
export function tagInput(testId: string, ariaLabel?: string) {
  return (element: HTMLInputElement | null) => {
    element?.setAttribute('data-testid', testId);
    if (ariaLabel) element?.setAttribute('aria-label', ariaLabel);
  };
}
export const COMPANY_INPUT = tagInput('order-company');
export const PARTNER_INPUT = tagInput('order-partner');
