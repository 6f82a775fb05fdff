import { describe, expect, it, vi } from 'vitest';
import { RESOURCES } from '../../shared/resources/registry';
import { ALL_PERMISSIONS, grants, hasAnyPermission, hasPermission, USERS_VIEW_PERMISSIONS } from '../../shared/domain/permissions';

describe('hasPermission (spec section 5, permission check)', () => {
  const cases: Array<[string, unknown[], string, boolean]> = [
    ['equal permission', ['moves.list'], 'moves.list', true],
    ['different action of the same group', ['moves.list'], 'moves.create', false],
    ['held group grants its actions', ['moves'], 'moves.validate', true],
    ['held group grants deeper levels', ['moves'], 'moves.list.export', true],
    ['held action does not grant its group', ['moves.list'], 'moves', false],
    ['prefix without a dot does not match', ['move'], 'moves.list', false],
    ['longer name sharing a prefix does not match', ['moves'], 'movesExtra.list', false],
    ['god passes every check', ['god'], 'paymentReport.generate', true],
    ['god passes a group check', ['god'], 'users', true],
    ['empty requirement passes with nothing held', [], '', true],
    ['nothing held fails', [], 'orders.list', false],
    ['one of several held matches', ['contacts.list', 'orders.create'], 'orders.create', true],
    ['case matters', ['Moves'], 'moves.list', false],
    ['a held empty string grants nothing', [''], 'moves.list', false],
  ];
  it.each(cases)('%s', (_name, held, required, expected) => {
    expect(hasPermission(held, required, () => undefined)).toBe(expected);
  });

  it('passes an empty requirement even without a permission list', () => {
    expect(hasPermission(undefined, '')).toBe(true);
    expect(hasPermission(null, undefined)).toBe(true);
  });

  it('fails a real requirement without a permission list', () => {
    expect(hasPermission(undefined, 'moves.list')).toBe(false);
  });

  it('logs a held permission that is not a string as an error and does not match it', () => {
    const log = vi.fn();
    expect(hasPermission([42, { name: 'god' }, null], 'moves.list', log)).toBe(false);
    expect(log).toHaveBeenCalledTimes(3);
    expect(log).toHaveBeenCalledWith('Permission is not a string:', 42);
  });

  it('logs to console.error by default', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(grants(7, 'moves.list')).toBe(false);
    expect(spy).toHaveBeenCalled();
    spy.mockRestore();
  });

  it('still matches a valid permission held next to a malformed one', () => {
    expect(hasPermission([7, 'orders'], 'orders.list', () => undefined)).toBe(true);
  });
});

describe('users screen permission, both readings of the spec', () => {
  it.each([
    [['users.view'], true],
    [['permissionsManagement.view'], true],
    [['permissionsManagement'], true],
    [['users'], true],
    [['users.create'], false],
    [['moves'], false],
  ])('%j -> %s', (held, expected) => {
    expect(hasAnyPermission(held, USERS_VIEW_PERMISSIONS)).toBe(expected);
  });
});

describe('ALL_PERMISSIONS', () => {
  it('lists the groups and actions of spec section 6 first, in its order', () => {
    expect(ALL_PERMISSIONS.slice(0, 19)).toEqual([
      'moves', 'moves.validate', 'moves.create', 'moves.delete', 'moves.list', 'moves.modify',
      'orders', 'orders.create', 'orders.list', 'orders.modify', 'orders.delete',
      'contacts', 'contacts.create', 'contacts.list',
      'users', 'users.view', 'users.create',
      'paymentReport', 'paymentReport.generate',
    ]);
  });

  it('then each declared resource that grants permissions: its group and its actions', () => {
    const rest = ALL_PERMISSIONS.slice(19);
    const declared = RESOURCES.filter((resource) => resource.grants?.length && !['moves', 'orders', 'contacts', 'users', 'paymentReport'].includes(resource.name));
    expect(rest).toEqual(declared.flatMap((resource) => [resource.name, ...resource.grants!.map((action) => `${resource.name}.${action}`)]));
    expect(rest.length).toBeGreaterThan(0);
  });
});
