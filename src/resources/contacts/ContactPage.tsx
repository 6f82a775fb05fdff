import { Suspense, useMemo, useRef, useState } from 'react';
import {
  AutocompleteArrayInput,
  Form,
  ReferenceArrayInput,
  ReferenceInput,
  SelectInput,
  TextInput,
  required,
  useCreate,
  useDataProvider,
  useNotify,
  useTranslate,
} from 'react-admin';
import { useFormContext, useFormState } from 'react-hook-form';
import { useMutation } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Collapse from '@mui/material/Collapse';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import { withBusyRetry } from '../../providers/busyRetry';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { fieldErrorsOf, serverMessageOr } from '../../providers/http';
import { readAsDataUrl } from '../moves/upload';
import { useReferenceList } from '../../providers/useReferenceList';
import { lazyView } from '../generic/lazyView';
import {
  CATEGORIES_INPUT,
  DuplicateWarning,
  EMPTY,
  NAME_VALIDATORS,
  contactPayload,
  declaredMax,
  investorLabel,
  useDuplicateCheck,
  useWarningHolds,
  wholeList,
  CONTACT_SOURCES,
  type ContactValues,
  type Duplicate,
  type InvestorType,
  type Named,
} from './contactForm';
import { MESSAGE_DURATION_MS, SHORT_MESSAGE_DURATION_MS } from '../../../shared/domain/constants';

interface ContactEvent { id: number; event_id: [number, string] | false; tags: number[] }
interface Employee { id: number; name: string; company_id: [number, string] | false }
interface Reference { categories: Named[]; companies: Named[]; employee: Employee | null; investorTypes: InvestorType[]; events: ContactEvent[] }

/** Spec section 4: info messages are short; success and errors stay a little longer. */
// Spec section 9: 5000 ms by default, 1000 ms for the short (loading) message.
const DURATIONS = { info: SHORT_MESSAGE_DURATION_MS, success: MESSAGE_DURATION_MS, error: MESSAGE_DURATION_MS } as const;
/** What a card reading gives (spec section 7, POST /ocr/contact/), by the form field it fills. */
const CARD_FIELDS = { name: 'name', email: 'email', website: 'website', phone: 'phone', position: 'position' } as const;
type CardField = keyof typeof CARD_FIELDS;

const eventLabel = (event: ContactEvent) => (Array.isArray(event.event_id) ? event.event_id[1] : `#${event.id}`);
const text = (value: string | null | undefined) => (value ?? '').trim();

/** The detail of a contact that already has the e-mail or phone, opened over the form; loaded when first opened. */
const ContactDetailDialog = lazyView(() => import('./ContactDetailDialog'), 'ContactDetailDialog');

