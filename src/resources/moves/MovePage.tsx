import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { AutocompleteInput, Form, SelectInput, TextInput, required, useDataProvider, useInput, useLocaleState, useNotify, useTranslate, type Validator } from 'react-admin';
import { useFormContext, useWatch, type FieldErrors } from 'react-hook-form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import AddBusinessIcon from '@mui/icons-material/AddBusiness';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import AutoAwesomeIcon from '@mui/icons-material/AutoAwesome';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import SendIcon from '@mui/icons-material/Send';
import { isFutureDay, isWithinDateWindow, isoDay, slashesToDashes } from '../../../shared/domain/dates';
import { closestSupplier, supplierSearchTerms, vatCore } from '../../../shared/domain/text';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { errorMessage, fieldErrorsOf } from '../../providers/http';
import { SERVER_MESSAGE_KEYS, postWithProgress, readAsDataUrl } from './upload';
import { withBusyRetry } from '../../providers/busyRetry';
import { SUBMISSION_HEADER, submissionDone, submissionKey } from '../../providers/submission';
import { useReferenceList } from '../../providers/useReferenceList';
import { LocaleNumberInput } from '../../custom/inputs/LocaleNumberInput';
import { LocaleDateInput } from '../../custom/inputs/LocaleDateInput';
import { numberValue } from '../../custom/inputs/numberRules';
import { useElapsedSeconds } from '../../custom/useElapsedSeconds';
import { DocumentPreview } from './DocumentPreview';
import { LoadError } from '../../custom/LoadError';
import { multiLineText, singleLineText } from '../../custom/inputs/textRules';

export const LAST_TAB_KEY = 'move_last_tab';
export /** The size of the supplier list the server sends at once (GET /odoo/providers). */
const PROVIDER_LIST_LIMIT = 500;
const LAST_COMPANY_KEY = 'move_last_company';

type MoveType = 'expense' | 'invoice';
interface Setting { journal_id: number | false; account: string | false }
interface Project { id: number; name: string; facturas: Setting; gastos: Setting }
interface Company { id: number; name: string; facturas: Setting; gastos: Setting; projects: Project[] }
interface Provider { id: number; name: string }

/** What the form holds; the creation payload (spec section 3) is built from it on send. */
interface MoveValues {
  company_id: number | '';
  project: number | '';
  partner_id: number | '';
  concept: string;
  /** The number read from the box (typed in the user's language), the text typed while it is no amount, or null. */
  amount: number | string | null;
  paymentMethod: string;
  paymentStatus: 'paid' | 'unpaid';
  /** The ISO day, or the text typed while it is no date. */
  date: string | null;
  comment: string;
  file: File | null;
}

const PAYMENT_METHODS = ['corporate_card', 'personal_card', 'direct_debit'] as const;
const PAYMENT_METHOD_CHOICES = PAYMENT_METHODS.map((id) => ({ id, name: `app.move.paymentMethods.${id}` }));
const PAYMENT_STATUS_CHOICES = [
  { id: 'paid', name: 'app.moves.payment.paid' },
  { id: 'unpaid', name: 'app.moves.payment.unpaid' },
];
type AiField = 'amount' | 'date' | 'concept' | 'provider';
/** The creation payload's fields the form has a box for: a refusal naming one marks that box. */
const FORM_FIELDS = new Set(['company_id', 'partner_id', 'concept', 'amount', 'paymentMethod', 'paymentStatus', 'date', 'comment']);

/** The amount as the payload carries it: the number read from the box (es 1.234,56, en 1,234.56). */
const amountOf = (value: unknown, locale = 'es') => numberValue(value, locale, 2);

// The spec's rules (section 5) with their messages: a required field says 'This field is required' (an amount of 0 or
// less says so in its own words, from its input); an empty date or one older than two years says the incorrect-date
// message.
const REQUIRED = [required('app.move.required')];
const AMOUNT_RULES: Validator[] = [required('app.move.required')];
const DATE_RULES: Validator[] = [
  required('app.move.incorrectDate'),
  (value) => (typeof value === 'string' && isWithinDateWindow(value) ? undefined : 'app.move.incorrectDate'),
];

