import { useState } from 'react';
import { regex, required, useDataProvider, useTranslate, type Validator } from 'react-admin';
import { useWatch } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { TextFieldProps } from '@mui/material/TextField';
import { emailKey, phoneKey, type DuplicateMatch } from '../../../shared/domain/contacts';
import { resourceNamed } from '../../../shared/resources/registry';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { REFERENCE_STALE_TIME } from '../../providers/useReferenceList';
import { singleLineText } from '../../custom/inputs/textRules';

/** What the contact page and the contact detail share: the form's values, how they are sent, the duplicate check. */

export interface Named { id: number; name: string }
export interface InvestorType { id: number; x_name: string; x_studio_tipo_inversor_descripcion: string | false }

/** The form's values; react-admin's inputs hold null for an emptied box or select. */
export interface ContactValues {
  name: string | null;
  email: string | null;
  phone: string | null;
  companyName: string | null;
  eventId: number | '' | null;
  companyId: number | '' | null;
  investorId: number | '' | null;
  categoryIds: number[];
  position: string | null;
  website: string | null;
  notes: string | null;
  comment: string | null;
}

export const EMPTY: ContactValues = {
  name: '',
  email: '',
  phone: '',
  companyName: '',
  eventId: '',
  companyId: '',
  investorId: '',
  categoryIds: [],
  position: '',
  website: '',
  notes: '',
  comment: '',
};

/** A contact as GET /odoo/contacts/:id answers it (the creation payload's names). */
export interface ContactDetail {
  id: number;
  name: string;
  email: string;
  phone: string;
  company_name: string;
  company_id: [number, string] | false;
  x_studio_owner_employee: [number, string] | false;
  x_studio_tipo_inversor: number[];
  category_id: number[];
  function: string;
  website: string;
  comment: string;
  notes: string;
}

/** The name is required, and blanks alone are no name (the same message either way). */
export const NAME_VALIDATORS: Validator[] = [required('app.contactForm.required'), regex(/\S/, 'app.contactForm.required'), singleLineText];

export const investorLabel = (type: InvestorType) => (type.x_studio_tipo_inversor_descripcion ? `${type.x_name} — ${type.x_studio_tipo_inversor_descripcion}` : type.x_name);
const text = (value: string | null | undefined) => (value ?? '').trim();
/** The longest text the server takes for a contact field (its declaration); notes and comments take 10000. */
export const declaredMax = (field: string) => resourceNamed('contacts')?.fields[field]?.maxLength ?? 10_000;

/** A reference input reads the whole list in its declared order, kept fresh as long, as useReferenceList does (one cache entry). */
export function wholeList(resource: string) {
  return { reference: resource, perPage: 1000, sort: resourceNamed(resource)?.defaultSort, queryOptions: { staleTime: REFERENCE_STALE_TIME } };
}

/** The autocomplete's own input props come from MUI: the test id goes on its text field (a click there opens it). */
export const CATEGORIES_INPUT = { 'data-testid': 'contact-categories' } as TextFieldProps;

/** The contact's fields as the API takes them (spec section 3, Contact creation payload), without the event. */
export function contactPayload(values: ContactValues) {
  return {
    name: text(values.name),
    email: text(values.email),
    phone: text(values.phone),
    company_name: text(values.companyName),
    company_id: values.companyId || false,
    x_studio_tipo_inversor: values.investorId ? [values.investorId] : [],
    category_id: values.categoryIds ?? [],
    function: text(values.position),
    website: text(values.website),
    // Spec section 3: swapped relative to their labels.
    comment: values.notes ?? '',
    notes: values.comment ?? '',
  };
}

/** The form's values of a stored contact (the notes input shows the payload's comment, and the other way round). */
export function valuesOfContact(contact: ContactDetail): ContactValues {
  return {
    ...EMPTY,
    name: contact.name,
    email: contact.email,
    phone: contact.phone,
    companyName: contact.company_name,
    companyId: contact.company_id ? contact.company_id[0] : '',
    investorId: contact.x_studio_tipo_inversor[0] ?? '',
    categoryIds: contact.category_id,
    position: contact.function,
    website: contact.website,
    notes: contact.comment,
    comment: contact.notes,
  };
}