/** The Contact page (spec section 2): a contact from a form or a business card. */
export function ContactPage() {
  const translate = useTranslate();
  const notify = useNotify();
  // The form's lists, read once and cached between visits.
  const categoriesQuery = useReferenceList<Named>('categories');
  // The user's companies, and their own employee record (the owner of what they capture) in the answer's meta.
  const companiesQuery = useReferenceList<Named>('odooCompanies');
  const investorTypesQuery = useReferenceList<InvestorType>('investorTypes');
  const eventsQuery = useReferenceList<ContactEvent>('events');
  // Each list says which one failed (spec section 8), unless the server said why.
  const failed = (
    [
      [categoriesQuery.error, 'app.contactForm.errors.categories'],
      [companiesQuery.error, 'app.contactForm.errors.companies'],
      [investorTypesQuery.error, 'app.contactForm.errors.investorTypes'],
      [eventsQuery.error, 'app.contactForm.errors.events'],
    ] as const
  ).find(([error]) => error);
  const loadError = failed ? serverMessageOr(failed[0], failed[1]) : null;
  const reference: Reference | null = useMemo(
    () =>
      categoriesQuery.data && companiesQuery.data && investorTypesQuery.data && eventsQuery.data
        ? { categories: categoriesQuery.data, companies: companiesQuery.data, employee: (companiesQuery.meta?.employee as Employee | null) ?? null, investorTypes: investorTypesQuery.data, events: eventsQuery.data }
        : null,
    [categoriesQuery.data, companiesQuery.data, companiesQuery.meta, investorTypesQuery.data, eventsQuery.data],
  );
  // The advanced options stay open (or closed) from one contact to the next.
  const [advanced, setAdvanced] = useState(false);
  // Each added contact starts a new form (a new key: its values, the card marks), keeping the company chosen.
  const [added, setAdded] = useState<{ count: number; companyId?: number | '' }>({ count: 0 });
  // The creation (POST /odoo/contacts/create, the spec's { fields: {...} } as the record's data).
  const [create] = useCreate();
  // Another contact with this e-mail or phone holds the first save back; the existing one opens over the form.
  const duplicates = useDuplicateCheck();
  const [openId, setOpenId] = useState<number | null>(null);

  if (loadError) {
    const retry = () => [categoriesQuery, companiesQuery, investorTypesQuery, eventsQuery].forEach((query) => query.error && void query.refetch());
    return (
      <Alert severity="error" sx={{ mt: 2 }} data-testid="contact-load-error" action={<Button color="inherit" size="small" onClick={retry}>{translate('app.list.retry')}</Button>}>
        {translate(loadError, { _: loadError })}
      </Alert>
    );
  }
  if (!reference) return <LinearProgress sx={{ mt: 2 }} aria-label={translate('app.contactForm.loading')} data-testid="contact-loading" />;
  if (!reference.employee) return <Alert severity="error" sx={{ mt: 2 }} data-testid="contact-employee-error">{translate('contact.contactPage.error')}</Alert>;

  // Until the user chooses: the employee's company when it is one of the user's, else the user's first company.
  const own = Array.isArray(reference.employee.company_id) ? reference.employee.company_id[0] : undefined;
  const defaultCompany = (reference.companies.some((company) => company.id === own) ? own : reference.companies[0]?.id) ?? '';
  const defaultValues: ContactValues = { ...EMPTY, companyId: added.companyId ?? defaultCompany };

  /** Adds the contact; a refusal that names a field answers it as the form's errors, which the Form marks. */
  async function add(values: ContactValues): Promise<Record<string, string> | undefined> {
    const name = text(values.name);
    try {
      if (!(await duplicates.check(values))) return;
    } catch (error) {
      notify(serverMessageOr(error, 'app.contactForm.duplicates.checkError'), { type: 'error', autoHideDuration: DURATIONS.error });
      return;
    }
    notify('app.contactForm.loading', { type: 'info', autoHideDuration: DURATIONS.info });
    try {
      await create('contacts', { data: { fields: { ...contactPayload(values), name, from_event_assistant: values.eventId || false } } }, { returnPromise: true });
      notify('app.contactForm.created', { type: 'success', messageArgs: { name }, autoHideDuration: DURATIONS.success });
      duplicates.clear();
      setAdded((current) => ({ count: current.count + 1, companyId: values.companyId ?? '' }));
      return undefined;
    } catch (error) {
      notify(serverMessageOr(error, 'app.contactForm.errors.create'), { type: 'error', autoHideDuration: DURATIONS.error });
      return fieldErrorsOf(error, CONTACT_SOURCES);
    }
  }

  return (
    <>
      {/* The name's message is the form's own: no "the form is not valid" notice beside it. */}
      <Form key={added.count} defaultValues={defaultValues} onSubmit={(values: Record<string, unknown>) => add(values as unknown as ContactValues)} noValidate disableInvalidFormNotification>
        <ContactFields reference={reference} advanced={advanced} setAdvanced={setAdvanced} warning={duplicates.warning} onOpen={setOpenId} />
      </Form>
      {openId !== null && (
        <Suspense fallback={null}>
          <ContactDetailDialog id={openId} onClose={() => setOpenId(null)} onOpen={setOpenId} />
        </Suspense>
      )}
    </>
  );
}

