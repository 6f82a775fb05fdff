/**
 * Issue 33, item 5: saved filters per user and list. A user saves the filters of a list they may open under a name,
 * reads them back, replaces them by saving the same name again and deletes them; nobody else sees or deletes them.
 * The filters are checked with the list's own search schema, so that a saved one can always be applied; bad input is
 * a 400 naming the field, in the user's language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAVED_FILTERS_PER_LIST } from '../../shared/domain/saved-filters';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seedErp: true });
}, 120_000);
afterAll(() => server?.stop());

type Answer = { status: number; body: Record<string, unknown> & Array<Record<string, unknown>> };

async function as(email: string) {
  const token = await server.tokenFor(email);
  return async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, language = 'es'): Promise<Answer> => {
    const response = await server.app.inject({ method, url, payload: payload as object, headers: { authorization: token, 'accept-language': language } });
    return { status: response.statusCode, body: (response.body ? response.json() : {}) as Answer['body'] };
  };
}

const PENDING = { state: ['draft'], validated: false, notValidated: false };

describe('saved filters', () => {
  it('saves, lists, replaces by the same name, applies with the list’s search and deletes', async () => {
    const call = await as('manager@demo.example');
    const saved = await call('POST', '/me/saved-filters', { list: 'moves', name: '  Mis pendientes ', filters: { ...PENDING, number: '', reference: null, company: [] } });
    expect(saved.status).toBe(201);
    // Trimmed, and the empty values left out.
    expect(saved.body).toMatchObject({ list: 'moves', name: 'Mis pendientes', filters: PENDING });
    const id = saved.body.id as number;

    const other = await call('POST', '/me/saved-filters', { list: 'moves', name: 'Antiguas', filters: { dateTo: '2020-12-31' } });
    expect(other.status).toBe(201);
    const listed = await call('GET', '/me/saved-filters?list=moves');
    expect(listed.status).toBe(200);
    expect(listed.body.map((one) => one.name)).toEqual(['Antiguas', 'Mis pendientes']);
    // Per list: none on contacts.
    expect((await call('GET', '/me/saved-filters?list=contacts')).body).toEqual([]);

    // The same name in another case replaces the filters: 200, the same saved filter.
    const replaced = await call('POST', '/me/saved-filters', { list: 'moves', name: 'MIS PENDIENTES', filters: { state: ['posted'] } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id, name: 'MIS PENDIENTES', filters: { state: ['posted'] } });
    const after = (await call('GET', '/me/saved-filters?list=moves')).body;
    expect(after.map((one) => [one.id, one.name])).toEqual([[other.body.id, 'Antiguas'], [id, 'MIS PENDIENTES']]);

    // What was saved is a body the list's search takes as it is.
    const search = await call('POST', '/odoo/moves/search', { ...(after[1].filters as object), numberOfRecords: 1 });
    expect(search.status).toBe(200);

    expect((await call('DELETE', `/me/saved-filters/${id}`)).status).toBe(204);
    expect((await call('GET', '/me/saved-filters?list=moves')).body.map((one) => one.name)).toEqual(['Antiguas']);
    const again = await call('DELETE', `/me/saved-filters/${id}`);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe(`No se ha encontrado el filtro guardado ${id}`);
    await call('DELETE', `/me/saved-filters/${other.body.id}`);
  });

  it('keeps each user’s own: another user neither sees them nor deletes them (404)', async () => {
    const manager = await as('manager@demo.example');
    const staff = await as('staff@demo.example');
    const mine = await manager('POST', '/me/saved-filters', { list: 'moves', name: 'Del gerente', filters: { number: 'FAC' } });
    expect(mine.status).toBe(201);
    expect((await staff('GET', '/me/saved-filters?list=moves')).body).toEqual([]);
    const refused = await staff('DELETE', `/me/saved-filters/${mine.body.id}`);
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe('savedFilters.notFound');
    expect((await manager('GET', '/me/saved-filters?list=moves')).body.map((one) => one.name)).toEqual(['Del gerente']);
    // The same name is another user's own business.
    expect((await staff('POST', '/me/saved-filters', { list: 'moves', name: 'Del gerente', filters: { number: 'X' } })).status).toBe(201);
    expect((await manager('GET', '/me/saved-filters?list=moves')).body[0].filters).toEqual({ number: 'FAC' });
    await manager('DELETE', `/me/saved-filters/${mine.body.id}`);
  });

  it('refuses a list the user may not open (403), and refuses without a session (401)', async () => {
    const staff = await as('staff@demo.example');
    const read = await staff('GET', '/me/saved-filters?list=orders');
    expect(read.status).toBe(403);
    expect(read.body.message).toBe('No tiene el permiso que necesita esta acción (orders.list)');
    expect((await staff('POST', '/me/saved-filters', { list: 'contacts', name: 'Todos', filters: { name: 'a' } })).status).toBe(403);
    const sales = await as('sales@demo.example');
    expect((await sales('GET', '/me/saved-filters?list=moves')).status).toBe(403);
    expect((await sales('GET', '/me/saved-filters?list=orders')).status).toBe(200);
    expect((await server.app.inject({ url: '/me/saved-filters?list=moves' })).statusCode).toBe(401);
  });

  it('refuses bad input with a 400 naming the field, in the user’s language', async () => {
    const call = await as('sales@demo.example');
    const refusal = async (payload: unknown, language = 'es') => {
      const answer = await call('POST', '/me/saved-filters', payload, language);
      expect(answer.status, JSON.stringify(payload)).toBe(400);
      return { field: answer.body.field, message: answer.body.message, code: answer.body.code };
    };
    // A key the list does not filter by.
    expect(await refusal({ list: 'orders', name: 'Raro', filters: { colour: 'red' } })).toEqual({ field: 'filters', message: 'Filtros: campo desconocido: colour', code: 'validation.unknownFields' });
    expect((await refusal({ list: 'orders', name: 'Raro', filters: { colour: 'red' } }, 'en')).message).toBe('Filters: unknown field: colour');
    // A filter of another list is unknown on this one (uploadedBy filters moves, not orders).
    expect((await refusal({ list: 'orders', name: 'Raro', filters: { uploadedBy: 'a@b.c' } })).field).toBe('filters');
    // A value the list's search refuses.
    expect(await refusal({ list: 'orders', name: 'Raro', filters: { state: ['shipped'] } })).toMatchObject({ field: 'filters.state.0', code: 'validation.oneOf' });
    expect((await refusal({ list: 'orders', name: 'Raro', filters: { dateFrom: '2024-02-30' } })).field).toBe('filters.dateFrom');
    // Nothing to save.
    expect(await refusal({ list: 'orders', name: 'Vacío', filters: { number: '', state: [] } })).toEqual({
      field: 'filters',
      message: 'No hay ningún filtro que guardar: aplique al menos un filtro antes',
      code: 'savedFilters.empty',
    });
    expect((await refusal({ list: 'orders', name: 'Sin filtros' })).field).toBe('filters');
    // The name: given, one line, 1 to 60 characters once trimmed.
    expect(await refusal({ list: 'orders', name: '   ', filters: { number: 'S0' } })).toEqual({ field: 'name', message: 'Nombre: no puede estar vacío', code: 'validation.empty' });
    expect((await refusal({ list: 'orders', name: 'x'.repeat(61), filters: { number: 'S0' } })).message).toBe('Nombre: debe tener como máximo 60 caracteres');
    expect((await refusal({ list: 'orders', name: 'dos\nlíneas', filters: { number: 'S0' } })).message).toBe('Nombre: debe ser una sola línea');
    expect((await refusal({ list: 'orders', filters: { number: 'S0' } })).field).toBe('name');
    // The list: one of the three.
    expect(await refusal({ list: 'users', name: 'Raro', filters: {} })).toMatchObject({ field: 'list', message: 'list: debe ser uno de: moves, orders, contacts' });
    expect(await refusal({ name: 'Raro', filters: {} })).toMatchObject({ field: 'list', message: 'list: es obligatorio' });
    expect(await refusal({ list: 'orders', name: 'Raro', filters: { number: 'S0' }, extra: 1 })).toMatchObject({ field: undefined, code: 'validation.unknownFields' });
    const query = await call('GET', '/me/saved-filters?list=nope');
    expect(query.status).toBe(400);
    expect(query.body.field).toBe('list');
    expect((await call('GET', '/me/saved-filters')).body.field).toBe('list');
    expect((await call('DELETE', '/me/saved-filters/abc')).status).toBe(400);
    expect((await call('GET', '/me/saved-filters?list=orders')).body).toEqual([]);
  });

  it(`keeps at most ${SAVED_FILTERS_PER_LIST} per user and list: the next is refused, a replacement is not`, async () => {
    const call = await as('sales@demo.example');
    for (let index = 1; index <= SAVED_FILTERS_PER_LIST; index++) {
      expect((await call('POST', '/me/saved-filters', { list: 'contacts', name: `Filtro ${index}`, filters: { name: `n${index}` } })).status).toBe(201);
    }
    const refused = await call('POST', '/me/saved-filters', { list: 'contacts', name: 'Uno más', filters: { name: 'x' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'savedFilters.tooMany', field: 'name', message: 'Ya tiene 30 filtros guardados en esta lista: elimine uno antes de guardar otro' });
    expect((await call('POST', '/me/saved-filters', { list: 'contacts', name: 'filtro 7', filters: { name: 'siete' } })).status).toBe(200);
    // Another list has its own count.
    expect((await call('POST', '/me/saved-filters', { list: 'orders', name: 'Uno más', filters: { number: 'S0' } })).status).toBe(201);
    expect((await call('GET', '/me/saved-filters?list=contacts')).body).toHaveLength(SAVED_FILTERS_PER_LIST);
  });

  it('are gone with their user, and are in the OpenAPI document', async () => {
    const [{ id: userId }] = await server.app.services.db.query<{ id: number }>("INSERT INTO users (email, permissions) VALUES ('gone@demo.example', '{moves.list}') RETURNING id");
    await server.app.services.db.query("INSERT INTO saved_filters (user_id, list, name, filters) VALUES ($1, 'moves', 'x', '{}')", [userId]);
    await server.app.services.db.query('DELETE FROM users WHERE id = $1', [userId]);
    expect(await server.app.services.db.query('SELECT id FROM saved_filters WHERE user_id = $1', [userId])).toEqual([]);

    const doc = (await server.app.inject({ url: '/docs/json' })).json() as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }; responses: Record<string, unknown> }>> };
    expect(Object.keys(doc.paths['/me/saved-filters'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(doc.paths['/me/saved-filters/{id}']?.delete).toBeDefined();
    expect(Object.keys(doc.paths['/me/saved-filters'].post.responses)).toEqual(expect.arrayContaining(['200', '201']));
    const body = JSON.stringify(doc.paths['/me/saved-filters'].post.requestBody?.content['application/json'].schema);
    // Each list's own filters are shown.
    for (const key of ['uploadedBy', 'clientReference', 'companyOwner']) expect(body).toContain(`"${key}"`);
  });
});
