import { useImperativeHandle, type RefObject } from 'react';
import { useCreate, useNotify } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { errorMessage, fieldErrorsOf } from '../../providers/http';
import { ORDER_KEYS, orderPayload, orderSource, valuesAfterSend, type Named, type OrderValues, type Reference, type Send } from './orderForm';

interface Submission {
  /** Where the page's Form finds the send (it calls it once its validators pass). */
  ref: RefObject<Send | null>;
  /** The form can be sent: a company, a customer, a product and right numbers on every line, the lists in. */
  complete: boolean;
  companyId: number | '';
  partners: Named[];
  reference: Reference;
}

/**
 * Sends the order (POST /odoo/orders/create with the spec's payload as the record's data): on success it says so,
 * remembers the customer and their reference and starts the next order; a refusal that names a field marks it.
 */
export function useOrderSubmit({ ref, complete, companyId, partners, reference }: Submission) {
  const notify = useNotify();
  const { reset } = useFormContext<OrderValues>();
  const [create] = useCreate();

  // Called by the Form once the validators pass (company, customer, each line's product, the date).
  async function send(values: OrderValues): Promise<Record<string, string> | undefined> {
    const partner = partners.find((one) => one.id === values.partnerId);
    if (!complete || !partner) return undefined;
    const clientRef = (values.clientRef ?? '').trim();
    try {
      const json = await create('orders', { data: orderPayload(values, companyId, partner, clientRef, reference.products) }, { returnPromise: true });
      notify('app.order.created', { type: 'success', messageArgs: { reference: json?.name || clientRef } });
      localStorage.setItem(ORDER_KEYS.partner, JSON.stringify({ id: partner.id, name: partner.name }));
      localStorage.setItem(ORDER_KEYS.partnerReference, clientRef);
      reset(valuesAfterSend(values, companyId, reference));
      return undefined;
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
      // The field the server refused (a line's price, the customer...) is marked where it is.
      return fieldErrorsOf(error, orderSource);
    }
  }
  useImperativeHandle(ref, () => send);
}
