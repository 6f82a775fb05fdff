/**
 * The first administrator of a server without demo accounts (issue 28): `npm run admin:create -- <email>` makes (or
 * promotes) a god account with role admin and no password, and prints an invitation link that sets its password
 * (the embedded sign-in) or simply signs it in (Google). The link is printed to the operator, never mailed or logged.
 *
 * Companies: every company the ERP lets the server read, read through the ERP client at that moment, unless given.
 * A god account with none would see no company's data and, the company choices being the signed-in user's own, could
 * not give any to anyone (itself included); so an ERP that cannot be read stops the command rather than making it so.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { GOD } from '../../shared/domain/permissions';
import type { Sql, SqlDatabase } from '../db/sql';
import type { ErpClient } from '../erp/types';
import { findUserByEmail, insertUser, VERSION_BUMP } from '../db/users';
import { isPublishedPasswordHash } from '../db/seed';
import { createInvitation } from './invitations';
import type { Sessions } from './session';

export const ADMIN_CREATE_ACTION = 'admin:create';
/** The operator token of `npm run odoo:check` asking the running server for the console's accounts. */
export const ODOO_CHECK_ACTION = 'odoo:check';
export const ODOO_CHECK_SUBJECT = 'accounts';

export interface FirstAdminInput {
  email: string;
  firstName?: string;
  lastName?: string;
  /** Unset: every company the ERP has. */
  companies?: number[];
}

export interface FirstAdminResult {
  email: string;
  created: boolean;
  companies: number[];
  /** The account had the published demo password, now removed. */
  demoPasswordRemoved: boolean;
  link: string;
  expiresAt: string;
}

export class FirstAdminError extends Error {
  readonly statusCode = 400;
}

/** The ids of every company the ERP lets the server read; a clear error when it cannot be read. */
export async function erpCompanies(erp: ErpClient): Promise<number[]> {
  let records;
  try {
    records = await erp.searchRead('res.company', [], { fields: ['name'], order: 'id' });
  } catch (error) {
    throw new FirstAdminError(
      `Could not read the ERP's companies (${error instanceof Error ? error.message : String(error)}): make sure the ERP answers, or name the companies with --companies 1,2`,
    );
  }
  if (!records.length) throw new FirstAdminError("The ERP lists no company the server's user can read: give that user its companies in the ERP, or name them with --companies 1,2");
  return records.map((record) => Number(record.id));
}

export async function makeFirstAdmin(db: SqlDatabase, erp: ErpClient, input: FirstAdminInput, settings: { publicUrl: string; now: Date }): Promise<FirstAdminResult> {
  const email = input.email.trim();
  if (!z.email().safeParse(email).success) throw new FirstAdminError(`Not an e-mail address: ${email}`);
  const companies = input.companies?.length ? [...new Set(input.companies)] : await erpCompanies(erp);
  return db.transaction(async (tx: Sql) => {
    const existing = await findUserByEmail(tx, email);
    let id: number;
    let demoPasswordRemoved = false;
    if (existing) {
      id = existing.id;
      // Promoted: god, role admin, active, and the ERP's companies added to its own. A published password must not
      // come with god: it goes now, the link sets a new one. One statement raising the version (no account made the
      // change: updated_by is cleared), so a console edit opened before this is refused rather than undoing it.
      demoPasswordRemoved = await isPublishedPasswordHash(existing.passwordHash);
      const merged = [...new Set([...existing.companies, ...companies])];
      await tx.query(
        `UPDATE users SET role = 'admin', permissions = $2, companies = $3, active = true,
                first_name = coalesce(nullif($4, ''), first_name), last_name = coalesce(nullif($5, ''), last_name),
                password_hash = CASE WHEN $6 THEN NULL ELSE password_hash END, ${VERSION_BUMP}, updated_by = NULL WHERE id = $1`,
        [id, [...new Set([...existing.permissions, GOD])], merged, input.firstName?.trim() ?? '', input.lastName?.trim() ?? '', demoPasswordRemoved],
      );
    } else {
      const user = await insertUser(tx, {
        email,
        firstName: input.firstName?.trim() || email.split('@')[0],
        lastName: input.lastName?.trim() ?? '',
        role: 'admin',
        permissions: [GOD],
        companies,
        active: true,
        passwordHash: null,
      });
      id = user.id;
    }
    const [account] = await tx.query<{ companies: number[] }>('SELECT companies FROM users WHERE id = $1', [id]);
    const { token, expiresAt } = await createInvitation(tx, { email, permissions: [GOD], companies: account.companies, invitedBy: null, accountId: id }, settings.now);
    return {
      email,
      created: !existing,
      companies: account.companies,
      demoPasswordRemoved,
      link: `${settings.publicUrl}/login?inviteToken=${encodeURIComponent(token)}`,
      expiresAt: expiresAt.toISOString(),
    };
  });
}

const body = z
  .object({
    email: z.string().trim().min(1).max(320),
    firstName: z.string().trim().max(100).optional(),
    lastName: z.string().trim().max(100).optional(),
    companies: z.array(z.number().int().positive()).max(1000).optional(),
  })
  .strict();

/**
 * POST /auth/operator/admin: what `npm run admin:create` asks of the server that holds the embedded database (it
 * cannot open it meanwhile). Only with an operator token for that address (signed with the session secret, one
 * minute); hidden from /docs: it is the command's, not the API's.
 */
export async function operatorRoutes(app: FastifyInstance, options: { db: SqlDatabase; erp: ErpClient; sessions: Sessions; publicUrl: string; clock: () => Date }) {
  // POST /auth/operator/accounts: the console's accounts, for `npm run odoo:check` while this server holds the embedded
  // database (its employee and company checks, and --journeys, which runs each account's flows). Operator token only.
  app.post('/auth/operator/accounts', { schema: { hide: true }, config: { public: true } }, async (request, reply) => {
    const token = String(request.headers.authorization ?? '').replace(/^bearer\s+/i, '');
    if (!token || !(await options.sessions.verifyOperator(token, ODOO_CHECK_ACTION, ODOO_CHECK_SUBJECT))) return reply.code(401).send({ message: 'Not an operator token for the Odoo check' });
    return options.db.query('SELECT email, first_name AS "firstName", last_name AS "lastName", active, permissions, companies FROM users ORDER BY id');
  });

  app.post('/auth/operator/admin', { schema: { hide: true }, config: { public: true } }, async (request, reply) => {
    const parsed = body.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send({ message: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') });
    const token = String(request.headers.authorization ?? '').replace(/^bearer\s+/i, '');
    if (!token || !(await options.sessions.verifyOperator(token, ADMIN_CREATE_ACTION, parsed.data.email))) return reply.code(401).send({ message: 'Not an operator token for this address' });
    try {
      return await makeFirstAdmin(options.db, options.erp, parsed.data, { publicUrl: options.publicUrl, now: options.clock() });
    } catch (error) {
      if (error instanceof FirstAdminError) return reply.code(400).send({ message: error.message });
      throw error;
    }
  });
}