function Help({ text }: { text: string }) {
  return (
    <Tooltip title={text}>
      <IconButton size="small" aria-label={text} sx={{ ml: 0.5, alignSelf: 'center' }}>
        <HelpOutlineIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

function Row({ help, children }: { help: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}>
      <Box sx={{ flex: 1 }}>{children}</Box>
      <Help text={help} />
    </Box>
  );
}

/** A new move's values: today's date, paid, nothing typed; the company and project the user works in kept. */
function emptyMove(company: MoveValues['company_id'], project: MoveValues['project']): MoveValues {
  return { company_id: company, project, partner_id: '', concept: '', amount: null, paymentMethod: '', paymentStatus: 'paid', date: isoDay(new Date()), comment: '', file: null };
}

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
    const companies = companiesQuery.data ?? [];
    const remembered = Number(localStorage.getItem(LAST_COMPANY_KEY)) || '';
    const mine = companies.some((one) => one.id === remembered) || companiesQuery.isError ? remembered : companies.length === 1 ? companies[0].id : '';
    setDefaultValues(emptyMove(mine, ''));
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
          <MoveFields tab={tab} />
        </Form>
      ) : (
        <Box sx={{ display: 'grid', gap: 2 }} aria-busy="true" aria-label={translate('ra.page.loading')} data-testid="move-loading">
          {[0, 1, 2, 3, 4].map((row) => <Skeleton key={row} variant="rounded" height={48} />)}
        </Box>
      )}
    </Paper>
  );
}

/** What a reading says of the supplier: its name and tax id as read. */
interface SupplierRead {
  provider?: string;
  vat?: string;
}

