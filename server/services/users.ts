/**
 * The console's users and invitations (spec section 7, issues 15, 16 and 29), in the app database: who may see, change,
 * delete or invite whom. The routes (server/routes/users.ts) have parsed the request and checked its permission; this
 * module applies the rules that depend on the records (companies shared, god accounts, the last administrator, versions)
 * and answers the rows, or throws the HttpError the route answers.
 */
import { GOD, hasAnyPermission, hasPermission, USERS_VIEW_PERMISSIONS } from '../../shared/domain/permissions';
import { createInvitation } from '../auth/invitations';
import type { Config } from '../config';
import { FOLD_FUNCTION } from '../db/fold';
import type { Sql, SqlDatabase } from '../db/sql';
import { administratorsAfter, findUserByEmail, findUserById, findVersionedUser, VERSION_BUMP, withAdministratorsLock, type AppUser, type VersionedUser } from '../db/users';
import type { CompanyAccess } from '../erp/companies';
import { HttpError } from '../http-error';
import type { Mailer } from '../mail';
import { invitationMail } from '../mail/invitation';
import { filterKeys } from '../../shared/resources/filters';
import { resourceNamed } from '../../shared/resources/registry';
import { readFields, rowKeys, rowOf, type BespokeRow, type ReadRecord } from '../../shared/resources/rows';
import { sortableFields, sourceOf } from '../../shared/resources/types';

const isAdmin = (user: Pick<AppUser, 'role'>) => user.role === 'admin';
const isGod = (user: Pick<AppUser, 'permissions'>) => user.permissions.includes(GOD);
/** Issue 15: an account holding god is changed, renamed or deleted only by a god holder. */
const GOD_ACCOUNT_CHANGE = 'users.godChange';
const GOD_ACCOUNT_DELETE = 'users.godDelete';
type GodRefusal = typeof GOD_ACCOUNT_CHANGE | typeof GOD_ACCOUNT_DELETE;

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

/** The users' declaration (shared/resources/users.resource.ts): its fields are the rows, their sources the table's columns. */
const USERS = resourceNamed('users')!;

/**
 * What users.resource.ts cannot say: the version an edit sends back (a column of its own beside the declared ones),
 * what a holder of moves.list alone sees of each user (who picks uploaders: names and e-mail), how the name filter
 * looks in both names, and `company`, the companies filter's earlier name.
 */
export const USER_BESPOKE: BespokeRow<ReadRecord> = { computed: { version: { from: ['version'], value: (row) => Number(row.version) } } };
const PICKER_KEYS = ['id', 'firstName', 'lastName', 'email'];
const USER_FILTERS_BESPOKE: Readonly<Record<string, (value: unknown) => [string, unknown]>> = {
  name: (value) => [`${FOLD_FUNCTION}(first_name || ' ' || last_name) ILIKE ${FOLD_FUNCTION}(?)`, `%${escapeLike(String(value))}%`],
};

/** The table's columns a user's row is read from. */
const USER_COLUMNS = readFields(USERS, USER_BESPOKE);

/** A user as answered: at least who they are (the declared fields' values, as users.resource.ts types them). */
type UserAnswer = Pick<AppUser, 'id' | 'firstName' | 'lastName' | 'email'> & Record<string, unknown>;

/** The user list's row for those who may see users (spec section 3, User), with the version an edit sends back. */
function userRow(user: AppUser & { version: number }): UserAnswer {
  return Object.fromEntries(rowKeys(USERS, USER_BESPOKE).map((key) => [key, user[key as keyof typeof user]])) as UserAnswer;
}

/** The columns of a changed row, for its answer (userRow): each under its row key. */
const ROW_RETURNING = ['id', ...rowKeys(USERS, USER_BESPOKE).slice(1).map((key) => (sourceOf(USERS, key) === key ? key : `${sourceOf(USERS, key)} AS "${key}"`))].join(', ');

