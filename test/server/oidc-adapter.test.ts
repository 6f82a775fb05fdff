/** The embedded issuer's storage: an authorization code is redeemed once, even by two redemptions racing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors } from 'oidc-provider';
import { databaseAdapter } from '../../server/auth/oidc-adapter';
import type { Db } from '../../server/db';
import { migrate } from '../../server/db/migrations';
import { memoryDatabase } from './helpers';

let db: Db;
beforeAll(async () => {
  db = await memoryDatabase();
  await migrate(db);
}, 60_000);
afterAll(() => db?.close());

describe('oidc_models adapter', () => {
  it('lets one of two racing consumptions of a code through and refuses the other as a used code', async () => {
    const codes = databaseAdapter(db)('AuthorizationCode');
    await codes.upsert('code-1', { grantId: 'g1', kind: 'AuthorizationCode' } as never, 60);
    const outcomes = await Promise.allSettled([codes.consume('code-1'), codes.consume('code-1')]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(errors.InvalidGrant);
    expect(await codes.find('code-1')).toMatchObject({ grantId: 'g1', consumed: expect.any(Number) });
  });

  it('does not answer what expired, and forgets a grant revoked', async () => {
    const sessions = databaseAdapter(db)('Session');
    await sessions.upsert('s-old', { uid: 'u-old', kind: 'Session' } as never, -1);
    expect(await sessions.find('s-old')).toBeUndefined();
    await sessions.upsert('s-new', { uid: 'u-new', grantId: 'g2', kind: 'Session' } as never, 60);
    expect(await sessions.findByUid('u-new')).toMatchObject({ uid: 'u-new' });
    await sessions.revokeByGrantId!('g2');
    expect(await sessions.find('s-new')).toBeUndefined();
  });
});
