import { BooleanField, ReferenceArrayField, useLocaleState, useRecordContext, useResourceContext, useTranslate, type RaRecord } from 'react-admin';
import Link from '@mui/material/Link';
import { formatMoney } from '../../../shared/domain/money';
import { safeWebUrl } from '../../../shared/domain/links';
import type { FieldDeclaration } from '../../../shared/resources/types';

/** Odoo answers false for an empty field. */
function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === false || value === '';
}

function dateText(value: string, locale: string, withTime: boolean): string {
  const tag = locale === 'en' ? 'en-GB' : 'es-ES';
  if (!withTime) {
    // A calendar day: read as that day wherever the browser is.
    const [year, month, day] = value.slice(0, 10).split('-').map(Number);
    return new Date(year, month - 1, day).toLocaleDateString(tag);
  }
  // Odoo's datetimes are UTC without a zone ("2026-01-31 09:30:00").
  const date = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString(tag);
}

/**
 * One declared field of the record in context, shown by its type: a reference's name, dates in the user's language,
 * booleans as icons, money in its currency, links only for safe schemes. `source` and `label` let react-admin's
 * layouts (SimpleShowLayout, Labeled) name it `resources.<name>.fields.<source>`.
 */
export function GenericField({ source, field, record: given }: { source: string; field: FieldDeclaration; label?: string; record?: RaRecord }) {
  const record = useRecordContext({ record: given });
  const resource = useResourceContext();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (!record) return null;
  const value = record[source];
  if (field.type === 'boolean') return <BooleanField source={source} record={record} />;
  if (field.type === 'references' && field.reference) {
    return <ReferenceArrayField source={source} reference={field.reference} record={record} />;
  }
  if (isEmpty(value)) return <span />;
  switch (field.type) {
    case 'reference':
      return <span>{Array.isArray(value) ? String(value[1] ?? value[0]) : String(value)}</span>;
    case 'references':
      return <span>{Array.isArray(value) ? value.join(', ') : String(value)}</span>;
    case 'date':
    case 'datetime':
      return <span>{dateText(String(value), locale, field.type === 'datetime')}</span>;
    case 'money': {
      const currency = Array.isArray(record.currency_id) ? String(record.currency_id[1]) : 'EUR';
      return <span style={{ whiteSpace: 'nowrap' }}>{formatMoney(Number(value), currency, locale)}</span>;
    }
    case 'number':
      return <span>{Number(value).toLocaleString(locale === 'en' ? 'en-GB' : 'es-ES')}</span>;
    case 'choice':
      return <span>{translate(`resources.${resource}.choices.${source}.${String(value)}`, { _: String(value) })}</span>;
    case 'email':
      return (
        <Link href={`mailto:${String(value)}`} rel="noopener noreferrer" onClick={(event) => event.stopPropagation()}>
          {String(value)}
        </Link>
      );
    case 'url': {
      const href = safeWebUrl(value);
      return href ? (
        <Link href={href} target="_blank" rel="noopener noreferrer" onClick={(event) => event.stopPropagation()}>
          {String(value)}
        </Link>
      ) : (
        <span>{String(value)}</span>
      );
    }
    default:
      return <span>{String(value)}</span>;
  }
}