/** The Contact form's inputs, in the spec's order; the card reading fills them through the form's own API. */
function ContactFields({
  reference,
  advanced,
  setAdvanced,
  warning,
  onOpen,
}: {
  reference: Reference;
  advanced: boolean;
  setAdvanced: (open: boolean) => void;
  warning: { key: string; duplicates: Duplicate[] } | null;
  onOpen: (id: number) => void;
}) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const { getValues, reset, setValue } = useFormContext<ContactValues>();
  const { isSubmitting } = useFormState();
  // The warning stands while the form has the e-mail and phone it was given for: the next save adds the contact anyway.
  const warned = useWarningHolds(warning);
  // Fields filled from a card stay marked until the user edits them (issue 8): a look, not a value.
  const [fromCard, setFromCard] = useState<ReadonlySet<CardField>>(new Set());
  // Whether a card was already read into this contact: the next one starts from an empty form.
  const cardRead = useRef(false);
  const cardInput = useRef<HTMLInputElement>(null);
  const [queued, setQueued] = useState(false);
  // The card reading (POST /ocr/contact/, the contacts 'read' action).
  const cardReading = useMutation({
    // Busy readers (503 with Retry-After) are asked again after the time they give (issue 30).
    mutationFn: async (card: File) => {
      const body = { file: await readAsDataUrl(card), method: 'card' };
      return withBusyRetry(() => dataProvider.action<{ result: string }>('contacts', 'read', { body }), { onWait: setQueued });
    },
  });

  const edited = (field: CardField) => setFromCard((current) => (current.has(field) ? new Set([...current].filter((one) => one !== field)) : current));
  const marked = (field: CardField) =>
    fromCard.has(field) ? { color: 'secondary' as const, focused: true, helperText: 'app.contactForm.fromCard' } : {};

  function chooseEvent() {
    const eventId = getValues('eventId');
    const event = reference.events.find((one) => one.id === eventId);
    // Spec section 2: choosing an event sets the categories to those in its tags.
    if (event) {
      setValue(
        'categoryIds',
        reference.categories.filter((category) => event.tags.includes(category.id)).map((category) => category.id),
        { shouldDirty: true },
      );
    }
  }

  async function readCard(file: File | undefined) {
    if (!file) return;
    try {
      const json = await cardReading.mutateAsync(file);
      const fields = JSON.parse(json.result) as Partial<Record<CardField, unknown>>;
      const filled = (Object.keys(CARD_FIELDS) as CardField[]).filter((field) => typeof fields[field] === 'string' && fields[field].trim());
      // A second card is another person: nothing of the first one stays (the chosen company does).
      if (cardRead.current) reset({ ...EMPTY, companyId: getValues('companyId') }, { keepDefaultValues: true });
      cardRead.current = true;
      for (const field of filled) setValue(CARD_FIELDS[field], (fields[field] as string).trim(), { shouldDirty: true, shouldValidate: field === 'name' });
      if (filled.includes('website') || filled.includes('position')) setAdvanced(true);
      setFromCard(new Set(filled));
    } catch (error) {
      // Spec section 8: a failed card reading on this page is only logged.
      console.error('Error processing OCR', error);
    } finally {
      if (cardInput.current) cardInput.current.value = '';
    }
  }

  const textInput = (source: keyof ContactValues & string, label: string, testId: string, extra: { cardField?: CardField; help?: string; type?: string; rows?: boolean; field?: string } = {}) => (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}>
      <TextInput
        source={source}
        label={label}
        fullWidth
        type={extra.type}
        multiline={extra.rows}
        minRows={extra.rows ? 3 : undefined}
        maxRows={extra.rows ? 4 : undefined}
        onChange={extra.cardField ? () => edited(extra.cardField!) : undefined}
        {...(extra.cardField ? marked(extra.cardField) : {})}
        inputProps={{ maxLength: declaredMax(extra.field ?? source), 'data-testid': testId }}
      />
      {extra.help && (
        <Tooltip title={translate(extra.help)}>
          <IconButton size="small" aria-label={translate(extra.help)} sx={{ mt: 1 }} tabIndex={-1}>
            <HelpOutlineIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </Box>
  );

  return (
    <Paper sx={{ mt: 2, p: { xs: 2, sm: 3 }, maxWidth: 760, display: 'grid', gap: 1 }} data-testid="contact-page">
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 1 }}>
        {cardReading.isPending && <CircularProgress size={20} aria-label={translate(queued ? 'app.contactForm.scanQueued' : 'app.contactForm.scanning')} data-testid="card-scanning" />}
        <Tooltip title={translate('app.contactForm.scan')}>
          <span>
            <IconButton color="primary" aria-label={translate('app.contactForm.scan')} onClick={() => cardInput.current?.click()} disabled={cardReading.isPending} data-testid="scan-card">
              <PhotoCameraIcon />
            </IconButton>
          </span>
        </Tooltip>
        {/* capture: the phone's camera opens directly; a computer shows the file picker. */}
        <input ref={cardInput} type="file" accept="image/*" capture="environment" hidden onChange={(event) => void readCard(event.target.files?.[0])} data-testid="card-input" />
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'flex-start' }}>
        <TextInput
          source="name"
          label="app.contactForm.fields.name"
          fullWidth
          validate={NAME_VALIDATORS}
          onChange={() => edited('name')}
          {...marked('name')}
          inputProps={{ maxLength: declaredMax('name'), 'data-testid': 'contact-name' }}
        />
      </Box>
      {textInput('email', 'app.contactForm.fields.email', 'contact-email', { cardField: 'email', type: 'email' })}
      {textInput('phone', 'app.contactForm.fields.phone', 'contact-phone', { cardField: 'phone', type: 'tel' })}
      {textInput('companyName', 'app.contactForm.fields.companyName', 'contact-company-name', { help: 'app.contactForm.help.companyName', field: 'company_name' })}
      {reference.events.length > 0 && (
        <ReferenceInput source="eventId" {...wholeList('events')}>
          <SelectInput
            label="app.contactForm.fields.event"
            optionText={eventLabel}
            emptyText="app.contactForm.noEvent"
            helperText="app.contactForm.help.event"
            fullWidth
            onChange={chooseEvent}
            inputProps={{ 'data-testid': 'contact-event' }}
          />
        </ReferenceInput>
      )}
      <FormControlLabel control={<Switch checked={advanced} onChange={(event) => setAdvanced(event.target.checked)} inputProps={{ 'aria-label': translate('app.contactForm.advanced') }} data-testid="advanced-toggle" />} label={translate('app.contactForm.advanced')} />
      <Collapse in={advanced} unmountOnExit={false}>
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
          {textInput('position', 'app.contactForm.fields.position', 'contact-position', { cardField: 'position', field: 'function' })}
          {textInput('website', 'app.contactForm.fields.website', 'contact-website', { cardField: 'website', type: 'url' })}
          {textInput('notes', 'app.contactForm.fields.notes', 'contact-notes', { rows: true })}
          {textInput('comment', 'app.contactForm.fields.comment', 'contact-comment', { rows: true })}
        </Box>
      </Collapse>
      {warned && <DuplicateWarning duplicates={warning!.duplicates} onOpen={onOpen} />}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" startIcon={<PersonAddIcon />} disabled={isSubmitting} data-testid="contact-add">
          {translate(warned ? 'app.contactForm.duplicates.saveAnyway' : 'app.contactForm.add')}
        </Button>
      </Box>
    </Paper>
  );
}


