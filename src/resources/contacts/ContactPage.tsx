import { useMemo, useRef, useState, type ReactNode } from 'react';
import { useCreate, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Collapse from '@mui/material/Collapse';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { serverMessageOr } from '../../providers/http';
import { readAsDataUrl } from '../moves/upload';
import { useReferenceList } from '../../providers/useReferenceList';
import { MESSAGE_DURATION_MS, SHORT_MESSAGE_DURATION_MS } from '../../../shared/domain/constants';

interface Named { id: number; name: string }
interface InvestorType { id: number; x_name: string; x_studio_tipo_inversor_descripcion: string | false }
interface ContactEvent { id: number; event_id: [number, string] | false; tags: number[] }
interface Employee { id: number; name: string; company_id: [number, string] | false }
interface Reference { categories: Named[]; companies: Named[]; employee: Employee | null; investorTypes: InvestorType[]; events: ContactEvent[] }

/** Spec section 4: info messages are short; success and errors stay a little longer. */
// Spec section 9: 5000 ms by default, 1000 ms for the short (loading) message.
const DURATIONS = { info: SHORT_MESSAGE_DURATION_MS, success: MESSAGE_DURATION_MS, error: MESSAGE_DURATION_MS } as const;
const CARD_FIELDS = ['name', 'email', 'website', 'phone', 'position'] as const;
type CardField = (typeof CARD_FIELDS)[number];

const investorLabel = (type: InvestorType) => (type.x_studio_tipo_inversor_descripcion ? `${type.x_name} — ${type.x_studio_tipo_inversor_descripcion}` : type.x_name);

/** The Contact page (spec section 2): a contact from a form or a business card. */
export function ContactPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
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
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [companyName, setCompanyName] = useState('');
  const [eventId, setEventId] = useState<number | ''>('');
  const [advanced, setAdvanced] = useState(false);
  const [chosenCompany, setCompanyId] = useState<number | ''>('');
  const [investorId, setInvestorId] = useState<number | ''>('');
  const [categories, setCategories] = useState<Named[]>([]);
  const [position, setPosition] = useState('');
  const [website, setWebsite] = useState('');
  const [notes, setNotes] = useState('');
  const [comment, setComment] = useState('');
  const [nameError, setNameError] = useState(false);
  const [sending, setSending] = useState(false);
  const [scanning, setScanning] = useState(false);
  // Fields filled from a card stay marked until the user edits them (issue 8).
  const [fromCard, setFromCard] = useState<Set<CardField>>(new Set());
  const cardInput = useRef<HTMLInputElement>(null);
  // Until the user chooses: the employee's company when it is one of the user's, else the user's first company.
  const own = reference?.employee && Array.isArray(reference.employee.company_id) ? reference.employee.company_id[0] : undefined;
  const companyId = chosenCompany !== '' ? chosenCompany : ((reference?.companies.some((company) => company.id === own) ? own : reference?.companies[0]?.id) ?? '');
  // The card reading (POST /ocr/contact/, the contacts 'read' action) and the creation (POST /odoo/contacts/create,
  // the spec's { fields: {...} } as the record's data).
  const cardReading = useMutation({
    mutationFn: async (card: File) => dataProvider.action<{ result: string }>('contacts', 'read', { body: { file: await readAsDataUrl(card), method: 'card' } }),
  });
  const [create] = useCreate();

  const edited = (field: CardField) => setFromCard((current) => (current.has(field) ? new Set([...current].filter((one) => one !== field)) : current));
  const cardHint = (field: CardField) => (fromCard.has(field) ? translate('app.contactForm.fromCard') : ' ');

  function chooseEvent(value: number | '') {
    setEventId(value);
    const event = reference?.events.find((one) => one.id === value);
    // Spec section 2: choosing an event sets the categories to those in its tags.
    if (event && reference) setCategories(reference.categories.filter((category) => event.tags.includes(category.id)));
  }

  async function readCard(file: File | undefined) {
    if (!file) return;
    setScanning(true);
    try {
      const json = await cardReading.mutateAsync(file);
      const fields = JSON.parse(json.result) as Partial<Record<CardField, string>>;
      const setters: Record<CardField, (value: string) => void> = { name: setName, email: setEmail, website: setWebsite, phone: setPhone, position: setPosition };
      const filled = CARD_FIELDS.filter((field) => typeof fields[field] === 'string' && fields[field]!.trim());
      for (const field of filled) setters[field](fields[field]!.trim());
      if (filled.includes('website') || filled.includes('position')) setAdvanced(true);
      if (filled.includes('name')) setNameError(false);
      setFromCard(new Set(filled));
    } catch (error) {
      // Spec section 8: a failed card reading on this page is only logged.
      console.error('Error processing OCR', error);
    } finally {
      setScanning(false);
      if (cardInput.current) cardInput.current.value = '';
    }
  }

  async function add() {
    if (!name.trim()) {
      setNameError(true);
      return;
    }
    setSending(true);
    notify('app.contactForm.loading', { type: 'info', autoHideDuration: DURATIONS.info });
    try {
      await create(
        'contacts',
        {
          data: {
            fields: {
              name: name.trim(),
              email: email.trim(),
              phone: phone.trim(),
              company_name: companyName.trim(),
              from_event_assistant: eventId || false,
              company_id: companyId || false,
              x_studio_tipo_inversor: investorId ? [investorId] : [],
              category_id: categories.map((category) => category.id),
              function: position.trim(),
              website: website.trim(),
              // Spec section 3: swapped relative to their labels.
              comment: notes,
              notes: comment,
            },
          },
        },
        { returnPromise: true },
      );
      notify('app.contactForm.created', { type: 'success', messageArgs: { name: name.trim() }, autoHideDuration: DURATIONS.success });
      for (const clear of [setName, setEmail, setPhone, setCompanyName, setPosition, setWebsite, setNotes, setComment]) clear('');
      setEventId('');
      setInvestorId('');
      setCategories([]);
      setNameError(false);
      setFromCard(new Set());
    } catch (error) {
      notify(serverMessageOr(error, 'app.contactForm.errors.create'), { type: 'error', autoHideDuration: DURATIONS.error });
    } finally {
      setSending(false);
    }
  }

  if (loadError) return <Alert severity="error" sx={{ mt: 2 }} data-testid="contact-load-error">{translate(loadError, { _: loadError })}</Alert>;
  if (!reference) return <LinearProgress sx={{ mt: 2 }} aria-label={translate('app.contactForm.loading')} data-testid="contact-loading" />;
  if (!reference.employee) return <Alert severity="error" sx={{ mt: 2 }} data-testid="contact-employee-error">{translate('contact.contactPage.error')}</Alert>;

  const field = (label: string, value: string, set: (value: string) => void, testId: string, extra: { cardField?: CardField; help?: string; type?: string; rows?: boolean } = {}): ReactNode => (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}>
      <TextField
        fullWidth
        type={extra.type}
        label={label}
        value={value}
        onChange={(event) => {
          set(event.target.value);
          if (extra.cardField) edited(extra.cardField);
        }}
        multiline={extra.rows}
        minRows={extra.rows ? 3 : undefined}
        maxRows={extra.rows ? 4 : undefined}
        color={extra.cardField && fromCard.has(extra.cardField) ? 'secondary' : undefined}
        focused={extra.cardField && fromCard.has(extra.cardField) ? true : undefined}
        helperText={extra.cardField ? cardHint(extra.cardField) : ' '}
        inputProps={{ maxLength: extra.rows ? 5000 : 320, 'data-testid': testId }}
      />
      {extra.help && (
        <Tooltip title={extra.help}>
          <IconButton size="small" aria-label={extra.help} sx={{ mt: 1 }} tabIndex={-1}>
            <HelpOutlineIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </Box>
  );

  return (
    <Paper
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void add();
      }}
      sx={{ mt: 2, p: { xs: 2, sm: 3 }, maxWidth: 760, display: 'grid', gap: 1 }}
      data-testid="contact-page"
    >
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 1 }}>
        {scanning && <CircularProgress size={20} aria-label={translate('app.contactForm.scanning')} data-testid="card-scanning" />}
        <Tooltip title={translate('app.contactForm.scan')}>
          <span>
            <IconButton color="primary" aria-label={translate('app.contactForm.scan')} onClick={() => cardInput.current?.click()} disabled={scanning} data-testid="scan-card">
              <PhotoCameraIcon />
            </IconButton>
          </span>
        </Tooltip>
        {/* capture: the phone's camera opens directly; a computer shows the file picker. */}
        <input ref={cardInput} type="file" accept="image/*" capture="environment" hidden onChange={(event) => void readCard(event.target.files?.[0])} data-testid="card-input" />
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'flex-start' }}>
        <TextField
          fullWidth
          required
          label={translate('app.contactForm.fields.name')}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setNameError(false);
            edited('name');
          }}
          error={nameError}
          color={fromCard.has('name') ? 'secondary' : undefined}
          focused={fromCard.has('name') ? true : undefined}
          helperText={nameError ? translate('app.contactForm.required') : cardHint('name')}
          inputProps={{ maxLength: 200, 'data-testid': 'contact-name' }}
        />
      </Box>
      {field(translate('app.contactForm.fields.email'), email, setEmail, 'contact-email', { cardField: 'email', type: 'email' })}
      {field(translate('app.contactForm.fields.phone'), phone, setPhone, 'contact-phone', { cardField: 'phone', type: 'tel' })}
      {field(translate('app.contactForm.fields.companyName'), companyName, setCompanyName, 'contact-company-name', { help: translate('app.contactForm.help.companyName') })}
      {reference.events.length > 0 && (
        <TextField select fullWidth label={translate('app.contactForm.fields.event')} value={eventId} onChange={(event) => chooseEvent(Number(event.target.value) || '')} helperText={translate('app.contactForm.help.event')} inputProps={{ 'data-testid': 'contact-event' }}>
          <MenuItem value="">{translate('app.contactForm.noEvent')}</MenuItem>
          {reference.events.map((event) => (
            <MenuItem key={event.id} value={event.id}>{Array.isArray(event.event_id) ? event.event_id[1] : `#${event.id}`}</MenuItem>
          ))}
        </TextField>
      )}
      <FormControlLabel control={<Switch checked={advanced} onChange={(event) => setAdvanced(event.target.checked)} inputProps={{ 'aria-label': translate('app.contactForm.advanced') }} data-testid="advanced-toggle" />} label={translate('app.contactForm.advanced')} />
      <Collapse in={advanced} unmountOnExit={false}>
        <Box sx={{ display: 'grid', gap: 1, pt: 1 }}>
          <TextField select fullWidth label={translate('app.contactForm.fields.company')} value={reference.companies.some((one) => one.id === companyId) ? companyId : ''} onChange={(event) => setCompanyId(Number(event.target.value) || '')} helperText=" " inputProps={{ 'data-testid': 'contact-company' }}>
            {reference.companies.map((company) => (
              <MenuItem key={company.id} value={company.id}>{company.name}</MenuItem>
            ))}
          </TextField>
          {/* An ERP without investor types (or with none defined) has nothing to choose: the field is not shown. */}
          {reference.investorTypes.length > 0 && (
            <TextField select fullWidth label={translate('app.contactForm.fields.investorType')} value={investorId} onChange={(event) => setInvestorId(Number(event.target.value) || '')} helperText=" " inputProps={{ 'data-testid': 'contact-investor' }}>
              <MenuItem value="">—</MenuItem>
              {reference.investorTypes.map((type) => (
                <MenuItem key={type.id} value={type.id}>{investorLabel(type)}</MenuItem>
              ))}
            </TextField>
          )}
          <Autocomplete
            multiple
            filterSelectedOptions
            options={reference.categories}
            getOptionLabel={(option) => option.name}
            isOptionEqualToValue={(option, value) => option.id === value.id}
            value={categories}
            onChange={(_event, value) => setCategories(value)}
            renderInput={(params) => <TextField {...params} label={translate('app.contactForm.fields.categories')} helperText=" " inputProps={{ ...params.inputProps, 'data-testid': 'contact-categories' }} />}
            data-testid="contact-categories-field"
          />
          {field(translate('app.contactForm.fields.position'), position, setPosition, 'contact-position', { cardField: 'position' })}
          {field(translate('app.contactForm.fields.website'), website, setWebsite, 'contact-website', { cardField: 'website', type: 'url' })}
          {field(translate('app.contactForm.fields.notes'), notes, setNotes, 'contact-notes', { rows: true })}
          {field(translate('app.contactForm.fields.comment'), comment, setComment, 'contact-comment', { rows: true })}
        </Box>
      </Collapse>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" startIcon={<PersonAddIcon />} disabled={sending} data-testid="contact-add">
          {translate('app.contactForm.add')}
        </Button>
      </Box>
    </Paper>
  );
}
