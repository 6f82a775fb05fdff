/**
 * oidc-provider's storage in the app database (table oidc_models), so that every server process on one database
 * shares the embedded issuer's sessions, interactions, grants and codes: a sign-in started on one process finishes
 * on another, a code is redeemed once, an issuer logout is seen by all.
 *
 * The adapter contract (oidc-provider's example/my_adapter.js): one adapter per model name; `find*` answer what was
 * stored and has not expired (with `consumed` once consumed), `destroy` and `revokeByGrantId` remove for good.
 * Expired rows are never answered and are deleted now and then.
 */
import { errors, type Adapter, type AdapterFactory, type AdapterPayload } from 'oidc-provider';
import type { Sql } from '../db/sql';

interface Row {
  payload: AdapterPayload;
  consumed_at: string | Date | null;
}

/** At most this often a process deletes the expired rows (on a write). */
const CLEAN_EVERY_MS = 10 * 60_000;

/**
 * jsonb refuses the NUL character (\u0000) that JSON allows; an authorization request may carry one in a parameter
 * the issuer keeps. It is stored as U+FFFD: such a request fails later as any garbled one does, instead of a 500.
 */
function storable(payload: AdapterPayload): string {
  return JSON.stringify(payload).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1\\ufffd');
}

const answer = (row: Row | undefined): AdapterPayload | undefined => {
  if (!row) return undefined;
  if (!row.consumed_at) return row.payload;
  return { ...row.payload, consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) };
};

export function databaseAdapter(db: Sql, options: { onError?: (error: unknown) => void } = {}): AdapterFactory {
  let cleaned = 0;
  const clean = async () => {
    if (Date.now() - cleaned < CLEAN_EVERY_MS) return;
    cleaned = Date.now();
    await db.query('DELETE FROM oidc_models WHERE expires_at <= now()').catch((error) => options.onError?.(error));
  };
  const live = '(expires_at IS NULL OR expires_at > now())';

  return (model: string): Adapter => {
    const findWhere = async (column: 'id' | 'uid' | 'user_code', value: string) => {
      const [row] = await db.query<Row>(`SELECT payload, consumed_at FROM oidc_models WHERE model = $1 AND ${column} = $2 AND ${live} LIMIT 1`, [model, value]);
      return answer(row);
    };
    return {
      async upsert(id, payload, expiresIn) {
        await clean();
        const seconds = typeof expiresIn === 'number' && Number.isFinite(expiresIn) ? expiresIn : null;
        await db.query(
          `INSERT INTO oidc_models (model, id, payload, grant_id, uid, user_code, expires_at)
           VALUES ($1, $2, $3::jsonb, $4, $5, $6, CASE WHEN $7::float8 IS NULL THEN NULL ELSE now() + make_interval(secs => $7::float8) END)
           ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid,
             user_code = EXCLUDED.user_code, expires_at = EXCLUDED.expires_at`,
          [model, id, storable(payload), payload.grantId ?? null, payload.uid ?? null, payload.userCode ?? null, seconds],
        );
      },
      find: (id) => findWhere('id', id),
      findByUid: (uid) => findWhere('uid', uid),
      findByUserCode: (userCode) => findWhere('user_code', userCode),
      async consume(id) {
        const marked = await db.query('UPDATE oidc_models SET consumed_at = now() WHERE model = $1 AND id = $2 AND consumed_at IS NULL RETURNING id', [model, id]);
        // oidc-provider reads a code, sees it unused, then consumes it: two redemptions racing (on two processes)
        // would both pass the look. The UPDATE is the one atomic step: the loser is refused as a used code is.
        if (!marked.length && model === 'AuthorizationCode') throw new errors.InvalidGrant('authorization code already consumed');
      },
      async destroy(id) {
        await db.query('DELETE FROM oidc_models WHERE model = $1 AND id = $2', [model, id]);
      },
      async revokeByGrantId(grantId) {
        await db.query('DELETE FROM oidc_models WHERE model = $1 AND grant_id = $2', [model, grantId]);
      },
    };
  };
}
