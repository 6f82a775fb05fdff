import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../../server/db/users';
import { startTestServer, type TestServer } from './helpers';

/**
 * The routes derived from the employees and projects declarations (shared/resources), on the embedded store with
 * its demo data: search with text, company filter, paging and sort; read; change; permissions and company scope.
 */
let server: TestServer;
const tokens: Record<string, string> = {};

async function user(email: string, permissions: string[], companies: number[]) {
  await insertUser(server.app.services.db, { email, firstName: email.split('@')[0], lastName: 'Test', role: 'user', permissions, companies, active: true });
  tokens[email] = await server.tokenFor(email);
}

beforeAll(async () => {
  server = await startTestServer({ seedErp: true });
  tokens.admin = await server.tokenFor('admin@demo.example');
  tokens.staff = await server.tokenFor('staff@demo.example');
  await user('hr@test.example', ['employees'], [1, 2]);
  await user('viewer@test.example', ['employees.list', 'projects.list'], [1]);
  await user('pm@test.example', ['projects'], [1]);
  await user('pm2@test.example', ['projects'], [1, 2]);
  await user('editor@test.example', ['projects.modify'], [1]);
}, 120_000);
afterAll(() => server?.stop());

async function call(method: string, path: string, who: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: tokens[who], ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

type Row = { id: number; name: string; work_email: string | false; job_title: string | false; company_id: [number, string]; version?: string };

describe('employees, by declaration', () => {
  it('lists the employees of the user companies only, sorted by name by default, with the total', async () => {
    const hr = await call('POST', '/odoo/employees/search', 'hr@test.example', {});
    expect(hr.status).toBe(200);
    const rows = hr.body.employees as Row[];
    expect(hr.body.total).toBe(rows.length);
    expect(new Set(rows.map((row) => row.company_id[0]))).toEqual(new Set([1, 2]));
    expect(rows.map((row) => row.name)).toEqual([...rows.map((row) => row.name)].sort((a, b) => a.localeCompare(b)));
    expect(rows.find((row) => row.name === 'Ada Admin')).toEqual({ id: expect.any(Number), name: 'Ada Admin', work_email: 'admin@demo.example', job_title: 'Administradora de sistemas', company_id: [1, 'Acme Iberia SL'], version: expect.any(String) });
    const admin = await call('POST', '/odoo/employees/search', 'admin', {});
    expect(admin.body.employees.some((row: Row) => row.company_id[0] === 3)).toBe(true);
    expect(rows.some((row) => row.company_id[0] === 3)).toBe(false);
  });

  it('searches text in name, e-mail and job title, filters by company, pages and sorts', async () => {
    const byJob = await call('POST', '/odoo/employees/search', 'hr@test.example', { q: 'contable' });
    expect(byJob.body.employees.map((row: Row) => row.name)).toEqual(['Elena Castro']);
    const byMail = await call('POST', '/odoo/employees/search', 'hr@test.example', { q: 'SALES@demo' });
    expect(byMail.body.employees.map((row: Row) => row.name)).toEqual(['Sara Sales']);
    const beta = await call('POST', '/odoo/employees/search', 'hr@test.example', { company_id: [2] });
    expect(beta.body.employees.map((row: Row) => row.name)).toEqual(['Elena Castro', 'Javier Molina']);
    const page2 = await call('POST', '/odoo/employees/search', 'hr@test.example', { pageNumber: 2, numberOfRecords: 2, sort: { field: 'name', order: 'DESC' } });
    const all = await call('POST', '/odoo/employees/search', 'hr@test.example', { numberOfRecords: 100, sort: { field: 'name', order: 'desc' } });
    expect(all.body.employees.map((row: Row) => row.name)).toEqual([...all.body.employees.map((row: Row) => row.name)].sort((a, b) => b.localeCompare(a)));
    expect(page2.body.employees).toEqual(all.body.employees.slice(2, 4));
    expect(page2.body.total).toBe(all.body.total);
    const byMailAsc = await call('POST', '/odoo/employees/search', 'hr@test.example', { sort: { field: 'work_email', order: 'ASC' } });
    const mails = byMailAsc.body.employees.map((row: Row) => row.work_email);
    expect(mails).toEqual([...mails].sort());
  });

  it('answers bad searches with 400 and the reason', async () => {
    const sort = await call('POST', '/odoo/employees/search', 'hr@test.example', { sort: { field: 'company_id', order: 'ASC' } });
    expect(sort.status).toBe(400);
    expect(sort.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'sort.field must be one of: name, work_email, job_title',
      code: 'validation.oneOf',
      field: 'sort.field',
      params: { values: ['name', 'work_email', 'job_title'] },
    });
    expect((await call('POST', '/odoo/employees/search', 'hr@test.example', { pageNumber: 0 })).status).toBe(400);
    // A company is named by id or by name (as the moves list's filter does), never by an empty text or a flag.
    expect((await call('POST', '/odoo/employees/search', 'hr@test.example', { company_id: [''] })).status).toBe(400);
    expect((await call('POST', '/odoo/employees/search', 'hr@test.example', { company_id: [true] })).status).toBe(400);
    expect((await call('POST', '/odoo/employees/search', 'hr@test.example', { company_id: [2147483648] })).status).toBe(400);
    expect((await call('POST', '/odoo/employees/search', 'hr@test.example', { nonsense: 1 })).status).toBe(400);
    expect((await call('POST', '/odoo/employees/search', 'hr@test.example', '{not json')).status).toBe(400);
  });

  it('reads and changes one employee of the user companies; another company is 404 and changes nothing', async () => {
    const { body } = await call('POST', '/odoo/employees/search', 'admin', { q: 'Raúl' });
    const raul = body.employees[0] as Row;
    expect((await call('GET', `/odoo/employees/${raul.id}`, 'hr@test.example')).status).toBe(404);
    expect((await call('PUT', `/odoo/employees/${raul.id}`, 'hr@test.example', { job_title: 'X' })).status).toBe(404);
    expect((await call('GET', `/odoo/employees/${raul.id}`, 'admin')).body.job_title).toBe('Jefe de proyecto');

    const { body: mine } = await call('POST', '/odoo/employees/search', 'hr@test.example', { q: 'Javier' });
    const javier = mine.employees[0] as Row;
    const read = await call('GET', `/odoo/employees/${javier.id}`, 'hr@test.example');
    expect(read.body).toEqual(javier);
    const changed = await call('PUT', `/odoo/employees/${javier.id}`, 'hr@test.example', { job_title: 'Director general', work_email: 'javier@beta.example' });
    expect(changed.status).toBe(200);
    // A new version: the edit is counted (issue 29).
    expect(changed.body).toEqual({ ...javier, job_title: 'Director general', work_email: 'javier@beta.example', version: expect.any(String) });
    expect(changed.body.version).not.toBe(javier.version);
    expect((await call('GET', `/odoo/employees/${javier.id}`, 'hr@test.example')).body.job_title).toBe('Director general');
  });

  it('refuses invalid changes with 400 and changes nothing', async () => {
    const { body } = await call('POST', '/odoo/employees/search', 'hr@test.example', { q: 'Elena' });
    const elena = body.employees[0] as Row;
    for (const bad of [{ name: '' }, { name: 'x'.repeat(201) }, { work_email: 'not-an-email' }, { company_id: 1 }, { id: 3 }, { name: 'a\u0000b' }, { job_title: 5 }]) {
      const answer = await call('PUT', `/odoo/employees/${elena.id}`, 'hr@test.example', bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      // The field at fault, but for a key the form has not (company_id, id): that is the body's.
      const unknown = answer.body.code === 'validation.unknownFields';
      expect(answer.body).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: expect.any(String),
        code: expect.stringMatching(/^validation\./),
        ...(unknown ? {} : { field: Object.keys(bad)[0] }),
        ...(answer.body.params ? { params: answer.body.params } : {}),
      });
    }
    expect((await call('GET', `/odoo/employees/${elena.id}`, 'hr@test.example')).body).toEqual(elena);
    expect((await call('GET', '/odoo/employees/99999999', 'hr@test.example')).status).toBe(404);
    expect((await call('GET', '/odoo/employees/abc', 'hr@test.example')).status).toBe(400);
  });

  it('checks employees.list and employees.modify', async () => {
    expect((await call('POST', '/odoo/employees/search', 'staff', {})).status).toBe(403);
    const { body } = await call('POST', '/odoo/employees/search', 'viewer@test.example', {});
    expect(body.employees.length).toBeGreaterThan(0);
    const id = body.employees[0].id;
    expect((await call('GET', `/odoo/employees/${id}`, 'viewer@test.example')).status).toBe(200);
    const refused = await call('PUT', `/odoo/employees/${id}`, 'viewer@test.example', { job_title: 'Nope' });
    expect(refused.status).toBe(403);
    expect((await call('GET', `/odoo/employees/${id}`, 'viewer@test.example')).body.job_title).not.toBe('Nope');
    expect((await call('GET', `/odoo/employees/${id}`, 'staff')).status).toBe(403);
  });
});

