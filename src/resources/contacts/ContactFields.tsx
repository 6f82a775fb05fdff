import { TextInput, useTranslate } from 'react-admin';
import { useFormState } from 'react-hook-form';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { DuplicateWarning, NAME_VALIDATORS, declaredMax, useWarningHolds, type Duplicate } from './contactForm';
import type { Reference } from './contactPageHelpers';
import { ContactAdvancedFields } from './ContactAdvancedFields';
import { ContactCardScan } from './ContactCardScan';
import { ContactEventInput } from './ContactEventInput';
import { ContactTextInput } from './ContactTextInput';
import { useContactCard } from './useContactCard';

export interface ContactFieldsProps {
  reference: Reference;
  advanced: boolean;
  setAdvanced: (open: boolean) => void;
  warning: { key: string; duplicates: Duplicate[] } | null;
  onOpen: (id: number) => void;
}

/** The Contact form's inputs, in the spec's order; the card reading fills them through the form's own API. */
export function ContactFields({ reference, advanced, setAdvanced, warning, onOpen }: ContactFieldsProps) {
  const translate = useTranslate();
  const { isSubmitting } = useFormState();
  // The warning stands while the form has the e-mail and phone it was given for: the next save adds the contact anyway.
  const warned = useWarningHolds(warning);
  const card = useContactCard(setAdvanced);

  return (
    <Paper sx={{ mt: 2, p: { xs: 2, sm: 3 }, maxWidth: 760, display: 'grid', gap: 1 }} data-testid="contact-page">
      <ContactCardScan pending={card.pending} queued={card.queued} inputRef={card.cardInput} onFile={card.readCard} />
      <Box sx={{ display: 'flex', alignItems: 'flex-start' }}>
        <TextInput
          source="name"
          label="app.contactForm.fields.name"
          fullWidth
          validate={NAME_VALIDATORS}
          {...card.inputProps('name')}
          inputProps={{ maxLength: declaredMax('name'), 'data-testid': 'contact-name' }}
        />
      </Box>
      <ContactTextInput source="email" label="app.contactForm.fields.email" testId="contact-email" card={card.inputProps('email')} type="email" />
      <ContactTextInput source="phone" label="app.contactForm.fields.phone" testId="contact-phone" card={card.inputProps('phone')} type="tel" />
      <ContactTextInput source="companyName" label="app.contactForm.fields.companyName" testId="contact-company-name" help="app.contactForm.help.companyName" field="company_name" />
      {reference.events.length > 0 && <ContactEventInput reference={reference} />}
      <FormControlLabel control={<Switch checked={advanced} onChange={(event) => setAdvanced(event.target.checked)} inputProps={{ 'aria-label': translate('app.contactForm.advanced') }} data-testid="advanced-toggle" />} label={translate('app.contactForm.advanced')} />
      <ContactAdvancedFields reference={reference} open={advanced} card={card.inputProps} />
      {warned && <DuplicateWarning duplicates={warning!.duplicates} onOpen={onOpen} />}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" startIcon={<PersonAddIcon />} disabled={isSubmitting} data-testid="contact-add">
          {translate(warned ? 'app.contactForm.duplicates.saveAnyway' : 'app.contactForm.add')}
        </Button>
      </Box>
    </Paper>
  );
}
