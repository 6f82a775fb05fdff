import { Suspense, useState } from 'react';
import { Form, useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import { lazyView } from '../generic/lazyView';
import { EMPTY, type ContactValues } from './contactForm';
import { defaultCompanyOf } from './contactPageHelpers';
import { ContactFields } from './ContactFields';
import { useAddContact } from './useAddContact';
import { useContactReference } from './useContactReference';

/** The detail of a contact that already has the e-mail or phone, opened over the form; loaded when first opened. */
const ContactDetailDialog = lazyView(() => import('./ContactDetailDialog'), 'ContactDetailDialog');

/** The Contact page (spec section 2): a contact from a form or a business card. */
export function ContactPage() {
  const translate = useTranslate();
  // The form's lists, read once and cached between visits.
  const { reference, loadError, retry } = useContactReference();
  // The advanced options stay open (or closed) from one contact to the next.
  const [advanced, setAdvanced] = useState(false);
  const { added, add, warning } = useAddContact();
  const [openId, setOpenId] = useState<number | null>(null);

  if (loadError) {
    return (
      <Alert severity="error" sx={{ mt: 2 }} data-testid="contact-load-error" action={<Button color="inherit" size="small" onClick={retry}>{translate('app.list.retry')}</Button>}>
        {translate(loadError, { _: loadError })}
      </Alert>
    );
  }
  if (!reference) return <LinearProgress sx={{ mt: 2 }} aria-label={translate('app.contactForm.loading')} data-testid="contact-loading" />;
  if (!reference.employee) return <Alert severity="error" sx={{ mt: 2 }} data-testid="contact-employee-error">{translate('contact.contactPage.error')}</Alert>;

  const defaultValues: ContactValues = { ...EMPTY, companyId: added.companyId ?? defaultCompanyOf(reference.employee, reference.companies) };

  return (
    <>
      {/* The name's message is the form's own: no "the form is not valid" notice beside it. */}
      <Form key={added.count} defaultValues={defaultValues} onSubmit={(values: Record<string, unknown>) => add(values as unknown as ContactValues)} noValidate disableInvalidFormNotification>
        <ContactFields reference={reference} advanced={advanced} setAdvanced={setAdvanced} warning={warning} onOpen={setOpenId} />
      </Form>
      {openId !== null && (
        <Suspense fallback={null}>
          <ContactDetailDialog id={openId} onClose={() => setOpenId(null)} onOpen={setOpenId} />
        </Suspense>
      )}
    </>
  );
}
