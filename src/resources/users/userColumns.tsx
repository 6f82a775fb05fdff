import type { Cells } from '../generic/columns';
import { CompaniesCell, UserName } from './UserCells';
import { UserRowActions } from './UserRowActions';
import type { Company, UserRecord } from './userRecords';

/**
 * The users list's own cells (issue 53): its columns, their order, headers and sorting are users.resource.ts's `list`
 * fields; these say how they read (the whole name, the companies' names, not the company filter's header) and add
 * the actions column, for those who may manage users.
 */
export function userCells({ companies, canManage, onEdit, onDelete }: { companies: Company[]; canManage: boolean; onEdit: (user: UserRecord) => void; onDelete: (user: UserRecord) => void }): Cells {
  return {
    lastName: { render: (record) => <UserName user={record as unknown as UserRecord} /> },
    companies: { label: 'app.users.fields.companies', children: <CompaniesCell companies={companies} /> },
    actions: canManage ? { label: 'app.users.fields.actions', align: 'right', children: <UserRowActions onEdit={onEdit} onDelete={onDelete} /> } : undefined,
  };
}
