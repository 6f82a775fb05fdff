import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { UsersPage } from '../../src/resources/users/UsersPage';
import { renderInAdmin, serveDuringTests } from './admin';

const changes: unknown[] = [];
const invitations: unknown[] = [];
/** Issue 29: the edits the dialog sent (PUT /users/5 bodies). */
const edits: unknown[] = [];
const server = setupServer(
  http.get('*/odoo/companies', () => HttpResponse.json({ data: [{ id: 1, name: 'Acme Iberia SL', projects: [] }] })),
  // The screen's pending invitations (none here; the stale-edit test below has its own).
  http.get('*/users/invitations', () => HttpResponse.json({ invitations: [] })),
  http.post('*/users/search', () =>
    HttpResponse.json({
      users: [{ id: 5, firstName: 'Tina', lastName: 'Target', email: 'tina@demo.example', role: 'user', permissions: ['moves.create'], companies: [1], active: true }],
      total: 1,
    }),
  ),
  http.post('*/users/change-permission', async ({ request }) => {
    const body = (await request.json()) as { permission: string; value: boolean };
    changes.push(body);
    if (body.permission === 'moves.delete') return HttpResponse.json({ message: 'The last administrator cannot lose this permission' }, { status: 409 });
    return HttpResponse.json({ id: 5, firstName: 'Tina', lastName: 'Target', email: 'tina@demo.example', role: 'user', permissions: ['moves.create', 'moves.list'], companies: [1], active: true });
  }),
  http.post('*/users/invite', async ({ request }) => {
    invitations.push(await request.json());
    return new HttpResponse(null, { status: 204 });
  }),
);

serveDuringTests(server, () => {
  invitations.length = 0;
  edits.length = 0;
});

async function openPermissions() {
  fireEvent.click(await screen.findByText('tina@demo.example'));
  return screen.findByTestId('permissions-panel');
}

