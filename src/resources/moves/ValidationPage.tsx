import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ListPaginationContext, Pagination, useLocaleState, useNotify, useStore, useTranslate, type ListPaginationContextValue } from 'react-admin';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Snackbar from '@mui/material/Snackbar';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { errorMessage } from '../../providers/http';
import { ListSkipTarget } from '../../custom/SkipToList';
import { usePhone } from '../../custom/usePhone';
import { QueueCards, QueueTable, useMoveName } from './ValidationTable';
import { ValidationDialog } from './ValidationDialog';
import { useDecisions, useJournals, useQueuePage, type Outcome, type QueueMove, type QueuePage, type Refusal, type Tab as TabName } from './validationQueue';

const ROWS_PER_PAGE = [10, 25, 50, 100];
const ROW_SELECTOR = '[data-testid="validation-row"], [data-testid="validation-card"]';
const SKELETON_ROWS = 5;
const VISUALLY_HIDDEN = { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap', margin: '-1px', padding: 0, border: 0 } as const;

/** A load that failed: what could not be read, why in the user's language, and a retry. Never "nothing pending". */
function LoadProblem({ title, error, onRetry }: { title: string; error: unknown; onRetry: () => void }) {
  const translate = useTranslate();
  return (
    <Alert
      severity="error"
      role="alert"
      sx={{ mt: 2 }}
      data-testid="validation-load-error"
      action={<Button color="inherit" size="small" onClick={onRetry} data-testid="validation-retry">{translate('app.list.retry')}</Button>}
    >
      <AlertTitle>{title}</AlertTitle>
      {errorMessage(error, translate)}
    </Alert>
  );
}

/** Why the server would not decide a move: its refusal is worded in the user's language (Accept-Language). */
function useRefusalReason() {
  const translate = useTranslate();
  return (refusal: Refusal) => {
    if (refusal.error !== undefined) return errorMessage(refusal.error, translate);
    if (refusal.statusCode === 404) return translate('app.validation.reasons.notFound');
    return errorMessage({ status: refusal.statusCode, body: { message: refusal.message } }, translate);
  };
}

/** The moves of a decision of several that the server refused, each named with its reason; the others stand. */
function Refusals({ outcome, onClose }: { outcome: Outcome; onClose: () => void }) {
  const translate = useTranslate();
  const name = useMoveName();
  const reason = useRefusalReason();
  const total = outcome.decided.length + outcome.refused.length;
  return (
    <Alert severity="error" role="alert" sx={{ mt: 2 }} onClose={onClose} slotProps={{ closeButton: { title: translate('app.validation.closeProblems') } }} data-testid="validation-refusals">
      <AlertTitle>{translate(outcome.validate ? 'app.validation.partial.validate' : 'app.validation.partial.reject', { done: outcome.decided.length, total })}</AlertTitle>
      <Box component="ul" sx={{ m: 0, pl: 2 }}>
        {outcome.refused.map((refusal) => (
          <li key={refusal.move.id} data-testid="validation-refused">{name(refusal.move)}: {reason(refusal)}</li>
        ))}
      </Box>
    </Alert>
  );
}

/** The selected rows' bar: how many, and the decision over all of them. */
function BulkBar({ count, onValidate, onReject, onClear }: { count: number; onValidate: () => void; onReject: () => void; onClear: () => void }) {
  const translate = useTranslate();
  return (
    <Box
      role="region"
      aria-label={translate('app.validation.selected', { smart_count: count })}
      sx={{ mt: 1, px: 1, py: 0.5, display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, bgcolor: 'action.selected', borderRadius: 1 }}
      data-testid="validation-bulk"
    >
      <Typography variant="body2" sx={{ fontWeight: 500 }} data-testid="validation-selected">{translate('app.validation.selected', { smart_count: count })}</Typography>
      <Box sx={{ flex: 1 }} />
      <Button size="small" onClick={onClear}>{translate('app.validation.clearSelection')}</Button>
      <Button size="small" variant="outlined" color="error" sx={{ color: 'error.dark', borderColor: 'error.dark' }} startIcon={<CloseIcon />} onClick={onReject} data-testid="bulk-reject">{translate('app.validation.rejectSelected')}</Button>
      <Button size="small" variant="contained" color="success" startIcon={<CheckIcon />} onClick={onValidate} data-testid="bulk-validate">{translate('app.validation.validateSelected')}</Button>
    </Box>
  );
}

/** react-admin's pager over a tab's queue, its numbers as the user's language writes them. */
function QueuePager({ page, perPage, count, lowerBound, setPage, setPerPage }: { page: number; perPage: number; count: number; lowerBound: boolean; setPage: (page: number) => void; setPerPage: (perPage: number) => void }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const value = useMemo<ListPaginationContextValue>(
    () => ({ page, perPage, total: count, setPage, setPerPage, isPending: false, isLoading: false, hasNextPage: page * perPage < count, hasPreviousPage: page > 1, resource: 'moves' }),
    [page, perPage, count, setPage, setPerPage],
  );
  const labelDisplayedRows = useCallback(
    ({ from, to, count: total }: { from: number; to: number; count: number }) => {
      const number = countFormat(locale);
      return lowerBound
        ? translate('app.list.moreThan', { from: number.format(from), to: number.format(to), total: number.format(total) })
        : translate('ra.navigation.page_range_info', { offsetBegin: number.format(from), offsetEnd: number.format(to), total: number.format(total) });
    },
    [translate, locale, lowerBound],
  );
  return (
    <ListPaginationContext.Provider value={value}>
      <Pagination rowsPerPageOptions={ROWS_PER_PAGE} {...({ labelDisplayedRows } as object)} data-testid="validation-pager" />
    </ListPaginationContext.Provider>
  );
}

/** Counts as the language writes them, grouped from 1.000 as amounts are (es-ES alone would leave 1234). */
const countFormat = (locale: string) => new Intl.NumberFormat(locale === 'es' ? 'es-ES' : 'en-US', { useGrouping: 'always' } as Intl.NumberFormatOptions);

/** How many of a tab's moves wait: its total less those decided here and not yet read again. */
function waiting(data: QueuePage | undefined, hidden: ReadonlySet<number>): number | undefined {
  return data ? Math.max(0, data.total - data.moves.filter((move) => hidden.has(move.id)).length) : undefined;
}

/**
 * The validation page (spec section 2): moves of the user's journals awaiting a manager, a page at a time per tab
 * (expenses, invoices) with how many wait in each, to validate or reject one by one or the selected rows together.
 */
export function ValidationPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const phone = usePhone();
  const [tab, setTab] = useState<TabName>('expenses');
  const [pages, setPages] = useState<Record<TabName, number>>({ expenses: 1, invoices: 1 });
  const [perPage, setPerPage] = useStore('validation.perPage', 25);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [open, setOpen] = useState<QueueMove | null>(null);
  const [refusals, setRefusals] = useState<Outcome | null>(null);
  const body = useRef<HTMLDivElement>(null);
  /** Where the keyboard's focus goes once a decided row has left: the row now at its place. */
  const focusRow = useRef<number | null>(null);

  const journalsQuery = useJournals();
  const journals = journalsQuery.data;
  const ids = (which: TabName) => (journals ? (which === 'expenses' ? journals.expensesJournals : journals.invoicesJournals).map((pair) => pair[0]) : undefined);
  const queues = { expenses: useQueuePage(ids('expenses'), pages.expenses, perPage), invoices: useQueuePage(ids('invoices'), pages.invoices, perPage) };
  const current = queues[tab];
  const page = pages[tab];

  const onOutcome = useCallback(
    (outcome: Outcome) => {
      if (!outcome.refused.length) return;
      // One move: the spec's message, at success level (section 8); several: which were refused, and why.
      if (outcome.decided.length + outcome.refused.length === 1) notify('app.validation.error', { type: 'success' });
      else setRefusals(outcome);
    },
    [notify],
  );
  const { hidden, validate, reject, refresh } = useDecisions({ onOutcome });

  const data = current.data;
  const moves = (data?.moves ?? []).filter((move) => !hidden.has(move.id));
  const count = waiting(data, hidden);
  const chosen = moves.filter((move) => selected.has(move.id));

  // A page past the end (its moves decided here or elsewhere): the last page that has moves, at once.
  if (data && !current.isPlaceholderData && !data.moves.length && data.total > 0 && page > 1) {
    setPages({ ...pages, [tab]: Math.max(1, Math.ceil(data.total / perPage)) });
  }

  useEffect(() => {
    if (focusRow.current === null) return;
    const rows = body.current?.querySelectorAll<HTMLElement>(ROW_SELECTOR);
    if (rows?.length) rows[Math.min(focusRow.current, rows.length - 1)].focus();
    focusRow.current = null;
  }, [moves]);

  // Stable, so that the rows (memoised) are drawn again only when their own move or selection changes.
  const decide = useCallback(
    (decided: QueueMove[], how: (moves: QueueMove[]) => unknown, fromRow?: QueueMove) => {
      setRefusals(null);
      setSelected((current) => (current.size ? new Set([...current].filter((id) => !decided.some((move) => move.id === id))) : current));
      if (fromRow) {
        const rows = [...(body.current?.querySelectorAll<HTMLElement>(ROW_SELECTOR) ?? [])];
        focusRow.current = Math.max(0, rows.findIndex((row) => row.dataset.move === String(fromRow.id)));
      }
      void how(decided);
    },
    [],
  );
  const onValidate = useCallback((move: QueueMove) => decide([move], validate, move), [decide, validate]);
  const onReject = useCallback((move: QueueMove) => decide([move], reject, move), [decide, reject]);
  const onSelect = useCallback((move: QueueMove, on: boolean) => setSelected((current) => (on ? new Set([...current, move.id]) : new Set([...current].filter((id) => id !== move.id)))), []);
  const onSelectAll = (on: boolean) => setSelected(on ? new Set(moves.map((move) => move.id)) : new Set());
  const goTo = useCallback(
    (next: number) => {
      setSelected(new Set());
      setPages((all) => ({ ...all, [tab]: next }));
    },
    [tab],
  );
  const changePerPage = useCallback(
    (next: number) => {
      setSelected(new Set());
      setPerPage(next);
      setPages({ expenses: 1, invoices: 1 });
    },
    [setPerPage],
  );

  const label = (which: TabName) => {
    const name = translate(`app.validation.tabs.${which}`);
    const many = waiting(queues[which].data, hidden);
    if (many === undefined || queues[which].isError) return name;
    const number = countFormat(locale).format(many);
    return translate('app.validation.tabCount', { name, count: queues[which].data?.totalIsLowerBound ? `${number}+` : number });
  };

  const View = phone ? QueueCards : QueueTable;
  const view = (shown: QueueMove[], skeletons: number) => (
    <>
      <View moves={shown} skeletons={skeletons} selected={selected} onSelect={onSelect} onSelectAll={onSelectAll} onOpen={setOpen} onValidate={onValidate} onReject={onReject} />
      {/* The skeleton says nothing to a screen reader: this does. */}
      {skeletons ? <Box component="span" role="status" sx={VISUALLY_HIDDEN}>{translate('ra.page.loading')}</Box> : null}
    </>
  );

  let content;
  // While the journals load, the skeleton is the list "Skip to the list" leads to (a keyboard user may be there first).
  const loading = (
    <>
      <ListSkipTarget />
      {view([], SKELETON_ROWS)}
    </>
  );
  if (journalsQuery.isError) {
    content = journalsQuery.isFetching ? loading : <LoadProblem title={translate('app.validation.journalsError')} error={journalsQuery.error} onRetry={() => void journalsQuery.refetch()} />;
  } else if (!journals) {
    content = loading;
  } else {
    let queue;
    if (current.isError) {
      queue = current.isFetching ? view([], SKELETON_ROWS) : <LoadProblem title={translate('app.validation.loadError')} error={current.error} onRetry={() => void current.refetch()} />;
    } else if (!current.data || (!moves.length && count)) {
      // Not read yet, or every row shown was decided and the next ones are on their way.
      queue = view([], Math.min(SKELETON_ROWS, count || SKELETON_ROWS));
    } else if (!moves.length) {
      queue = <Alert severity="success" sx={{ mt: 2 }} data-testid="validation-empty">{translate('app.validation.empty')}</Alert>;
    } else {
      queue = (
        <>
          {chosen.length ? (
            <BulkBar count={chosen.length} onValidate={() => decide(chosen, validate)} onReject={() => decide(chosen, reject)} onClear={() => setSelected(new Set())} />
          ) : null}
          {view(moves, 0)}
          <QueuePager page={page} perPage={perPage} count={count ?? 0} lowerBound={Boolean(current.data.totalIsLowerBound)} setPage={goTo} setPerPage={changePerPage} />
        </>
      );
    }
    content = (
      <>
        <Tabs
          value={tab}
          onChange={(_, value: TabName) => {
            setSelected(new Set());
            setTab(value);
          }}
        >
          <Tab value="expenses" label={label('expenses')} data-testid="validation-tab-expenses" />
          <Tab value="invoices" label={label('invoices')} data-testid="validation-tab-invoices" />
        </Tabs>
        <ListSkipTarget />
        {refusals ? <Refusals outcome={refusals} onClose={() => setRefusals(null)} /> : null}
        {queue}
      </>
    );
  }

  return (
    <Paper sx={{ mt: 2, p: { xs: 1, md: 2 }, minWidth: 0 }} data-testid="validation-page">
      <Box ref={body}>{content}</Box>
      {/* The message bar's code (loaded when a first message shows) is loaded with the page: the first decision's
          confirmation must not wait for it. Closed, it draws nothing. */}
      <Snackbar open={false} {...({ keepMounted: true } as object)} />
      <ValidationDialog
        move={open}
        phone={phone}
        onClose={() => setOpen(null)}
        onValidate={(move) => {
          setOpen(null);
          decide([move], validate, move);
        }}
        onReject={(move) => {
          setOpen(null);
          decide([move], reject, move);
        }}
        onCommented={(move) => {
          setOpen(move);
          void refresh();
        }}
      />
    </Paper>
  );
}
