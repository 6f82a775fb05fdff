import { useCallback } from 'react';
import { Button as RaButton, Pagination, useGetResourceLabel, useListContext, useLocaleState, useResourceContext, useTranslate, type PaginationProps } from 'react-admin';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { errorMessage } from '../providers/http';

/**
 * A table's empty state (DataTable's `empty`): react-admin's "No ... found" when the search found nothing, the
 * failure (ListError) when it failed. The filters and tabs around the table stay, so a bad filter can be undone.
 */
export function ListEmpty() {
  const { error } = useListContext();
  return error ? <ListError /> : <ListNoResults />;
}

/**
 * react-admin's "No ... found" (its ListNoResults: the same texts, and a clear-filters button named as the filter form's), with the
 * list's name as it reads inside a sentence: "No se han encontrado pedidos de venta con los filtros actuales", where
 * react-admin wrote the name as a title ("Pedidos de venta").
 */
function ListNoResults() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const resource = useResourceContext() ?? '';
  const { filterValues, setFilters } = useListContext();
  const label = useGetResourceLabel()(resource, 0);
  const name = label.charAt(0).toLocaleLowerCase(locale) + label.slice(1);
  const filtered = Object.keys(filterValues ?? {}).length > 0;
  return (
    <CardContent>
      <Typography variant="body2" data-testid="list-no-results">
        {filtered ? (
          <>
            {translate('ra.navigation.no_filtered_results', { resource, name })}{' '}
            <RaButton onClick={() => setFilters({}, [])} label="app.filters.clear" />
          </>
        ) : (
          translate('ra.navigation.no_results', { resource, name })
        )}
      </Typography>
    </CardContent>
  );
}

/**
 * What a list shows in place of its rows when its search failed: the list's own failure text (spec section 8,
 * 'Error filtering'...) as the title, the server's reason under it ('El ERP no está disponible...', in the user's
 * language; 'No se puede contactar con el servidor' when it could not be reached), and a retry. Without it
 * react-admin shows the table's "No ... found", as if the list were empty.
 */
export function ListError() {
  const translate = useTranslate();
  const { error, refetch, isFetching } = useListContext();
  if (!error) return null;
  // The dataProvider names the list's failure text by its translation key; the reason is the server's own words.
  const key = (error as { message?: string }).message;
  const title = key ? translate(key, { _: key }) : undefined;
  const reason = errorMessage(error, translate);
  return (
    <Alert
      severity="error"
      data-testid="list-error"
      role="alert"
      sx={{ m: 2 }}
      action={
        <Button color="inherit" size="small" disabled={isFetching} onClick={() => void refetch()} data-testid="list-retry">
          {translate('app.list.retry')}
        </Button>
      }
    >
      {title && title !== reason ? <AlertTitle>{title}</AlertTitle> : null}
      {reason}
    </Alert>
  );
}

/**
 * react-admin's pager, shown only over rows that were read: after a failed search there is nothing to count. When the
 * server counted up to its bound and more match (`meta.totalIsLowerBound`), it reads "1-25 of more than 10,000".
 */
export function ListPagination(props: PaginationProps) {
  const { error, meta } = useListContext();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const more = (meta as { totalIsLowerBound?: boolean } | undefined)?.totalIsLowerBound === true;
  const moreThan = useCallback(
    ({ from, to, count }: { from: number; to: number; count: number }) =>
      translate('app.list.moreThan', { from, to, total: new Intl.NumberFormat(locale === 'es' ? 'es-ES' : 'en-US').format(count) }),
    [translate, locale],
  );
  if (error) return null;
  // MUI's TablePagination takes the label; react-admin passes the props it does not know on to it, after its own.
  return more ? <Pagination {...props} {...({ labelDisplayedRows: moreThan } as PaginationProps)} /> : <Pagination {...props} />;
}
