import { AutocompleteArrayInput, ReferenceArrayInput, ReferenceInput, SelectInput, required, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import { CATEGORIES_INPUT, investorLabel, wholeList } from './contactForm';
import type { CardField, Reference } from './contactPageHelpers';
import { ContactTextInput } from './ContactTextInput';
import type { CardInputProps } from './useContactCard';

/** The Contact form's advanced options (company, investor type, categories, position, website, notes, comment). */
export function ContactAdvancedFields({ reference, open, card }: { reference: Reference; open: boolean; card: (field: CardField) => CardInputProps }) {
  const translate = useTranslate();
  return (
    <Collapse in={open} unmountOnExit={false}>
      <Box sx={{ display: 'grid', gap: 1, pt: 1 }}>
        <ReferenceInput source="companyId" {...wholeList('odooCompanies')}>
          {/* Always one of the user's companies (no empty choice); the label as an element shows no required mark. */}
          <SelectInput
            label={<span>{translate('app.contactForm.fields.company')}</span>}
            validate={reference.companies.length ? required('app.contactForm.required') : undefined}
            fullWidth
            inputProps={{ 'data-testid': 'contact-company' }}
          />
        </ReferenceInput>
        {/* An ERP without investor types (or with none defined) has nothing to choose: the field is not shown. */}
        {reference.investorTypes.length > 0 && (
          <ReferenceInput source="investorId" {...wholeList('investorTypes')}>
            <SelectInput label="app.contactForm.fields.investorType" optionText={investorLabel} emptyText="—" fullWidth inputProps={{ 'data-testid': 'contact-investor' }} />
          </ReferenceInput>
        )}
        <ReferenceArrayInput source="categoryIds" {...wholeList('categories')}>
          <AutocompleteArrayInput
            label="app.contactForm.fields.categories"
            optionText="name"
            fullWidth
            TextFieldProps={CATEGORIES_INPUT}
            data-testid="contact-categories-field"
          />
        </ReferenceArrayInput>
        <ContactTextInput source="position" label="app.contactForm.fields.position" testId="contact-position" card={card('position')} field="function" />
        <ContactTextInput source="website" label="app.contactForm.fields.website" testId="contact-website" card={card('website')} type="url" />
        <ContactTextInput source="notes" label="app.contactForm.fields.notes" testId="contact-notes" rows />
        <ContactTextInput source="comment" label="app.contactForm.fields.comment" testId="contact-comment" rows />
      </Box>
    </Collapse>
  );
}