/** What a correction sends: the payload's fields that differ from the stored contact's. */
export function changedFields(values: ContactValues, stored: ContactDetail): Partial<ReturnType<typeof contactPayload>> {
  const now = contactPayload(values);
  const before = contactPayload(valuesOfContact(stored));
  return Object.fromEntries(Object.entries(now).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key as keyof typeof before])));
}

export interface Duplicate {
  id: number;
  name: string;
  email: string;
  phone: string;
  company_id: [number, string] | false;
  matches: DuplicateMatch[];
}

/** The e-mail and phone a warning was given for: it holds while they are what the form has. */
const keyOf = (email: unknown, phone: unknown) => `${emailKey(email)}\n${phoneKey(phone)}`;

/**
 * The duplicate check before saving (POST /odoo/contacts/duplicates): the first save with an e-mail or phone that
 * another contact of the user's companies has is held back with a warning; saving again with the same e-mail and
 * phone goes ahead. `check` answers whether to save now.
 */
export function useDuplicateCheck(exceptId?: number) {
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const [warning, setWarning] = useState<{ key: string; duplicates: Duplicate[] } | null>(null);
  async function check(values: Pick<ContactValues, 'email' | 'phone'>): Promise<boolean> {
    const key = keyOf(values.email, values.phone);
    if (key === '\n' || warning?.key === key) return true;
    const { duplicates } = await dataProvider.action<{ duplicates: Duplicate[] }>('contacts', 'duplicates', {
      body: { email: text(values.email), phone: text(values.phone), ...(exceptId ? { exceptId } : {}) },
    });
    setWarning(duplicates.length ? { key, duplicates } : null);
    return !duplicates.length;
  }
  return { warning, check, clear: () => setWarning(null) };
}

/** Whether the form still has the e-mail and phone the warning was given for. */
export function useWarningHolds(warning: { key: string } | null): boolean {
  const [email, phone] = useWatch<ContactValues, ['email', 'phone']>({ name: ['email', 'phone'] });
  return Boolean(warning) && warning!.key === keyOf(email, phone);
}

/** The warning: who already has this e-mail or phone, each with a button that opens them. */
export function DuplicateWarning({ duplicates, onOpen }: { duplicates: Duplicate[]; onOpen: (id: number) => void }) {
  const translate = useTranslate();
  return (
    <Alert severity="warning" data-testid="contact-duplicates">
      <AlertTitle>{translate('app.contactForm.duplicates.title', { smart_count: duplicates.length })}</AlertTitle>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {duplicates.map((duplicate) => (
          <li key={duplicate.id} data-testid="contact-duplicate">
            <strong>{duplicate.name}</strong>
            {` (${duplicate.matches.map((match) => translate(`app.contactForm.duplicates.${match}`, { email: duplicate.email, phone: duplicate.phone })).join(', ')}) `}
            <Button size="small" onClick={() => onOpen(duplicate.id)} data-testid="contact-duplicate-open" aria-label={translate('app.contactForm.duplicates.openNamed', { name: duplicate.name })}>
              {translate('app.contactForm.duplicates.open')}
            </Button>
          </li>
        ))}
      </Box>
      {translate('app.contactForm.duplicates.hint')}
    </Alert>
  );
}

/** The server's paths of a contact's values (POST /odoo/contacts/create: { fields }) as the form's sources. */
export const CONTACT_SOURCES: Readonly<Record<string, string>> = {
  'fields.name': 'name',
  'fields.email': 'email',
  'fields.phone': 'phone',
  'fields.company_name': 'companyName',
  'fields.from_event_assistant': 'eventId',
  'fields.company_id': 'companyId',
  'fields.x_studio_tipo_inversor': 'investorId',
  'fields.category_id': 'categoryIds',
  'fields.function': 'position',
  'fields.website': 'website',
  // Spec section 3: sent swapped relative to their labels.
  'fields.comment': 'notes',
  'fields.notes': 'comment',
};
