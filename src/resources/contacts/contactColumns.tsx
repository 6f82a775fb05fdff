import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { safeWebUrl } from '../../../shared/domain/links';
import { breakableEmail } from '../../custom/tableText';
import type { Cells } from '../generic/columns';

/** A many2one's name ('' when unset). */
export const second = (pair: unknown) => (Array.isArray(pair) ? String(pair[1]) : '');

/** A web address as a person reads it in a list: without its scheme, "www." and a final slash ("linkedin.com/in/ana"). */
export function shortWebAddress(text: string): string {
  return text.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^www\./i, '').replace(/\/$/, '');
}

export function Website({ record }: { record: Record<string, unknown> }) {
  const url = safeWebUrl(record.website);
  const text = String(record.website || '');
  if (!url) return text;
  return (
    <Link
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      title={text}
      data-testid="contact-website-link"
      onClick={(event) => event.stopPropagation()}
      sx={{ display: 'inline-block', maxWidth: '9em', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', verticalAlign: 'top' }}
    >
      {shortWebAddress(text)}
    </Link>
  );
}

export function Categories({ record }: { record: Record<string, unknown> }) {
  return (
    <Stack component="span" direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
      {((record.category_id as string[]) ?? []).map((category) => (
        <Chip key={category} component="span" label={category} title={category} size="small" />
      ))}
    </Stack>
  );
}

/**
 * The contacts list's own cells (issue 53): its columns, their order, headers and sorting are contacts.resource.ts's
 * `list` fields; these say how some of them read (a name of a pair, links, chips), and the company's header, which is
 * not its filter's ("company owner").
 */
export const CONTACT_CELLS: Cells = {
  x_studio_owner_employee: { render: (record) => second(record.x_studio_owner_employee) },
  company_id: { label: 'app.contacts.fields.company', render: (record) => second(record.company_id) },
  email: {
    render: (record) => (record.email ? <Link href={`mailto:${record.email}`} onClick={(event) => event.stopPropagation()}>{breakableEmail(String(record.email))}</Link> : ''),
  },
  website: { render: (record) => <Website record={record} /> },
  category_id: { render: (record) => <Categories record={record} /> },
};