describe('the users screen', () => {
  it('shows a viewer the permissions read-only, with no invite button', async () => {
    renderInAdmin(<UsersPage />, { permissions: ['users.view'], lang: 'en' });
    const panel = await openPermissions();
    const boxes = within(panel).getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes.length).toBeGreaterThan(5);
    expect(boxes.every((box) => box.disabled)).toBe(true);
    expect(screen.queryByTestId('invite-open')).toBeNull();
  });

  it('lets a manager toggle a permission at once, and shows the server reason when it is refused', async () => {
    renderInAdmin(<UsersPage />, { permissions: ['users.create', 'users.view', 'moves'], lang: 'en' });
    const panel = await openPermissions();
    fireEvent.click(within(within(panel).getByTestId('permission-moves.list')).getByRole('checkbox'));
    await screen.findByText('Permission updated successfully');
    expect(changes[0]).toEqual({ userId: 5, permission: 'moves.list', value: true });
    fireEvent.click(within(within(panel).getByTestId('permission-moves.delete')).getByRole('checkbox'));
    await screen.findByText('The last administrator cannot lose this permission');
    await waitFor(() => expect(changes).toHaveLength(2));
    expect(screen.getByTestId('invite-open')).toBeTruthy();
  });

  it('invites with the form: the email required, a group with its actions, the companies left to an administrator', async () => {
    renderInAdmin(<UsersPage />, { permissions: ['users.create', 'users.view', 'moves'], lang: 'en' });
    fireEvent.click(await screen.findByTestId('invite-open'));
    const dialog = await screen.findByTestId('invite-dialog');
    fireEvent.click(within(dialog).getByTestId('invite-send'));
    await within(dialog).findByText('required');
    fireEvent.change(within(dialog).getByTestId('invite-email'), { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByTestId('invite-send'));
    await within(dialog).findByText('required');
    expect(invitations).toEqual([]);

    expect(within(dialog).getByText('Only an administrator chooses companies: the new user joins yours.')).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('invite-email'), { target: { value: ' new.user@demo.example ' } });
    await waitFor(() => expect(within(dialog).queryByText('required')).toBeNull());
    fireEvent.click(within(within(dialog).getByTestId('invite-permission-moves')).getByRole('checkbox'));
    const create = within(within(dialog).getByTestId('invite-permission-moves.create')).getByRole('checkbox') as HTMLInputElement;
    expect(create.checked).toBe(true);
    expect(create.disabled).toBe(true);
    fireEvent.click(within(dialog).getByTestId('invite-send'));
    await screen.findByText('Invitation sent to new.user@demo.example');
    expect(invitations).toHaveLength(1);
    const body = invitations[0] as { email: string; permissions: string[]; lang: string; companies?: number[] };
    expect(body.email).toBe('new.user@demo.example');
    expect(body.lang).toBe('en');
    expect(body.companies).toBeUndefined();
    expect(body.permissions[0]).toBe('moves');
    expect(body.permissions).toContain('moves.create');
    await waitFor(() => expect(screen.queryByTestId('invite-dialog')).toBeNull());
  });

  it('sends the version it read with an edit; refused as stale, shows who changed it and reloads the user on Recargar', async () => {
    let stored = { id: 5, firstName: 'Tina', lastName: 'Target', email: 'tina@demo.example', role: 'user', permissions: ['moves.create'], companies: [1], active: true, version: 7 };
    server.use(
      http.get('*/users/invitations', () => HttpResponse.json({ invitations: [] })),
      http.post('*/users/search', () => HttpResponse.json({ users: [stored], total: 1 })),
      http.put('*/users/5', async ({ request }) => {
        const body = (await request.json()) as { version?: number; firstName: string; lastName: string };
        edits.push(body);
        if (body.version !== stored.version) {
          return HttpResponse.json(
            { statusCode: 409, error: 'Conflict', code: 'users.stale', message: 'Otra persona (Ana Gil) cambió este registro el 26/11/2026 a las 13:40: recárguelo' },
            { status: 409 },
          );
        }
        stored = { ...stored, firstName: body.firstName, lastName: body.lastName, version: stored.version + 1 };
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderInAdmin(<UsersPage />, { permissions: ['users.create', 'users.view', 'moves'], lang: 'es' });
    fireEvent.click(await screen.findByTestId('user-actions'));
    fireEvent.click(await screen.findByTestId('user-edit'));
    const dialog = await screen.findByTestId('edit-user-dialog');
    // Meanwhile Ana renamed her: the dialog still holds version 7.
    stored = { ...stored, firstName: 'Tinita', version: 8 };
    fireEvent.change(within(dialog).getByTestId('edit-last-name'), { target: { value: 'Objetivo' } });
    fireEvent.click(within(dialog).getByTestId('edit-save'));
    const alert = await within(dialog).findByTestId('edit-stale');
    expect(alert.textContent).toContain('Otra persona (Ana Gil) cambió este registro el 26/11/2026 a las 13:40: recárguelo');
    expect(edits).toEqual([{ firstName: 'Tina', lastName: 'Objetivo', version: 7 }]);
    expect((within(dialog).getByTestId('edit-save') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(alert).getByRole('button', { name: 'Recargar' }));
    // What Ana saved is shown, with its version: saving again writes over it knowingly.
    await waitFor(() => expect((within(dialog).getByTestId('edit-first-name') as HTMLInputElement).value).toBe('Tinita'));
    expect(within(dialog).queryByTestId('edit-stale')).toBeNull();
    fireEvent.change(within(dialog).getByTestId('edit-last-name'), { target: { value: 'Objetivo' } });
    fireEvent.click(within(dialog).getByTestId('edit-save'));
    await screen.findByText('Cambios realizados correctamente');
    expect(edits[1]).toEqual({ firstName: 'Tinita', lastName: 'Objetivo', version: 8 });
    expect(stored).toMatchObject({ firstName: 'Tinita', lastName: 'Objetivo', version: 9 });
  });
});

describe('an inactive user', () => {
  // Issue 51: inactive users looked active on the permissions list.
  const IVO = { id: 6, firstName: 'Ivo', lastName: 'Idle', email: 'ivo@demo.example', role: 'user', permissions: ['moves.list'], companies: [1], active: false };
  const TINA = { id: 5, firstName: 'Tina', lastName: 'Target', email: 'tina@demo.example', role: 'user', permissions: ['moves.create'], companies: [1], active: true };
  it.each([
    ['es', 'Inactivo'],
    ['en', 'Inactive'],
  ] as const)('is named so on its row, in words, and an active one is not (%s)', async (lang, inactive) => {
    server.use(http.post('*/users/search', () => HttpResponse.json({ users: [TINA, IVO], total: 2 })));
    renderInAdmin(<UsersPage />, { permissions: ['users.view'], lang });
    const ivoRow = (await screen.findByText('ivo@demo.example')).closest('tr')!;
    const tinaRow = screen.getByText('tina@demo.example').closest('tr')!;
    expect(within(ivoRow).getByText(inactive)).toBeTruthy();
    expect(within(ivoRow).getByText('Ivo Idle').closest('td')!.textContent).toBe(`Ivo Idle${inactive}`);
    expect(within(tinaRow).queryByText(inactive)).toBeNull();
    expect(within(tinaRow).getByText('Tina Target').closest('td')!.textContent).toBe('Tina Target');
  });
});