/** The SQL each sortable field of the users declaration sorts by (text as the default order compares it, by lower case). */
export const SORT_COLUMNS: Readonly<Record<string, string>> = Object.fromEntries(
  sortableFields(USERS).map((name) => [name, ['text', 'email'].includes(USERS.fields[name].type) ? `lower(${sourceOf(USERS, name)})` : sourceOf(USERS, name)]),
);

/**
 * The WHERE clauses of a users search's declared filters (`?` for the value; `company` read as `companyId`), in the
 * declaration's order: a text contains (accents and case ignored as in every list, 'jose' finds José:
 * server/db/fold.ts), a list holds the id.
 */
export function userFilterClauses(search: Record<string, unknown>): [string, unknown][] {
  const filters: Record<string, unknown> = { ...search, companyId: search.company ?? search.companyId };
  return filterKeys(USERS)
    .filter(({ key }) => Boolean(filters[key]))
    .map(({ key, name, field }): [string, unknown] => {
      const value = filters[key];
      const column = sourceOf(USERS, name);
      if (USER_FILTERS_BESPOKE[key]) return USER_FILTERS_BESPOKE[key](value);
      if (field.filter === 'contains') return [`${FOLD_FUNCTION}(${column}) ILIKE ${FOLD_FUNCTION}(?)`, `%${escapeLike(String(value))}%`];
      return [field.type === 'references' ? `? = ANY(${column})` : `${column} = ?`, value];
    });
}

const DEFAULT_ORDER = 'lower(first_name), lower(last_name), id';

/** A search body once parsed: the declared filters (users.resource.ts), `company`, the page and the sort asked for. */
export type UserSearch = Record<string, unknown> & {
  company?: unknown;
  companyId?: unknown;
  pageNumber: number;
  numberOfRecords: number;
  sort?: { field: string; order: string } | null;
};

/** ORDER BY of a search: a whitelisted column (never the request's text) then id, in the direction asked. */
function orderBy(sort: UserSearch['sort']): string {
  if (!sort) return DEFAULT_ORDER;
  const direction = sort.order.toLowerCase() === 'desc' ? 'DESC' : 'ASC';
  return `${SORT_COLUMNS[sort.field]} ${direction}, id ${direction}`;
}

interface Row {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  permissions: string[];
  companies: number[];
  active: boolean;
  version: number;
  total: number | string;
}

interface PendingRow {
  id: number;
  email: string;
  permissions: string[];
  companies: number[];
  expires_at: string | Date;
  created_at: string | Date;
  invited_by: number | null;
  inviter_email: string | null;
  inviter_name: string | null;
}

const invitationOf = (row: PendingRow) => ({
  id: row.id,
  email: row.email,
  permissions: row.permissions,
  companies: row.companies,
  createdAt: new Date(row.created_at).toISOString(),
  expiresAt: new Date(row.expires_at).toISOString(),
  invitedBy: row.invited_by === null ? null : { id: row.invited_by, email: row.inviter_email, name: row.inviter_name || row.inviter_email },
});

export interface UsersDeps {
  db: SqlDatabase;
  mailer: Mailer;
  config: Config;
  clock: () => Date;
  companies: CompanyAccess;
}

/** What went wrong on the way, for the route's log (a mail that could not be sent). */
export type LogError = (error: unknown, message: string) => void;

/** The users service: `new UsersService(deps)`, once per app. */
export class UsersService {
  private readonly day: Intl.DateTimeFormat;
  private readonly hour: Intl.DateTimeFormat;

