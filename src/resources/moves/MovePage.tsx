import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import AutoAwesomeIcon from '@mui/icons-material/AutoAwesome';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import SendIcon from '@mui/icons-material/Send';
import { isWithinTwoYears, isoDay, slashesToDashes } from '../../../shared/domain/dates';
import { supplierSearchTerms, vatCore } from '../../../shared/domain/text';
import type { BackofficeDataProvider } from '../../providers/dataProvider';
import { errorMessage } from '../../providers/http';
import { FILE_TOO_LARGE, postWithProgress, readAsDataUrl } from './upload';
import { useReferenceList } from '../../providers/useReferenceList';

export const LAST_TAB_KEY = 'move_last_tab';
export /** The size of the supplier list the server sends at once (GET /odoo/providers). */
const PROVIDER_LIST_LIMIT = 500;
const LAST_COMPANY_KEY = 'move_last_company';

type MoveType = 'expense' | 'invoice';
interface Setting { journal_id: number | false; account: string | false }
interface Project { id: number; name: string; facturas: Setting; gastos: Setting }
interface Company { id: number; name: string; facturas: Setting; gastos: Setting; projects: Project[] }
interface Provider { id: number; name: string }

const PAYMENT_METHODS = ['corporate_card', 'personal_card', 'direct_debit'] as const;
type AiField = 'amount' | 'date' | 'concept' | 'provider';