describe('projects, by declaration', () => {
  it('lists projects with their journal settings, and a change shows in /odoo/companies (what the Move page reads)', async () => {
    const list = await call('POST', '/odoo/projects/search', 'pm@test.example', {});
    expect(list.status).toBe(200);
    expect(list.body.projects.map((row: { name: string }) => row.name)).toEqual(['Expansión Portugal', 'Feria Alimentaria', 'Oficina Madrid']);
    const office = list.body.projects.find((row: { name: string }) => row.name === 'Oficina Madrid');
    expect(office).toMatchObject({ company_id: [1, 'Acme Iberia SL'], x_facturas_journal_id: false, x_facturas_account: false });

    const journals = await call('POST', '/odoo/journals/search', 'pm@test.example', {});
    expect(journals.status).toBe(200);
    expect(journals.body.journals.map((row: { name: string }) => row.name).sort()).toEqual(['Facturas de proveedores', 'Gastos y dietas']);
    const invoices = journals.body.journals.find((row: { name: string }) => row.name === 'Facturas de proveedores');

    const changed = await call('PUT', `/odoo/projects/${office.id}`, 'pm@test.example', { x_facturas_journal_id: invoices.id, x_facturas_account: '600000' });
    expect(changed.status).toBe(200);
    expect(changed.body.x_facturas_journal_id[0]).toBe(invoices.id);
    expect(changed.body.x_facturas_account).toBe('600000');
    const companies = await call('GET', '/odoo/companies', 'admin');
    const project = companies.body.data[0].projects.find((one: { name: string }) => one.name === 'Oficina Madrid');
    expect(project.facturas).toEqual({ journal_id: invoices.id, account: '600000' });
  });

  it('lets whoever may change projects read the journals to pick one, without the permissions the journals declare; nobody else', async () => {
    const picked = await call('POST', '/odoo/journals/search', 'editor@test.example', {});
    expect(picked.status).toBe(200);
    expect(picked.body.journals.length).toBeGreaterThan(0);
    expect((await call('GET', `/odoo/journals/${picked.body.journals[0].id}`, 'editor@test.example')).status).toBe(200);
    // Not the employees, which projects do not reference; not the journals for who may neither edit projects nor moves.
    expect((await call('POST', '/odoo/employees/search', 'editor@test.example', {})).status).toBe(403);
    expect((await call('POST', '/odoo/journals/search', 'hr@test.example', {})).status).toBe(403);
  });

  it('refuses a journal of another company and changes nothing', async () => {
    const others = await call('POST', '/odoo/journals/search', 'admin', { company_id: [2] });
    const foreign = others.body.journals[0];
    const list = await call('POST', '/odoo/projects/search', 'pm@test.example', { q: 'Feria' });
    const fair = list.body.projects[0];
    const refused = await call('PUT', `/odoo/projects/${fair.id}`, 'pm@test.example', { x_gastos_journal_id: foreign.id });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(`x_gastos_journal_id: journals ${foreign.id} not found`);
    expect((await call('GET', `/odoo/projects/${fair.id}`, 'pm@test.example')).body).toEqual(fair);
    expect((await call('PUT', `/odoo/projects/${fair.id}`, 'viewer@test.example', { name: 'Nope' })).status).toBe(403);
    expect((await call('POST', '/odoo/projects/search', 'staff', {})).status).toBe(403);
  });

  it('refuses a journal of another of the user companies than the project own, and changes nothing', async () => {
    const others = await call('POST', '/odoo/journals/search', 'pm2@test.example', { company_id: [2] });
    const beta = others.body.journals[0];
    const list = await call('POST', '/odoo/projects/search', 'pm2@test.example', { q: 'Expansión' });
    const project = list.body.projects[0];
    expect(project.company_id[0]).toBe(1);
    const refused = await call('PUT', `/odoo/projects/${project.id}`, 'pm2@test.example', { x_facturas_journal_id: beta.id });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(`x_facturas_journal_id: journals ${beta.id} not found`);
    expect((await call('GET', `/odoo/projects/${project.id}`, 'pm2@test.example')).body).toEqual(project);
    const own = (await call('POST', '/odoo/journals/search', 'pm2@test.example', { company_id: [1] })).body.journals[0];
    expect((await call('PUT', `/odoo/projects/${project.id}`, 'pm2@test.example', { x_facturas_journal_id: own.id })).status).toBe(200);
  });

  it('keeps a project shared by every company read-only: listed, never changed', async () => {
    const shared = await server.app.services.erp.client.create('project.project', { name: 'Proyecto compartido', company_id: 1 });
    // The embedded store wants a project's company; Odoo's default is none, a project shared by every company.
    await server.app.services.db.query('ALTER TABLE project_project ALTER COLUMN company_id DROP NOT NULL');
    await server.app.services.db.query('UPDATE project_project SET company_id = NULL WHERE id = $1', [shared]);
    const listed = await call('POST', '/odoo/projects/search', 'pm@test.example', { q: 'compartido' });
    expect(listed.body.projects.map((row: { id: number; company_id: unknown }) => [row.id, row.company_id])).toEqual([[shared, false]]);
    const refused = await call('PUT', `/odoo/projects/${shared}`, 'pm@test.example', { name: 'Mío' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(`projects ${shared} is shared by every company and cannot be changed here`);
    expect((await call('GET', `/odoo/projects/${shared}`, 'pm@test.example')).body.name).toBe('Proyecto compartido');
  });
});

describe('an employee work e-mail, how a console user is found in the ERP', () => {
  it('cannot be given to a second employee', async () => {
    const { body } = await call('POST', '/odoo/employees/search', 'hr@test.example', { q: 'Elena' });
    const taken = await call('PUT', `/odoo/employees/${body.employees[0].id}`, 'hr@test.example', { work_email: 'ADMIN@demo.example' });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('work_email: another of employees already has ADMIN@demo.example');
    expect((await call('GET', `/odoo/employees/${body.employees[0].id}`, 'hr@test.example')).body.work_email).toBe(body.employees[0].work_email);
    // Its own address, in another case, is no clash.
    const same = await call('PUT', `/odoo/employees/${body.employees[0].id}`, 'hr@test.example', { work_email: String(body.employees[0].work_email).toUpperCase() });
    expect(same.status).toBe(200);
  });
});
