import { useState } from 'react';
import { Form, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useReferenceList } from '../../providers/useReferenceList';
import { LAST_COMPANY_KEY, LAST_TAB_KEY, emptyMove, startingCompany } from './moveFormRules';
import type { Company, MoveType, MoveValues } from './moveTypes';
import { MoveFields } from './MoveFields';

export { LAST_TAB_KEY, PROVIDER_LIST_LIMIT } from './moveFormRules';

/** The Move page (spec section 2): register an expense or a supplier invoice with its file. */
export function MovePage() {
  const translate = useTranslate();
  const [tab, setTab] = useState<MoveType>(() => (localStorage.getItem(LAST_TAB_KEY) === 'invoice' ? 'invoice' : 'expense'));
  // The form starts once the user's companies are known (cached when coming from another screen), with the company
  // it works in: the remembered one if it is still the user's, else the only one. Set after the form started, the
  // company was undone by the form's own first reset (an empty Empresa, its project and supplier boxes enabled).
  const companiesQuery = useReferenceList<Company>('companies');
  const [defaultValues, setDefaultValues] = useState<MoveValues | null>(null);
  // Once: a later refetch of the companies does not start the form again. (Kept, not derived: a refetch of a list
  // that failed is pending again, which would unmount the form, whose own reading of the list fetches again: a loop.)
  if (defaultValues === null && !companiesQuery.isPending) {
    const remembered = Number(localStorage.getItem(LAST_COMPANY_KEY)) || '';
    setDefaultValues(emptyMove(startingCompany(companiesQuery.data ?? [], remembered, companiesQuery.isError), ''));
  }

  function changeTab(next: MoveType) {
    setTab(next);
    localStorage.setItem(LAST_TAB_KEY, next);
  }

  return (
    // Wider while a document is shown beside the form.
    <Paper sx={{ mt: 2, p: { xs: 2, sm: 3 }, maxWidth: 760, '&:has([data-testid="document-preview"])': { maxWidth: { md: 1400 } } }} data-testid="move-page">
      <Tabs value={tab} onChange={(_, value) => changeTab(value)} sx={{ mb: 2 }}>
        <Tab value="expense" label={translate('app.move.tabs.expense')} data-testid="tab-expense" />
        <Tab value="invoice" label={translate('app.move.tabs.invoice')} data-testid="tab-invoice" />
      </Tabs>
      {defaultValues ? (
        // The page's own messages stand for react-admin's 'The form is not valid' (spec section 8).
        <Form defaultValues={defaultValues} disableInvalidFormNotification noValidate>
          <MoveFields tab={tab} onTab={changeTab} />
        </Form>
      ) : (
        // A named progress bar: a name on a plain box is one axe refuses (aria-prohibited-attr, seen on a slow load).
        <Box sx={{ display: 'grid', gap: 2 }} role="progressbar" aria-busy="true" aria-label={translate('ra.page.loading')} data-testid="move-loading">
          {[0, 1, 2, 3, 4].map((row) => <Skeleton key={row} variant="rounded" height={48} />)}
        </Box>
      )}
    </Paper>
  );
}