function Help({ text }: { text: string }) {
  return (
    <Tooltip title={text}>
      <IconButton size="small" aria-label={text} sx={{ ml: 0.5, alignSelf: 'center' }} tabIndex={-1}>
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

/** The Move page (spec section 2): register an expense or a supplier invoice with its file. */
export function MovePage() {
  const translate = useTranslate();
  const notify = useNotify();
  const [tab, setTab] = useState<MoveType>(() => (localStorage.getItem(LAST_TAB_KEY) === 'invoice' ? 'invoice' : 'expense'));
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  // The company-scoped supplier search (spec section 7, POST /odoo/providers/search): the providers' declared action.
  const searchProviders = useCallback(
    (body: { companyId: number; name?: string; vat?: string }) => dataProvider.action<Provider[]>('providers', 'search', { body }),
    [dataProvider],
  );
  const queryClient = useQueryClient();
  // The user's companies and the chosen company's suppliers: reference lists read once, shared with other screens.
  const companiesQuery = useReferenceList<Company>('companies');
  const companies = useMemo(() => companiesQuery.data ?? [], [companiesQuery.data]);
  const [chosenCompany, setCompanyId] = useState<number | ''>(() => Number(localStorage.getItem(LAST_COMPANY_KEY)) || '');
  // The remembered company while the list loads; then it if it is still one of the user's, else the only one.
  const companyId = !companiesQuery.data || companies.some((one) => one.id === chosenCompany) ? chosenCompany : companies.length === 1 ? companies[0].id : '';
  const [projectId, setProjectId] = useState<number | ''>('');
  const providersQuery = useReferenceList<Provider>('providers', companyId);
  const providers = useMemo(() => providersQuery.data ?? [], [providersQuery.data]);
  const [provider, setProvider] = useState<Provider | null>(null);
  const [concept, setConcept] = useState('');
  const [amount, setAmount] = useState('');
  const [paymentMethod, setPaymentMethod] = useState('');
  const [paymentStatus, setPaymentStatus] = useState<'paid' | 'unpaid'>('paid');
  const [date, setDate] = useState(isoDay(new Date()));
  const [comment, setComment] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [reading, setReading] = useState(false);
  const [touched, setTouched] = useState(false);
  // Fields filled by the extraction stay marked until the user edits them (issue 8).
  const [fromAi, setFromAi] = useState<Set<AiField>>(new Set());
  const fileInput = useRef<HTMLInputElement>(null);
  const cameraInput = useRef<HTMLInputElement>(null);
  const touchScreen = useMediaQuery('(pointer: coarse)');
  const edited = (field: AiField) => setFromAi((current) => (current.has(field) ? new Set([...current].filter((one) => one !== field)) : current));
  const aiMark = (field: AiField) => (fromAi.has(field) ? { focused: true, color: 'secondary' as const } : {});

  useEffect(() => {
    if (companiesQuery.error) notify(errorMessage(companiesQuery.error), { type: 'error' });
  }, [companiesQuery.error, notify]);

  useEffect(() => {
    if (companyId) localStorage.setItem(LAST_COMPANY_KEY, String(companyId));
  }, [companyId]);
  useEffect(() => {
    if (providersQuery.error) notify(errorMessage(providersQuery.error), { type: 'error' });
  }, [providersQuery.error, notify]);

  // The document reading (POST /ocr/move/), a named action of moves.
  const ocr = useMutation({
    mutationFn: async (document: File) => dataProvider.action<{ result: string }>('moves', 'read', { body: { file: await readAsDataUrl(document) } }),
  });
  // The creation keeps its own request (POST /odoo/moves/create, the spec's payload): it reports the upload's
  // progress, which fetch (and so the dataProvider) cannot. The move lists are stale afterwards.
  const creation = useMutation({
    mutationFn: (body: Record<string, unknown>) => postWithProgress('/odoo/moves/create', body, setProgress),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['moves'] }),
  });

  // The company's suppliers come as one list of at most PROVIDER_LIST_LIMIT; when it is full, what the user types is
  // also searched on the server, so a supplier past that list is still found.
  const [typed, setTyped] = useState('');
  const [searched, setSearched] = useState<Provider[]>([]);
  useEffect(() => {
    if (!companyId || providers.length < PROVIDER_LIST_LIMIT || typed.trim().length < 2) return;
    const timer = setTimeout(() => {
      searchProviders({ companyId, name: typed.trim() })
        .then(setSearched)
        .catch(() => undefined);
    }, 300);
    return () => clearTimeout(timer);
  }, [companyId, providers.length, typed, searchProviders]);
  const supplierOptions = useMemo(() => {
    const known = new Set(providers.map((one) => one.id));
    return [...providers, ...searched.filter((one) => !known.has(one.id))];
  }, [providers, searched]);

  const company = companies.find((one) => one.id === companyId);
  const projects = useMemo(() => company?.projects ?? [], [company]);
  const dateOk = isWithinTwoYears(date);
  const amountOk = amount.trim() !== '' && Number(amount.replace(',', '.')) > 0;
  const canSend = Boolean(companyId) && Boolean(file) && (tab === 'invoice' || Boolean(paymentMethod)) && progress === null;

  function changeTab(next: MoveType) {
    setTab(next);
    localStorage.setItem(LAST_TAB_KEY, next);
  }

  async function readWithAi() {
    if (!file) return;
    setReading(true);
    try {
      const json = await ocr.mutateAsync(file);
      const fields = JSON.parse(json.result) as { importe?: number | string; date?: string; provider?: string; concept?: string; vat?: string };
      const filled = new Set<AiField>();
      if (fields.importe !== undefined && fields.importe !== '') {
        setAmount(String(fields.importe));
        filled.add('amount');
      }
      if (fields.date) {
        setDate(slashesToDashes(fields.date));
        filled.add('date');
      }
      if (fields.concept) {
        setConcept(fields.concept);
        filled.add('concept');
      }
      // The supplier: by the tax id read from the document when there is one (exact where names differ), then by
      // name; the first search that finds one wins.
      const searches = [
        ...(fields.vat && vatCore(fields.vat).length >= 8 ? [{ vat: fields.vat }] : []),
        ...(fields.provider ? supplierSearchTerms(fields.provider).map((name) => ({ name })) : []),
      ];
      const company = companyId;
      if (company) {
        for (const search of searches) {
          const found = await searchProviders({ companyId: company, ...search });
          if (found[0]) {
            setProvider(found[0]);
            filled.add('provider');
            break;
          }
        }
      }
      setFromAi(filled);
    } catch (error) {
      console.error(error);
      notify('app.move.aiError', { type: 'error' });
    } finally {
      setReading(false);
    }
  }

  async function send() {
    setTouched(true);
    if (!canSend || !company || !file) return;
    if (!amountOk) return;
    if (!dateOk) {
      notify('app.move.incorrectDate', { type: 'warning' });
      return;
    }
    const project = projects.find((one) => one.id === projectId);
    const setting = (owner: { facturas: Setting; gastos: Setting }) => ({ expenses: owner.gastos, invoices: owner.facturas });
    try {
      setProgress(0);
      const data = await readAsDataUrl(file);
      await creation.mutateAsync({
        company_data: setting(company),
        project: project ? { id: project.id, ...setting(project) } : null,
        type: tab,
        partner_id: provider?.id ?? null,
        date,
        amount: Number(amount.replace(',', '.')),
        concept: concept.trim(),
        description: concept.trim(),
        comment: comment.trim(),
        company_id: company.id,
        paymentMethod: tab === 'expense' ? paymentMethod : null,
        paymentStatus: tab === 'invoice' ? paymentStatus : null,
        file: { name: file.name, data },
      });
      notify('app.move.created', { type: 'success', messageArgs: { concept: concept.trim() } });
      // Everything but company and project is cleared (spec sections 2 and 4).
      setProvider(null);
      setPaymentMethod('');
      setPaymentStatus('paid');
      setConcept('');
      setAmount('');
      setDate(isoDay(new Date()));
      setFile(null);
      setComment('');
      setTouched(false);
      setFromAi(new Set());
      if (fileInput.current) fileInput.current.value = '';
    } catch (error) {
      const message = errorMessage(error);
      notify(message === FILE_TOO_LARGE ? 'app.move.fileTooLarge' : message, { type: 'error' });
    } finally {
      setProgress(null);
    }
  }

  const required = translate('app.move.required');
  return (
    <Paper sx={{ mt: 2, p: { xs: 2, sm: 3 }, maxWidth: 760 }} data-testid="move-page">
      <Tabs value={tab} onChange={(_, value) => changeTab(value)} sx={{ mb: 2 }}>
        <Tab value="expense" label={translate('app.move.tabs.expense')} data-testid="tab-expense" />
        <Tab value="invoice" label={translate('app.move.tabs.invoice')} data-testid="tab-invoice" />
      </Tabs>
      <Box sx={{ display: 'grid', gap: 2 }}>
        <Row help={translate('app.move.help.company')}>
          <TextField select fullWidth required label={translate('app.move.fields.company')} value={companyId} onChange={(event) => { setCompanyId(Number(event.target.value)); setProjectId(''); setSearched([]); setProvider(null); }} error={touched && !companyId} helperText={touched && !companyId ? required : ' '} inputProps={{ 'data-testid': 'company' }}>
            {companies.map((one) => <MenuItem key={one.id} value={one.id}>{one.name}</MenuItem>)}
          </TextField>
        </Row>
        <Row help={translate('app.move.help.project')}>
          <TextField select fullWidth label={translate('app.move.fields.project')} value={projectId} onChange={(event) => setProjectId(Number(event.target.value) || '')} disabled={!companyId}>
            <MenuItem value="">{translate('app.move.noProject')}</MenuItem>
            {projects.map((one) => <MenuItem key={one.id} value={one.id}>{one.name}</MenuItem>)}
          </TextField>
        </Row>
        <Row help={translate('app.move.help.supplier')}>
          <Autocomplete
            options={supplierOptions}
            value={provider}
            onInputChange={(_, text, reason) => {
              if (reason === 'input') setTyped(text);
            }}
            onChange={(_, value) => { setProvider(value); edited('provider'); }}
            getOptionLabel={(option) => option.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            disabled={!companyId}
            renderInput={(params) => <TextField {...params} label={translate('app.move.fields.supplier')} {...aiMark('provider')} helperText={fromAi.has('provider') ? translate('app.move.fromAi') : undefined} inputProps={{ ...params.inputProps, 'data-testid': 'supplier' }} />}
          />
        </Row>
        <Row help={translate('app.move.help.concept')}>
          <TextField fullWidth label={translate('app.move.fields.concept')} value={concept} onChange={(event) => { setConcept(event.target.value); edited('concept'); }} {...aiMark('concept')} helperText={fromAi.has('concept') ? translate('app.move.fromAi') : undefined} inputProps={{ maxLength: 500, 'data-testid': 'concept' }} />
        </Row>
        <Row help={translate('app.move.help.amount')}>
          <TextField fullWidth required type="number" label={translate('app.move.fields.amount')} value={amount} onChange={(event) => { setAmount(event.target.value); edited('amount'); }} {...aiMark('amount')} error={touched && !amountOk} helperText={touched && !amountOk ? required : fromAi.has('amount') ? translate('app.move.fromAi') : ' '} inputProps={{ min: 0, step: '0.01', 'data-testid': 'amount' }} />
        </Row>
        {tab === 'expense' ? (
          <Row help={translate('app.move.help.paymentMethod')}>
            <TextField select fullWidth required label={translate('app.move.fields.paymentMethod')} value={paymentMethod} onChange={(event) => setPaymentMethod(event.target.value)} error={touched && !paymentMethod} helperText={touched && !paymentMethod ? required : ' '} inputProps={{ 'data-testid': 'payment-method' }}>
              {PAYMENT_METHODS.map((one) => <MenuItem key={one} value={one}>{translate(`app.move.paymentMethods.${one}`)}</MenuItem>)}
            </TextField>
          </Row>
        ) : (
          <Row help={translate('app.move.help.paymentStatus')}>
            <TextField select fullWidth required label={translate('app.move.fields.paymentStatus')} value={paymentStatus} onChange={(event) => setPaymentStatus(event.target.value as 'paid' | 'unpaid')}>
              <MenuItem value="paid">{translate('app.moves.payment.paid')}</MenuItem>
              <MenuItem value="unpaid">{translate('app.moves.payment.unpaid')}</MenuItem>
            </TextField>
          </Row>
        )}
        <Row help={translate('app.move.help.date')}>
          <TextField fullWidth required type="date" label={translate('app.move.fields.date')} value={date} onChange={(event) => { setDate(event.target.value); edited('date'); }} {...aiMark('date')} error={touched && !dateOk} helperText={touched && !dateOk ? translate('app.move.incorrectDate') : fromAi.has('date') ? translate('app.move.fromAi') : ' '} slotProps={{ inputLabel: { shrink: true } }} inputProps={{ 'data-testid': 'date' }} />
        </Row>
        <Row help={translate('app.move.help.file')}>
          <Box sx={{ border: '2px dashed', borderColor: touched && !file ? 'error.main' : 'divider', borderRadius: 1, p: 2, display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}
            onDragOver={(event) => event.preventDefault()}
            onDrop={(event) => { event.preventDefault(); const dropped = event.dataTransfer.files[0]; if (dropped) setFile(dropped); }}
          >
            <Button variant="outlined" startIcon={<AttachFileIcon />} onClick={() => fileInput.current?.click()}>{translate('app.move.chooseFile')}</Button>
            <input ref={fileInput} type="file" hidden accept="application/pdf,image/*" onChange={(event) => setFile(event.target.files?.[0] ?? null)} data-testid="file-input" />
            {/* On a phone the camera opens straight away; a computer keeps the file picker above. */}
            {touchScreen && (
              <Button variant="outlined" startIcon={<PhotoCameraIcon />} onClick={() => cameraInput.current?.click()} data-testid="take-photo">{translate('app.move.takePhoto')}</Button>
            )}
            <input ref={cameraInput} type="file" hidden accept="image/*" capture="environment" onChange={(event) => setFile(event.target.files?.[0] ?? null)} data-testid="camera-input" />
            <Typography variant="body2" data-testid="file-name" sx={{ flex: 1, minWidth: 160 }}>
              {file ? `${file.name} (${file.type || translate('app.move.unknownType')})` : translate('app.move.noFile')}
            </Typography>
            <Button startIcon={<AutoAwesomeIcon />} disabled={!file || reading} onClick={readWithAi} data-testid="ai-button">{translate('app.move.ai')}</Button>
          </Box>
          {reading && (
            <Box sx={{ mt: 1 }} role="status" data-testid="ai-reading">
              <LinearProgress aria-label={translate('app.move.reading')} />
              <Typography variant="caption" color="text.secondary">{translate('app.move.reading')}</Typography>
            </Box>
          )}
        </Row>
        <Row help={translate('app.move.help.comment')}>
          <TextField fullWidth multiline rows={5} label={translate('app.move.fields.comment')} value={comment} onChange={(event) => setComment(event.target.value)} inputProps={{ maxLength: 10000 }} />
        </Row>
        {progress !== null && <LinearProgress variant="determinate" value={Math.round(progress * 100)} aria-label={translate('app.move.uploading')} />}
        {!companies.length && <Alert severity="info">{translate('app.move.noCompanies')}</Alert>}
        <Box>
          <Button variant="contained" startIcon={<SendIcon />} disabled={!canSend} onClick={send} data-testid="send">{translate('app.move.send')}</Button>
        </Box>
      </Box>
    </Paper>
  );
}
