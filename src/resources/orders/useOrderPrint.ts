import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { errorMessage } from '../../providers/http';
import type { Order } from './orderDetail';
import type { OrderMutations } from './useOrderMutations';

/** Printing: the order's PDF, in the user's language, in a new tab. */
export function useOrderPrint(order: Order | null, printUrl: OrderMutations['printUrl']) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();

  return async function print() {
    // The tab is opened now, while the click still counts as the user's gesture; its address follows.
    const tab = window.open('', '_blank');
    try {
      const json = await printUrl.mutateAsync({ id: order!.id, lang: locale === 'en' ? 'en' : 'es' });
      const url = new URL(json.url, window.location.origin).toString();
      if (tab) tab.location.href = url;
      else window.open(url, '_blank', 'noopener');
    } catch (error) {
      tab?.close();
      notify('app.orders.printError', { type: 'error', messageArgs: { error: errorMessage(error, translate) } });
    }
  };
}
