import { useEffect, useRef } from 'react';
import { useNotify } from 'react-admin';
import { useFormState } from 'react-hook-form';
import type { OrderValues } from './orderForm';

/** The two-year rule also says so in a notification when a send is refused for it. */
export function useIncorrectDateNotice() {
  const notify = useNotify();
  const { submitCount, errors } = useFormState<OrderValues>();
  const notifiedSubmit = useRef(submitCount);
  useEffect(() => {
    if (submitCount === notifiedSubmit.current) return;
    notifiedSubmit.current = submitCount;
    if (errors.date) notify('app.order.incorrectDate', { type: 'warning' });
  }, [submitCount, errors, notify]);
}
