import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { buildAuthProvider, requiredPermissions } from '../../src/providers/authProvider';

const user = {
  id: 3,
  email: 'staff@demo.example',
  firstName: 'Sergio',
  lastName: 'Staff',
  imageUrl: null,
  permissions: ['moves.create', 'moves.list'],
  role: 'user',
};

let meCalls = 0;
let seenAuthorization: Array<string | null> = [];
const server = setupServer(
  http.get('*/users/me', ({ request }) => {
    meCalls += 1;
    const authorization = request.headers.get('authorization');
    seenAuthorization.push(authorization);
    if (authorization !== 'good-token') return HttpResponse.json({ message: 'Invalid or expired session' }, { status: 401 });
    return HttpResponse.json(user);
  }),
  // The server confirms tokens of sign-ins this browser finished; 'swapped-token' stands for someone else's.
  http.post('*/auth/confirm', async ({ request }) => {
    const { token } = (await request.json()) as { token: string };
    if (token === 'swapped-token') return HttpResponse.json({ message: 'This sign-in was not started in this browser: sign in again' }, { status: 403 });
    return new HttpResponse(null, { status: 204 });
  }),
  http.post('*/auth/sign-out', ({ request }) => {
    seenAuthorization.push(request.headers.get('authorization'));
    return HttpResponse.json({ logoutUrl: 'http://localhost:3000/auth/logout?continue=http%3A%2F%2Flocalhost%3A3000%2Flogin' });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  localStorage.clear();
  meCalls = 0;
  seenAuthorization = [];
});
afterEach(() => server.resetHandlers());

describe('authProvider', () => {
  it('sends a signed-out user to /login', async () => {
    const provider = buildAuthProvider();
    await expect(provider.checkAuth({})).rejects.toMatchObject({ redirectTo: '/login' });
  });

  it('stores the token from the sign-in return and loads the user with the bare token header', async () => {
    const provider = buildAuthProvider();
    const loaded = await provider.signInWithToken('good-token');
    expect(loaded.email).toBe('staff@demo.example');
    expect(localStorage.getItem('token')).toBe('good-token');
    expect(seenAuthorization).toEqual(['good-token']);
    await expect(provider.checkAuth({})).resolves.toBeUndefined();
    expect(await provider.getIdentity!()).toMatchObject({ fullName: 'Sergio Staff', email: 'staff@demo.example' });
    expect(await provider.getPermissions!({})).toEqual(['moves.create', 'moves.list']);
    expect(meCalls).toBe(1);
  });

  it('keeps no token from a sign-in this browser did not finish, and keeps acting as who it was', async () => {
    localStorage.setItem('token', 'good-token');
    const provider = buildAuthProvider();
    await expect(provider.signInWithToken('swapped-token')).rejects.toMatchObject({ status: 403 });
    expect(localStorage.getItem('token')).toBe('good-token');
    expect(seenAuthorization).toEqual([]);
  });

  it('rejects a sign-in return without a token with the spec message', async () => {
    const provider = buildAuthProvider();
    await expect(provider.signInWithToken(null)).rejects.toThrow('Code parameter is missing in the Google callback URL');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('drops a token the server refuses', async () => {
    const provider = buildAuthProvider();
    await expect(provider.signInWithToken('stale-token')).rejects.toThrow('Invalid or expired session');
    expect(localStorage.getItem('token')).toBeNull();
    localStorage.setItem('token', 'stale-token');
    await expect(provider.checkAuth({})).rejects.toMatchObject({ redirectTo: '/login' });
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('keeps a signed-in user on the page when the network is down (offline on a phone)', async () => {
    localStorage.setItem('token', 'good-token');
    server.use(http.get('*/users/me', () => HttpResponse.error()));
    const provider = buildAuthProvider();
    await expect(provider.checkAuth({})).resolves.toBeUndefined();
    expect(localStorage.getItem('token')).toBe('good-token');
  });

  it('answers canAccess with the spec rules, mapping react-admin actions to permissions', async () => {
    localStorage.setItem('token', 'good-token');
    const provider = buildAuthProvider();
    expect(await provider.canAccess!({ resource: 'moves', action: 'list' })).toBe(true);
    expect(await provider.canAccess!({ resource: 'moves', action: 'show' })).toBe(true);
    expect(await provider.canAccess!({ resource: 'moves', action: 'create' })).toBe(true);
    expect(await provider.canAccess!({ resource: 'moves', action: 'edit' })).toBe(false);
    expect(await provider.canAccess!({ resource: 'moves', action: 'validate' })).toBe(false);
    expect(await provider.canAccess!({ resource: 'orders', action: 'list' })).toBe(false);
  });

  it('maps actions to the spec permissions', () => {
    expect(requiredPermissions('moves', 'edit')).toEqual(['moves.modify']);
    expect(requiredPermissions('orders', 'export')).toEqual(['orders.list']);
    expect(requiredPermissions('users', 'view')).toEqual(['users.view', 'permissionsManagement.view']);
    expect(requiredPermissions('permissionsManagement', 'view')).toEqual(['users.view', 'permissionsManagement.view']);
    expect(requiredPermissions('moves')).toEqual(['moves']);
  });

  it('signs out: ends the server session, removes the token and leaves through the logout address', async () => {
    localStorage.setItem('token', 'good-token');
    const navigate = vi.fn();
    const provider = buildAuthProvider({ navigate });
    await expect(provider.logout({})).resolves.toBe(false);
    expect(seenAuthorization).toEqual(['good-token']);
    expect(localStorage.getItem('token')).toBeNull();
    expect(navigate).toHaveBeenCalledWith('http://localhost:3000/auth/logout?continue=http%3A%2F%2Flocalhost%3A3000%2Flogin');
  });

  it('still signs out locally when the server cannot be reached', async () => {
    server.use(http.post('*/auth/sign-out', () => HttpResponse.error()));
    localStorage.setItem('token', 'good-token');
    const navigate = vi.fn();
    await buildAuthProvider({ navigate }).logout({});
    expect(localStorage.getItem('token')).toBeNull();
    expect(navigate.mock.calls[0][0]).toMatch(/^\/auth\/logout\?continue=/);
  });

  it('sends the user to /login on a 401 from any call', async () => {
    localStorage.setItem('token', 'good-token');
    const provider = buildAuthProvider();
    await expect(provider.checkError({ status: 401 })).rejects.toMatchObject({ redirectTo: '/login' });
    expect(localStorage.getItem('token')).toBeNull();
    await expect(provider.checkError({ status: 403 })).resolves.toBeUndefined();
  });
});
