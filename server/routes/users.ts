/**
 * POST /users/search (spec section 7): the users a person may see, paged. With users.view (or the menu's
 * permissionsManagement.view) the whole record; with only moves.list, just names and emails, for the move
 * list's uploaded-by select. Only users sharing a company with the requester, unless the requester holds god.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { GOD, hasAnyPermission, USERS_VIEW_PERMISSIONS } from '../../src/domain/permissions';
import type { Sql } from '../erp/embedded/sql';

const searchSchema = z.object({
  name: z.string().trim().max(200).nullish(),
  email: z.string().trim().max(320).nullish(),
  company: z.union([z.number().int().positive(), z.null()]).optional(),
  companyId: z.union([z.number().int().positive(), z.null()]).optional(),
  pageNumber: z.number().int().min(1).max(1_000_000).default(1),
  numberOfRecords: z.number().int().min(1).max(1000).default(25),
});

interface Row {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  permissions: string[];
  companies: number[];
  active: boolean;
  total: number | string;
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

export async function userRoutes(app: FastifyInstance, { db }: { db: Sql }) {
  app.post('/users/search', { config: { permission: [...USERS_VIEW_PERMISSIONS, 'moves.list'] } }, async (request) => {
    const filters = searchSchema.parse(request.body ?? {});
    const user = request.user;
    const full = hasAnyPermission(user.permissions, USERS_VIEW_PERMISSIONS);
    const everyone = user.permissions.includes(GOD);
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (clause: string, value: unknown) => {
      params.push(value);
      where.push(clause.replace('?', `$${params.length}`));
    };
    if (!everyone) add('companies && ?::int[]', user.companies);
    if (filters.name) add("(first_name || ' ' || last_name) ILIKE ?", `%${escapeLike(filters.name)}%`);
    if (filters.email) add('email ILIKE ?', `%${escapeLike(filters.email)}%`);
    const company = filters.company ?? filters.companyId;
    if (company) add('? = ANY(companies)', company);
    params.push(filters.numberOfRecords, (filters.pageNumber - 1) * filters.numberOfRecords);
    const rows = await db.query<Row>(
      `SELECT id, email, first_name, last_name, role, permissions, companies, active, count(*) OVER () AS total
       FROM users ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY lower(first_name), lower(last_name), id LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    let total = rows.length ? Number(rows[0].total) : 0;
    if (!rows.length && filters.pageNumber > 1) {
      const [count] = await db.query<{ total: number | string }>(`SELECT count(*) AS total FROM users ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`, params.slice(0, -2));
      total = Number(count.total);
    }
    const users = rows.map((row) =>
      full
        ? { id: row.id, firstName: row.first_name, lastName: row.last_name, email: row.email, role: row.role, permissions: row.permissions, companies: row.companies, active: row.active }
        : { id: row.id, firstName: row.first_name, lastName: row.last_name, email: row.email },
    );
    return { users, total };
  });
}