  constructor(private readonly deps: UsersDeps) {
    this.day = new Intl.DateTimeFormat('en-GB', { timeZone: deps.config.timeZone, day: '2-digit', month: '2-digit', year: 'numeric' });
    this.hour = new Intl.DateTimeFormat('en-GB', { timeZone: deps.config.timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  }

  /** 409: the record changed since the client read it; who changed it and when (the server's time zone), to reload. */
  private stale(user: VersionedUser): HttpError {
    const at = user.updatedAt;
    return new HttpError(409, 'users.stale', {
      by: user.updatedBy?.name ?? '',
      date: at ? this.day.format(at) : '',
      time: at ? this.hour.format(at) : '',
      changedAt: at ? at.toISOString() : '',
      version: user.version,
    });
  }

  /** Refuses (400, naming them) companies the ERP does not have or does not give the server. */
  private async mustExistInErp(companies: number[]) {
    if (!companies.length) return;
    const missing = await this.deps.companies.refused(companies);
    if (missing.length) throw new HttpError(400, 'users.companyNotInErp', { companies: missing }, { field: 'companies' });
  }

  /** Of `companies`, those the ERP gives the server; all of them when it gives none (for mustExistInErp to name). */
  private async withinErp(companies: number[]): Promise<number[]> {
    const missing = await this.deps.companies.refused(companies);
    const kept = companies.filter((company) => !missing.includes(company));
    return kept.length ? kept : companies;
  }

  /** A user the requester may manage: sharing a company with them (god: anyone), and existing. */
  private async managedUser(requester: AppUser, id: number): Promise<VersionedUser> {
    const user = await findVersionedUser(this.deps.db, id);
    if (!user || (!isGod(requester) && !user.companies.some((company) => requester.companies.includes(company)))) throw new HttpError(404, 'users.notFound', { id });
    return user;
  }

  /**
   * The users a person may see, paged: with users.view (or permissionsManagement.view) the whole record; with only
   * moves.list, just names and emails. Only users sharing a company with the requester, unless they hold god.
   */
  async search(user: AppUser, filters: UserSearch) {
    const full = hasAnyPermission(user.permissions, USERS_VIEW_PERMISSIONS);
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (clause: string, value: unknown) => {
      params.push(value);
      where.push(clause.replace('?', `$${params.length}`));
    };
    if (!isGod(user)) add('companies && ?::int[]', user.companies);
    for (const [clause, value] of userFilterClauses(filters)) add(clause, value);
    const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
    params.push(filters.numberOfRecords, (filters.pageNumber - 1) * filters.numberOfRecords);
    const rows = await this.deps.db.query<Row>(
      `SELECT id, ${USER_COLUMNS.join(', ')}, count(*) OVER () AS total
       FROM users ${whereSql}
       ORDER BY ${orderBy(filters.sort)} LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    let total = rows.length ? Number(rows[0].total) : 0;
    if (!rows.length && filters.pageNumber > 1) {
      const [count] = await this.deps.db.query<{ total: number | string }>(`SELECT count(*) AS total FROM users ${whereSql}`, params.slice(0, -2));
      total = Number(count.total);
    }
    const users = rows.map((row) => {
      const whole = rowOf(USERS, row as unknown as ReadRecord, USER_BESPOKE);
      return (full ? whole : Object.fromEntries(PICKER_KEYS.map((key) => [key, whole[key]]))) as UserAnswer;
    });
    return { users, total };
  }

  /** Gives or takes away one permission of a user; answers the user's row. */
  async changePermission(requester: AppUser, { userId, permission, value }: { userId: number; permission: string; value: boolean }) {
    const { db } = this.deps;
    const user = await this.managedUser(requester, userId);
    if (value && user.id === requester.id) throw new HttpError(403, 'users.raiseOwn');
    // Nobody hands out what they do not hold themselves (a users.create holder cannot make someone god).
    if (value && !hasPermission(requester.permissions, permission, () => undefined)) throw new HttpError(403, 'users.cannotGrant', { permissions: [permission] });
    // One statement adds or takes away this one permission (never the whole list written back from a copy read
    // earlier): two administrators changing different permissions of one user at once both keep theirs (issue 29).
    // A requester without god never changes an account holding god, even one made god meanwhile.
    const params: unknown[] = [user.id, permission, requester.id];
    const notGod = isGod(requester) ? '' : ` AND NOT ($${params.push(GOD)} = ANY(permissions))`;
    // The guard reads permissions on every request: a change applies to the user's next call.
    if (value) {
      guardGodAccount(requester, user, GOD_ACCOUNT_CHANGE);
      const [row] = await db.query<AppUser & { version: number }>(
        `UPDATE users SET permissions = array_append(permissions, $2), ${VERSION_BUMP}, updated_by = $3
          WHERE id = $1 AND NOT ($2 = ANY(permissions))${notGod} RETURNING ${ROW_RETURNING}`,
        params,
      );
      return row ? userRow(row) : unchanged(db, requester, user.id);
    }
    // Taking one away may leave no administrator: the rule is read and the permission removed in one transaction
    // that holds the administrators' lock, so two administrators demoting each other at once cannot both succeed.
    return withAdministratorsLock(db, async (tx) => {
      const current = await findUserById(tx, user.id);
      if (!current) throw new HttpError(404, 'users.notFound', { id: user.id });
      // The last-administrator rule answers first (as it always has), whoever asks.
      if (current.active && current.permissions.includes(permission)) {
        const refusal = await administratorsAfter(tx, current.id, current.permissions.filter((one) => one !== permission));
        if (refusal) throw new HttpError(409, refusal);
      }
      guardGodAccount(requester, current, GOD_ACCOUNT_CHANGE);
      const [row] = await tx.query<AppUser & { version: number }>(
        `UPDATE users SET permissions = array_remove(permissions, $2), ${VERSION_BUMP}, updated_by = $3
          WHERE id = $1 AND $2 = ANY(permissions)${notGod} RETURNING ${ROW_RETURNING}`,
        params,
      );
      return row ? userRow(row) : unchanged(tx, requester, user.id);
    });
  }

  /** Renames a user and changes their companies (administrators only), at the version the client read when it sends one. */
  async edit(requester: AppUser, id: number, body: { firstName: string; lastName: string; email?: string; companies?: number[]; version?: number }) {
    const user = await this.managedUser(requester, id);
    guardGodAccount(requester, user, GOD_ACCOUNT_CHANGE);
    if (body.version !== undefined && body.version !== user.version) throw this.stale(user);
    if (body.email !== undefined && body.email.trim().toLowerCase() !== user.email.toLowerCase()) throw new HttpError(400, 'users.emailFixed', {}, { field: 'email' });
    const companies = body.companies ? [...new Set(body.companies)].sort((a, b) => a - b) : undefined;
    const changesCompanies = companies && JSON.stringify(companies) !== JSON.stringify([...user.companies].sort((a, b) => a - b));
    if (changesCompanies && !isAdmin(requester)) throw new HttpError(403, 'users.companiesAdminOnly', {}, { field: 'companies' });
    // Like invitations: an administrator without god hands out only their own companies (their own record included).
    if (changesCompanies && !isGod(requester) && companies.some((company) => !user.companies.includes(company) && !requester.companies.includes(company))) {
      throw new HttpError(403, 'users.ownCompaniesOnly', {}, { field: 'companies' });
    }
    // A company the ERP lacks would leave the user's lists silently empty (issue 28): refused, naming it. Those the
    // user already has are left as they are (the ERP check names them to the administrator).
    if (changesCompanies) await this.mustExistInErp(companies.filter((company) => !user.companies.includes(company)));
    // The version is checked by the write itself: of two edits from the same version, the second finds it raised.
    // Companies are written only when they change, so an edit of the names leaves another's change of them alone.
    const params: unknown[] = [user.id, body.firstName, body.lastName, requester.id];
    const setCompanies = changesCompanies ? `, companies = $${params.push(companies)}` : '';
    const sameVersion = body.version === undefined ? '' : ` AND version = $${params.push(body.version)}`;
    const notGod = isGod(requester) ? '' : ` AND NOT ($${params.push(GOD)} = ANY(permissions))`;
    const rows = await this.deps.db.query<{ id: number }>(
      `UPDATE users SET first_name = $2, last_name = $3${setCompanies}, ${VERSION_BUMP}, updated_by = $4 WHERE id = $1${sameVersion}${notGod} RETURNING id`,
      params,
    );
    if (!rows.length) {
      const current = await findVersionedUser(this.deps.db, user.id);
      if (!current) throw new HttpError(404, 'users.notFound', { id: user.id });
      if (body.version !== undefined && current.version !== body.version) throw this.stale(current);
      throw new HttpError(403, GOD_ACCOUNT_CHANGE);
    }
  }

  /** Deletes a user: never oneself, never the last administrator, never a god account for a requester without god. */
  async remove(requester: AppUser, id: number) {
    const user = await this.managedUser(requester, id);
    if (user.id === requester.id) throw new HttpError(409, 'users.deleteSelf');
    // The rule and the deletion in one transaction under the administrators' lock (see changePermission).
    await withAdministratorsLock(this.deps.db, async (tx) => {
      const current = await findUserById(tx, user.id);
      if (!current) throw new HttpError(404, 'users.notFound', { id: user.id });
      if (current.active && (await administratorsAfter(tx, current.id, null))) throw new HttpError(409, 'users.lastAdminDelete');
      guardGodAccount(requester, current, GOD_ACCOUNT_DELETE);
      await writeUnlessGod(tx, requester, current, GOD_ACCOUNT_DELETE, `DELETE FROM users`, []);
    });
  }

  /** Invites an address into companies with permissions, as far as the requester may give them, and mails the link. */
  async invite(requester: AppUser, body: { email: string; companies?: number[]; permissions: string[]; lang?: 'es' | 'en' }, logError: LogError) {
    if (await findUserByEmail(this.deps.db, body.email)) throw new HttpError(409, 'users.exists', { email: body.email }, { field: 'email' });
    // Companies are an administrator's choice; anyone else invites into their own companies, and asking for other
    // ones is refused rather than silently replaced (issue 15): none given, or exactly their own, is what they get.
    const asked = body.companies?.length ? [...new Set(body.companies)] : null;
    if (asked && !isAdmin(requester)) {
      const foreign = asked.filter((company) => !requester.companies.includes(company));
      if (foreign.length) throw new HttpError(403, 'users.inviteForeign', { companies: foreign }, { field: 'companies' });
      if (asked.length !== new Set(requester.companies).size) throw new HttpError(403, 'users.inviteCompaniesAdmin', {}, { field: 'companies' });
    }
    const companies = isAdmin(requester) && asked ? asked : requester.companies;
    if (!isGod(requester) && companies.some((company) => !requester.companies.includes(company))) throw new HttpError(403, 'users.inviteOwnCompanies', {}, { field: 'companies' });
    mustGrant(requester, body.permissions);
    // Companies asked for must exist in the ERP (400 naming the others); the inviter's own, given by default, are
    // given as far as the ERP has them (one it lacks would leave the newcomer's lists short, never silently).
    const given = asked ? companies : await this.withinErp(companies);
    await this.mustExistInErp(given);
    await this.inviteAndMail(requester, { email: body.email, permissions: [...new Set(body.permissions)], companies: given }, body.lang ?? 'es', logError);
  }

  /** A new link (and 24 hours) for an invitation; the previous link of that address stops working. */
  private async inviteAndMail(requester: AppUser, invitation: { email: string; permissions: string[]; companies: number[] }, lang: 'es' | 'en', logError: LogError) {
    const { db, mailer, config, clock } = this.deps;
    const { token, expiresAt } = await createInvitation(db, { ...invitation, invitedBy: requester.id }, clock());
    const link = `${config.publicUrl}/login?inviteToken=${encodeURIComponent(token)}`;
    try {
      await mailer.send(invitationMail({ to: invitation.email, link, expiresAt, inviter: `${requester.firstName} ${requester.lastName}`.trim() || requester.email, lang, timeZone: config.timeZone }));
    } catch (error) {
      logError(error, 'invitation mail not sent');
      await db.query(`DELETE FROM invitations WHERE lower(email) = lower($1) AND used_at IS NULL`, [invitation.email]);
      throw new HttpError(502, 'users.mailFailed');
    }
  }

  /**
   * Invitations not yet accepted nor expired (issue 16: listed with their expiry, sent again or withdrawn). An
   * administrator sees them all; anyone else who manages users, those into companies all of which are theirs. The
   * links `npm run admin:create` printed (for an existing account) are the operator's, not listed here.
   */
  private async pending(requester: AppUser, id?: number): Promise<PendingRow[]> {
    const now = this.deps.clock().toISOString();
    const rows = await this.deps.db.query<PendingRow>(
      `SELECT i.id, i.email, i.permissions, i.companies, i.expires_at, i.created_at, i.invited_by, u.email AS inviter_email,
              trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) AS inviter_name
         FROM invitations i LEFT JOIN users u ON u.id = i.invited_by
        WHERE i.used_at IS NULL AND i.expires_at > $1 AND i.account_id IS NULL ${id === undefined ? '' : 'AND i.id = $2'}
        ORDER BY i.expires_at, i.id`,
      id === undefined ? [now] : [now, id],
    );
    return isAdmin(requester) ? rows : rows.filter((row) => row.companies.every((company) => requester.companies.includes(company)));
  }

  private async onePending(requester: AppUser, id: number): Promise<PendingRow> {
    const [row] = await this.pending(requester, id);
    if (!row) throw new HttpError(404, 'users.invitationNotFound', { id });
    return row;
  }

  async invitations(requester: AppUser) {
    return (await this.pending(requester)).map(invitationOf);
  }

  /** Sends an invitation again with a new link, as long as what it grants is still the requester's to grant. */
  async resend(requester: AppUser, id: number, lang: 'es' | 'en', logError: LogError) {
    const row = await this.onePending(requester, id);
    mustGrant(requester, row.permissions);
    await this.inviteAndMail(requester, { email: row.email, permissions: row.permissions, companies: row.companies }, lang, logError);
    const [renewed] = (await this.pending(requester)).filter((one) => one.email.toLowerCase() === row.email.toLowerCase());
    return invitationOf(renewed);
  }

  async withdraw(requester: AppUser, id: number) {
    const row = await this.onePending(requester, id);
    await this.deps.db.query('DELETE FROM invitations WHERE id = $1 AND used_at IS NULL', [row.id]);
  }
}

/** Refuses (403, naming them) permissions the requester does not hold: nobody hands out what they do not have. */
function mustGrant(requester: AppUser, permissions: string[]) {
  const refused = permissions.filter((permission) => !hasPermission(requester.permissions, permission, () => undefined));
  if (refused.length) throw new HttpError(403, 'users.cannotGrant', { permissions: refused }, { field: 'permissions' });
}

/** Refuses (403) a requester without god who would change or delete an account that holds god. */
function guardGodAccount(requester: AppUser, user: AppUser, key: GodRefusal) {
  if (isGod(user) && !isGod(requester)) throw new HttpError(403, key);
}

/**
 * The write of a guarded change: for a requester without god, the row must still not hold god when written (an
 * account made god meanwhile is refused the same way; one deleted meanwhile is not found).
 */
async function writeUnlessGod(sql: Sql, requester: AppUser, user: AppUser, key: GodRefusal, statement: string, params: unknown[]) {
  const all = [user.id, ...params];
  const guard = isGod(requester) ? '' : ` AND NOT ($${all.push(GOD)} = ANY(permissions))`;
  const rows = await sql.query<{ id: number }>(`${statement} WHERE id = $1${guard} RETURNING id`, all);
  if (rows.length) return;
  if (await findUserById(sql, user.id)) throw new HttpError(403, key);
  throw new HttpError(404, 'users.notFound', { id: user.id });
}

/**
 * Why a one-permission change wrote nothing: the account is gone (404), holds god for a requester without it (403),
 * or already was as asked (its row).
 */
async function unchanged(sql: Sql, requester: AppUser, id: number) {
  const current = await findVersionedUser(sql, id);
  if (!current) throw new HttpError(404, 'users.notFound', { id });
  guardGodAccount(requester, current, GOD_ACCOUNT_CHANGE);
  return userRow(current);
}