/** The form's inputs, inside react-admin's Form: its values, validation and reset are react-hook-form's. */
function MoveFields({ tab }: { tab: MoveType }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const { setValue, getValues, reset, handleSubmit, formState, trigger, getFieldState, setError } = useFormContext<MoveValues>();
  // The company-scoped supplier search (spec section 7, POST /odoo/providers/search): the providers' declared action.
  const searchProviders = useCallback(
    (body: { companyId: number; name?: string; vat?: string }) => dataProvider.action<Provider[]>('providers', 'search', { body }),
    [dataProvider],
  );
  const queryClient = useQueryClient();
  // The user's companies and the chosen company's suppliers: reference lists read once, shared with other screens.
  // The page has just read them (a failure included: asked again by the retry, not by this form's first render).
  const companiesQuery = useReferenceList<Company>('companies', undefined, { retryOnMount: false });
  const companies = useMemo(() => companiesQuery.data ?? [], [companiesQuery.data]);
  const chosenCompany = useWatch<MoveValues, 'company_id'>({ name: 'company_id' });
  // The remembered company while the list loads; then it if it is still one of the user's, else the only one.
  const companyId = !companiesQuery.data || companies.some((one) => one.id === chosenCompany) ? chosenCompany : companies.length === 1 ? companies[0].id : '';
  useEffect(() => {
    if (companiesQuery.data && chosenCompany !== companyId) setValue('company_id', companyId);
  }, [companiesQuery.data, chosenCompany, companyId, setValue]);
  const providersQuery = useReferenceList<Provider>('providers', companyId);
  const providers = useMemo(() => providersQuery.data ?? [], [providersQuery.data]);
  const file = useWatch<MoveValues, 'file'>({ name: 'file' });
  const paymentMethod = useWatch<MoveValues, 'paymentMethod'>({ name: 'paymentMethod' });
  const { field: fileField } = useInput({ source: 'file' });
  const [progress, setProgress] = useState<number | null>(null);
  const [reading, setReading] = useState(false);
  const [queued, setQueued] = useState(false);
  const readingSeconds = useElapsedSeconds(reading);
  // The printed rows the amount and the date were read from, said under each (issue 27: where a value came from).
  const [readLines, setReadLines] = useState<{ importe?: string; date?: string }>({});
  const chooseFileButton = useRef<HTMLButtonElement>(null);
  // Fields filled by the extraction stay marked until the user edits them (issue 8).
  const [fromAi, setFromAi] = useState<Set<AiField>>(new Set());
  // A supplier read from the document that no stored supplier matches: said under the supplier (issue 17). `near`: a
  // stored supplier whose name is the one read but for an OCR slip or two was chosen instead (said as well).
  const [unread, setUnread] = useState<{ name: string; vat?: string; near?: boolean } | null>(null);
  const [creatingSupplier, setCreatingSupplier] = useState(false);
  // The supplier the last reading found (its name and tax id), looked for again when the company changes; and one
  // waiting for a company to be chosen, or for the chosen company's suppliers to load.
  const [lastRead, setLastRead] = useState<SupplierRead | null>(null);
  const [pendingSupplier, setPendingSupplier] = useState<SupplierRead | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const cameraInput = useRef<HTMLInputElement>(null);
  const touchScreen = useMediaQuery('(pointer: coarse)');
  const edited = (field: AiField) => setFromAi((current) => (current.has(field) ? new Set([...current].filter((one) => one !== field)) : current));
  const aiMark = (field: AiField) => (fromAi.has(field) ? { focused: true, color: 'secondary' as const } : {});
  const aiHelp = (field: AiField, otherwise: false | undefined | string) => {
    if (!fromAi.has(field)) return otherwise;
    const line = field === 'amount' ? readLines.importe : field === 'date' ? readLines.date : undefined;
    return line ? translate('app.move.fromLine', { line }) : 'app.move.fromAi';
  };

  useEffect(() => {
    if (companyId) localStorage.setItem(LAST_COMPANY_KEY, String(companyId));
  }, [companyId]);
  useEffect(() => {
    if (providersQuery.error) notify(errorMessage(providersQuery.error), { type: 'error' });
  }, [providersQuery.error, notify]);

  // The document reading (POST /ocr/move/), a named action of moves.
  const ocr = useMutation({
    // Busy readers (503 with Retry-After) are asked again after the time they give; the user sees the reading waits.
    mutationFn: async (document: File) => {
      const body = { file: await readAsDataUrl(document) };
      return withBusyRetry(() => dataProvider.action<{ result: string }>('moves', 'read', { body }), { onWait: setQueued });
    },
  });
  // The creation keeps its own request (POST /odoo/moves/create, the spec's payload): it reports the upload's
  // progress, which fetch (and so the dataProvider) cannot. The move lists are stale afterwards.
  // The send carries the submission's key (the same when the same bill is sent again after a failure): the server
  // then makes one bill of it, however many times its answer was lost.
  const creation = useMutation({
    mutationFn: async (body: Record<string, unknown>) => {
      const key = submissionKey('moves', body);
      const answer = await postWithProgress('/odoo/moves/create', body, setProgress, { [SUBMISSION_HEADER]: key });
      submissionDone('moves', key);
      return answer;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['moves'] }),
  });

  // The company's suppliers come as one list of at most PROVIDER_LIST_LIMIT; when it is full, what the user types is
  // also searched on the server, so a supplier past that list is still found.
  const [typed, setTyped] = useState('');
  const [searched, setSearched] = useState<Provider[]>([]);
  // A supplier chosen from a server search or matched by the AI button stays a choice while it is the value.
  const [picked, setPicked] = useState<Provider | null>(null);
  useEffect(() => {
    if (!companyId || providers.length < PROVIDER_LIST_LIMIT || typed.trim().length < 2) return;
    const timer = setTimeout(() => {
      searchProviders({ companyId, name: typed.trim() })
        .then(setSearched)
        .catch(() => undefined);
    }, 300);
    return () => clearTimeout(timer);
  }, [companyId, providers.length, typed, searchProviders]);
  // In alphabetical order, as a person looks a name up (the server sends the suppliers with bills first, so that its
  // list of at most PROVIDER_LIST_LIMIT holds the ones in use).
  const supplierOptions = useMemo(() => {
    const known = new Set(providers.map((one) => one.id));
    const extra = [...searched, ...(picked ? [picked] : [])].filter((one) => !known.has(one.id) && (known.add(one.id), true));
    const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
    return [...providers, ...extra].sort((a, b) => collator.compare(a.name, b.name));
  }, [providers, searched, picked, locale]);
  // The supplier box keeps its test id on the text input (AutocompleteInput builds that input itself).
  const supplierInput = useCallback((node: HTMLInputElement | null) => node?.setAttribute('data-testid', 'supplier'), []);

  const company = companies.find((one) => one.id === companyId);
  const projects = useMemo(() => company?.projects ?? [], [company]);
  const canSend = Boolean(companyId) && Boolean(file) && (tab === 'invoice' || Boolean(paymentMethod)) && progress === null;

  /** The supplier read from the document, created for the company and chosen (POST /odoo/providers/create). */
  async function createSupplier() {
    if (!unread || !companyId) return;
    setCreatingSupplier(true);
    try {
      const created = await dataProvider.action<Provider>('providers', 'create', { body: { companyId, name: unread.name, ...(unread.vat ? { vat: unread.vat } : {}) } });
      setPicked(created);
      setValue('partner_id', created.id, { shouldDirty: true, shouldValidate: formState.isSubmitted });
      setUnread(null);
      void queryClient.invalidateQueries({ queryKey: ['providers'] });
      notify('app.move.supplierCreated', { type: 'success', messageArgs: { name: created.name } });
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setCreatingSupplier(false);
    }
  }

  /**
   * The supplier a reading found, for `company`: by the tax id read from the document when there is one (exact where
   * names differ), then by name, the first search that finds one winning; when none does, the company's stored
   * supplier (`stored`) whose name is the one read but for an OCR slip or two; else the name read is said under the
   * box, with a way to create it. Whether a supplier was chosen. `current`: whether this lookup still stands.
   */
  const matchSupplier = useCallback(
    async (company: number, read: SupplierRead, stored: readonly Provider[], how: { shouldDirty: boolean; shouldValidate: boolean }, current: () => boolean) => {
      const vat = read.vat && vatCore(read.vat).length >= 8 ? read.vat : undefined;
      const searches = [...(vat ? [{ vat }] : []), ...(read.provider ? supplierSearchTerms(read.provider).map((name) => ({ name })) : [])];
      for (const search of searches) {
        const found = await searchProviders({ companyId: company, ...search });
        // Overtaken meanwhile (another company, another reading, a send): this company's answer is not written.
        if (!current()) return false;
        if (found[0]) {
          setPicked(found[0]);
          setValue('partner_id', found[0].id, how);
          return true;
        }
      }
      if (!read.provider) return false;
      const near = closestSupplier(read.provider, stored);
      if (near) {
        setPicked(near);
        setValue('partner_id', near.id, how);
        setUnread({ name: read.provider, near: true });
        return true;
      }
      setUnread({ name: read.provider, ...(vat ? { vat } : {}) });
      return false;
    },
    [searchProviders, setValue],
  );

  // A date said wrong before any send (read from an old receipt) is checked again as the user corrects it (react-hook-form
  // checks a field on change only once a send was tried).
  const dateValue = useWatch<MoveValues, 'date'>({ name: 'date' });
  useEffect(() => {
    if (getFieldState('date').invalid) void trigger('date');
  }, [dateValue, getFieldState, trigger]);

  // The supplier a reading found is looked for once a company is chosen and its suppliers are loaded: at once when
  // one is, else when the user chooses one, and again when the company changes (the name read is not lost). Each
  // lookup is numbered: one overtaken by another company, another reading or a send writes nothing.
  const matching = useRef<SupplierRead | null>(null);
  const supplierLookup = useRef(0);
  useEffect(() => {
    if (!pendingSupplier || !companyId || !providersQuery.data || matching.current === pendingSupplier) return;
    const read = pendingSupplier;
    matching.current = read;
    const lookup = ++supplierLookup.current;
    const current = () => supplierLookup.current === lookup;
    matchSupplier(companyId, read, providersQuery.data, { shouldDirty: true, shouldValidate: formState.isSubmitted }, current)
      .then((chosen) => {
        if (chosen && current()) setFromAi((marked) => new Set([...marked, 'provider']));
      })
      .catch((error: unknown) => notify(errorMessage(error), { type: 'error' }))
      .finally(() => setPendingSupplier((current) => (current === read ? null : current)));
  }, [pendingSupplier, companyId, providersQuery.data, matchSupplier, formState.isSubmitted, notify]);
  /** Asks for `read` to be looked up (a fresh request, even for the same reading), or for nothing; overtakes any under way. */
  const lookUpSupplier = (read: SupplierRead | null) => {
    supplierLookup.current++;
    setPendingSupplier(read && { ...read });
  };

  /**
   * What the last reading filled and the user left as it was goes (issue 27): it belongs to another document, or to
   * none (a new file, a new reading, one that failed). What the user typed or chose stays.
   */
  function forgetReading() {
    const how = { shouldDirty: true, shouldValidate: formState.isSubmitted };
    for (const field of fromAi) {
      if (field === 'provider') {
        setPicked(null);
        setValue('partner_id', '', how);
      } else if (field === 'date') setValue('date', isoDay(new Date()), { ...how, shouldValidate: true });
      else setValue(field, field === 'amount' ? null : '', how);
    }
    setFromAi(new Set());
    setReadLines({});
    setUnread(null);
    setLastRead(null);
    lookUpSupplier(null);
  }

  /** A file chosen, taken or dropped: the reading of the previous one no longer stands. */
  function chooseFile(chosen: File | null) {
    fileField.onChange(chosen);
    forgetReading();
  }

  async function readWithAi() {
    if (!file) return;
    forgetReading();
    setReading(true);
    // The form's own API fills it: the values count as changed, and are checked again once a send was tried.
    const how = { shouldDirty: true, shouldValidate: formState.isSubmitted };
    try {
      const json = await ocr.mutateAsync(file);
      const fields = JSON.parse(json.result) as { importe?: number | string; date?: string; provider?: string; concept?: string; vat?: string; lines?: { importe?: string; date?: string } };
      const filled = new Set<AiField>();
      // The server writes the amount with a dot ("15.00"); the box shows it as the user's language writes it.
      const amount = fields.importe === undefined || fields.importe === '' ? Number.NaN : Number(fields.importe);
      if (Number.isFinite(amount)) {
        setValue('amount', amount, how);
        filled.add('amount');
      }
      if (fields.date) {
        // Checked at once: a date the send would refuse (an old receipt) is said now, under the date.
        setValue('date', slashesToDashes(fields.date), { ...how, shouldValidate: true });
        filled.add('date');
      }
      if (fields.concept) {
        setValue('concept', fields.concept, how);
        filled.add('concept');
      }
      // The supplier: looked for in the company chosen then (see pendingSupplier), which may be another than when the
      // button was pressed; a lookup still under way for the previous reading is overtaken.
      const read = fields.provider || fields.vat ? { provider: fields.provider, vat: fields.vat } : null;
      setLastRead(read);
      lookUpSupplier(read);
      setReadLines(fields.lines ?? {});
      setFromAi(filled);
    } catch (error) {
      console.error(error);
      notify('app.move.aiError', { type: 'error' });
    } finally {
      setReading(false);
    }
  }

  async function send(values: MoveValues) {
    // The file as chosen (the submitted values are a copy).
    const chosenFile = getValues('file');
    if (!canSend || !company || !chosenFile) return;
    const project = projects.find((one) => one.id === values.project);
    const setting = (owner: { facturas: Setting; gastos: Setting }) => ({ expenses: owner.gastos, invoices: owner.facturas });
    const concept = (values.concept ?? '').trim();
    try {
      setProgress(0);
      const data = await readAsDataUrl(chosenFile);
      await creation.mutateAsync({
        company_data: setting(company),
        project: project ? { id: project.id, ...setting(project) } : null,
        type: tab,
        partner_id: values.partner_id === '' || values.partner_id === undefined ? null : values.partner_id,
        date: values.date,
        amount: amountOf(values.amount, locale),
        concept,
        description: concept,
        comment: (values.comment ?? '').trim(),
        company_id: company.id,
        paymentMethod: tab === 'expense' ? values.paymentMethod : null,
        paymentStatus: tab === 'invoice' ? values.paymentStatus : null,
        file: { name: chosenFile.name, data },
      });
      notify('app.move.created', { type: 'success', messageArgs: { concept } });
      // Everything but company and project is cleared (spec sections 2 and 4).
      reset(emptyMove(values.company_id, values.project));
      setPicked(null);
      setFromAi(new Set());
      setUnread(null);
      setLastRead(null);
      setReadLines({});
      lookUpSupplier(null);
      if (fileInput.current) fileInput.current.value = '';
      // The next document starts with its file: focus goes there, not to the page's body.
      chooseFileButton.current?.focus();
    } catch (error) {
      // A refusal that names a field of the form marks it, in the words the server said it (the user's language).
      const marked = fieldErrorsOf(error, (path) => (FORM_FIELDS.has(path) ? path : undefined));
      for (const [source, text] of Object.entries(marked ?? {})) setError(source as keyof MoveValues, { type: 'server', message: text });
      const message = errorMessage(error, translate);
      notify(SERVER_MESSAGE_KEYS.get(message) ?? message, { type: 'error' });
    } finally {
      setProgress(null);
    }
  }

  // A refused send: a wrong amount shows on its field; a wrong date also says so in a message (spec section 5).
  function refused(errors: FieldErrors<MoveValues>) {
    if (!canSend || errors.amount) return;
    if (errors.date) notify('app.move.incorrectDate', { type: 'warning' });
  }

  const futureDate = isFutureDay(dateValue);
  return (
    <Box sx={{ display: 'grid', gap: 3, alignItems: 'start', gridTemplateColumns: { xs: '1fr', md: file ? 'minmax(0, 1fr) minmax(0, 1fr)' : '1fr' } }}>
    <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
      {companiesQuery.error ? (
        <LoadError message="app.move.companiesError" error={companiesQuery.error} onRetry={() => void companiesQuery.refetch()} testId="companies-error" />
      ) : null}
      <Row help={translate('app.move.help.company')}>
        <SelectInput
          source="company_id"
          label="app.move.fields.company"
          choices={companies}
          translateChoice={false}
          validate={REQUIRED}
          onChange={() => {
            setValue('project', '');
            setValue('partner_id', '');
            setSearched([]);
            setPicked(null);
            setUnread(null);
            // The same reading is looked for again, for the new company.
            lookUpSupplier(lastRead);
          }}
          inputProps={{ 'data-testid': 'company' }}
        />
      </Row>
      <Row help={translate('app.move.help.project')}>
        <SelectInput source="project" label="app.move.fields.project" choices={projects} translateChoice={false} emptyText="app.move.noProject" disabled={!companyId} helperText={false} />
      </Row>
      <Row help={translate('app.move.help.supplier')}>
        <AutocompleteInput
          source="partner_id"
          label="app.move.fields.supplier"
          choices={supplierOptions}
          optionText="name"
          translateChoice={false}
          disabled={!companyId}
          onInputChange={(_, text, reason) => {
            if (reason === 'input') setTyped(text);
          }}
          onChange={(_, record) => {
            if (record) setPicked(record as Provider);
            edited('provider');
            setUnread(null);
          }}
          helperText={unread ? translate(unread.near ? 'app.move.nearSupplier' : 'app.move.unmatchedSupplier', { name: unread.name }) : aiHelp('provider', false)}
          TextFieldProps={{ ...aiMark('provider'), inputRef: supplierInput }}
        />
        {unread && !unread.near && companyId ? (
          <Button size="small" startIcon={<AddBusinessIcon />} onClick={() => void createSupplier()} disabled={creatingSupplier} data-testid="create-supplier" sx={{ mt: -1, mb: 1, whiteSpace: 'normal', textAlign: 'left' }}>
            {translate('app.move.createSupplier', { name: unread.name })}
          </Button>
        ) : null}
      </Row>
      <Row help={translate('app.move.help.concept')}>
        <TextInput source="concept" label="app.move.fields.concept" validate={singleLineText} onChange={() => edited('concept')} {...aiMark('concept')} helperText={aiHelp('concept', false)} inputProps={{ maxLength: 500, 'data-testid': 'concept' }} />
      </Row>
      <Row help={translate('app.move.help.amount')}>
        {/* Typed as the user's language writes it (es 1.234,56, en 1,234.56), shown so once the box is left. */}
        <LocaleNumberInput
          source="amount"
          label="app.move.fields.amount"
          validate={AMOUNT_RULES}
          decimals={2}
          minDecimals={2}
          positive="app.inputs.number.amountPositive"
          onChange={() => edited('amount')}
          {...aiMark('amount')}
          helperText={aiHelp('amount', undefined)}
          inputProps={{ maxLength: 20, 'data-testid': 'amount' }}
        />
      </Row>
      {/* Keyed: each tab has its own input (and its own field registration), not one input changing its source. */}
      {tab === 'expense' ? (
        <Row key="paymentMethod" help={translate('app.move.help.paymentMethod')}>
          <SelectInput source="paymentMethod" label="app.move.fields.paymentMethod" choices={PAYMENT_METHOD_CHOICES} validate={REQUIRED} inputProps={{ 'data-testid': 'payment-method' }} />
        </Row>
      ) : (
        <Row key="paymentStatus" help={translate('app.move.help.paymentStatus')}>
          <SelectInput source="paymentStatus" label="app.move.fields.paymentStatus" choices={PAYMENT_STATUS_CHOICES} validate={REQUIRED} />
        </Row>
      )}
      <Row help={translate('app.move.help.date')}>
        <LocaleDateInput
          source="date"
          label="app.move.fields.date"
          validate={DATE_RULES}
          onChange={() => edited('date')}
          {...aiMark('date')}
          // A future date is allowed (an invoice dated ahead) but said, so that a slip of the year is seen before sending.
          helperText={aiHelp('date', futureDate ? translate('app.inputs.date.future') : undefined)}
          color={futureDate && !fromAi.has('date') ? 'warning' : aiMark('date').color}
          focused={futureDate && !fromAi.has('date') ? true : aiMark('date').focused}
          inputProps={{ 'data-testid': 'date' }}
        />
      </Row>
      <Row help={translate('app.move.help.file')}>
        <Box sx={{ border: '2px dashed', borderColor: formState.isSubmitted && !file ? 'error.main' : 'divider', borderRadius: 1, p: 2, display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}
          onDragOver={(event) => event.preventDefault()}
          onDrop={(event) => { event.preventDefault(); const dropped = event.dataTransfer.files[0]; if (dropped) chooseFile(dropped); }}
        >
          <Button ref={chooseFileButton} variant="outlined" startIcon={<AttachFileIcon />} onClick={() => fileInput.current?.click()}>{translate('app.move.chooseFile')}</Button>
          <input ref={fileInput} type="file" hidden accept="application/pdf,image/*" onChange={(event) => chooseFile(event.target.files?.[0] ?? null)} data-testid="file-input" />
          {/* On a phone the camera opens straight away; a computer keeps the file picker above. */}
          {touchScreen && (
            <Button variant="outlined" startIcon={<PhotoCameraIcon />} onClick={() => cameraInput.current?.click()} data-testid="take-photo">{translate('app.move.takePhoto')}</Button>
          )}
          <input ref={cameraInput} type="file" hidden accept="image/*" capture="environment" onChange={(event) => chooseFile(event.target.files?.[0] ?? null)} data-testid="camera-input" />
          <Typography variant="body2" data-testid="file-name" sx={{ flex: 1, minWidth: 160 }}>
            {file ? `${file.name} (${file.type || translate('app.move.unknownType')})` : translate('app.move.noFile')}
          </Typography>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <Button startIcon={reading ? <CircularProgress size={18} color="inherit" aria-hidden /> : <AutoAwesomeIcon />} disabled={!file || reading} onClick={readWithAi} data-testid="ai-button">{translate('app.move.ai')}</Button>
            {/* The wait is said where the user looks (at the button), with the seconds it has taken so far. */}
            {reading && (
              <Typography variant="body2" color="text.secondary" role="status" data-testid="ai-reading">
                {translate(queued ? 'app.move.readingQueued' : 'app.move.readingSeconds', { seconds: readingSeconds })}
              </Typography>
            )}
          </Box>
        </Box>
      </Row>
      <Row help={translate('app.move.help.comment')}>
        <TextInput source="comment" label="app.move.fields.comment" validate={multiLineText} multiline rows={5} helperText={false} inputProps={{ maxLength: 10000 }} />
      </Row>
      {progress !== null && <LinearProgress variant="determinate" value={Math.round(progress * 100)} aria-label={translate('app.move.uploading')} />}
      {/* Only once the companies are in and there are none: no alert before data has loaded (issue 27). */}
      {companiesQuery.isSuccess && !companies.length && <Alert severity="info">{translate('app.move.noCompanies')}</Alert>}
      <Box>
        <Button variant="contained" startIcon={<SendIcon />} disabled={!canSend} onClick={(event) => handleSubmit(send, refused)(event)} data-testid="send">{translate('app.move.send')}</Button>
      </Box>
    </Box>
    {file && (
      // Beside the form on a wide screen, while what was read is reviewed; a phone has the photo just taken.
      <Box sx={{ display: { xs: 'none', md: 'block' }, position: 'sticky', top: 72 }}>
        <DocumentPreview file={file} height="calc(100vh - 180px)" />
      </Box>
    )}
    </Box>
  );
}
