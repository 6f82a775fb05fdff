import { useLocaleState, useTranslate } from 'react-admin';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { countFormat, waiting } from './validationHelpers';
import type { Tab as TabName } from './validationQueue';
import type { ValidationPaging } from './useValidationPaging';

/** The queue's tabs (expenses, invoices), each with how many of its moves wait. */
export function ValidationTabs({ paging, hidden }: { paging: ValidationPaging; hidden: ReadonlySet<number> }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { queues } = paging;

  const label = (which: TabName) => {
    const name = translate(`app.validation.tabs.${which}`);
    const many = waiting(queues[which].data, hidden);
    if (many === undefined || queues[which].isError) return name;
    const number = countFormat(locale).format(many);
    return translate('app.validation.tabCount', { name, count: queues[which].data?.totalIsLowerBound ? `${number}+` : number });
  };

  return (
    <Tabs value={paging.tab} onChange={(_, value: TabName) => paging.chooseTab(value)}>
      <Tab value="expenses" label={label('expenses')} data-testid="validation-tab-expenses" />
      <Tab value="invoices" label={label('invoices')} data-testid="validation-tab-invoices" />
    </Tabs>
  );
}
