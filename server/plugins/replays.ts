/**
 * Every write route takes an `Idempotency-Key` (issue 50, item 4): a request sent again with the key it was first
 * sent with (its answer lost on the way back, a retry) is answered what the first one was answered, with the header
 * `idempotent-replayed: true`, and does nothing again: a comment is not posted twice, a report not mailed twice.
 *
 * The key is kept per user in the app database (`request_replays`, migration 15) with a fingerprint of the request
 * (method, path, body): the same key with another request is refused (422), never answered with the first one's
 * result; the same key while its first request is still running waits for nothing and is told so (409). A request that
 * was refused (4xx, 5xx) leaves no key behind, so the user may send it again. A key whose request never finished (the
 * server stopped half-way) is taken over after REPLAY_STALE_MS; the route is told (`request.replay.retakenSince`) so
 * that it can look for what the first one may have done before doing it again.
 *
 * The create routes (moves, orders, contacts, move drafts) keep their keys on the records themselves (server/erp/
 * whole.ts, move_drafts.submission_key) and say so with `config.ownSubmissionKeys`: the route answers a resend with the
 * record its key made. Here they only keep the key's fingerprint (issue 54): the same key with another request is
 * refused (422) as on the other writes, never answered with the first record (its client would believe its new
 * values saved). Such a key goes when its request is refused (4xx), and stays when it failed (5xx), as the record may
 * have been made. Reads sent by POST (searches, totals, document readings) take none. Keys are kept a day.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { SqlDatabase } from '../db/sql';
import { HttpError } from '../http-error';
import { SUBMISSION_KEY } from '../erp/whole';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route keeps its submission keys itself (on the record it creates): this plugin leaves it alone. */
    ownSubmissionKeys?: boolean;
  }
  interface FastifyRequest {
    /** Set when this request holds a key: `retakenSince` when an earlier request with it never finished. */
    replay?: { key: string; retakenSince?: Date; ownRecord?: boolean };
  }
}

/** A key whose request has not answered after this long is taken to be lost (the server stopped half-way). */
export const REPLAY_STALE_MS = 5 * 60_000;
/** How long a key is kept. */
const KEPT_MS = 24 * 60 * 60_000;
/** Answers longer than this are not kept: a request sent again with their key runs again. */
const KEPT_ANSWER = 256 * 1024;

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const REPLAYED_HEADER = 'idempotent-replayed';

export const IDEMPOTENCY_KEY_DESCRIPTION =
  'One key per action (a UUID), the same when the same request is sent again: a request sent again after a lost answer is answered ' +
  'what the first one was (same status and body, header `idempotent-replayed: true`) and does nothing again. The same key with another ' +
  'request is refused (422); while the first request runs, 409. Without it, each request acts.';

interface Row {
  fingerprint: string;
  status: number | null;
  body: string | null;
  content_type: string | null;
  age_ms: number;
  created_at: Date;
}

function fingerprintOf(request: FastifyRequest): string {
  return createHash('sha256').update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`).digest('hex');
}

/** Reads sent by POST: searches, list totals, document readings. */
const READS = /\/(search|totals)$|^\/ocr\//;

/** Whether a route's requests may carry a replayable key: the writes of a signed-in user. */
export function replayableRoute(method: string, url: string, config: { public?: boolean; ownSubmissionKeys?: boolean } = {}): boolean {
  return WRITES.has(method) && !config.public && !config.ownSubmissionKeys && !READS.test(url);
}

function replayable(request: FastifyRequest): boolean {
  return Boolean(request.user) && replayableRoute(request.method, request.routeOptions.url ?? '', request.routeOptions.config);
}

/** A create route that answers a resend itself (`ownSubmissionKeys`): only its key's fingerprint is kept here. */
function ownKeyed(request: FastifyRequest): boolean {
  return Boolean(request.user) && WRITES.has(request.method) && Boolean(request.routeOptions.config?.ownSubmissionKeys);
}

/** The key of a create route that keeps its own: claimed with the request's fingerprint, or refused when it was another request's. */
async function claimOwnKey(db: SqlDatabase, request: FastifyRequest, key: string, fingerprint: string): Promise<void> {
  const userId = request.user.id;
  const [claimed] = await db.query(`INSERT INTO request_replays (user_id, key, fingerprint) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING key`, [userId, key, fingerprint]);
  if (claimed) {
    request.replay = { key, ownRecord: true };
    return;
  }
  const [row] = await db.query<{ fingerprint: string }>(`SELECT fingerprint FROM request_replays WHERE user_id = $1 AND key = $2`, [userId, key]);
  if (row && row.fingerprint !== fingerprint) throw new HttpError(422, 'request.keyReused', {}, { field: 'idempotency-key' });
  // The same request sent again (or its first refused meanwhile): the route answers the record its key made, if any.
}

/** After a create route answered: its key kept as done, or let go when the request was refused (nothing was made). */
async function settleOwnKey(db: SqlDatabase, request: FastifyRequest, status: number): Promise<void> {
  const { id } = request.user;
  const key = request.replay!.key;
  if (status >= 200 && status < 300) await db.query(`UPDATE request_replays SET status = $3 WHERE user_id = $1 AND key = $2`, [id, key, status]);
  else if (status < 500) await db.query(`DELETE FROM request_replays WHERE user_id = $1 AND key = $2 AND status IS NULL`, [id, key]);
}

export const replays = fp(async (app: FastifyInstance, { db }: { db: SqlDatabase }) => {
  app.addHook('preHandler', async (request, reply) => {
    const own = ownKeyed(request);
    if (!own && !replayable(request)) return;
    const given = request.headers['idempotency-key'];
    if (given === undefined) return;
    if (typeof given !== 'string' || !SUBMISSION_KEY.test(given)) throw new HttpError(400, 'validation.submissionKey', {}, { field: 'idempotency-key' });
    const userId = request.user.id;
    const fingerprint = fingerprintOf(request);
    if (own) return claimOwnKey(db, request, given, fingerprint);
    const [claimed] = await db.query<{ created_at: Date }>(
      `INSERT INTO request_replays (user_id, key, fingerprint) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING created_at`,
      [userId, given, fingerprint],
    );
    if (claimed) {
      request.replay = { key: given };
      // Now and then, the keys of yesterday go.
      if (Math.random() < 0.02) void db.query(`DELETE FROM request_replays WHERE created_at < now() - make_interval(secs => $1)`, [KEPT_MS / 1000]).catch(() => undefined);
      return;
    }
    const [row] = await db.query<Row>(
      `SELECT fingerprint, status, body, content_type, created_at, (extract(epoch FROM now() - created_at) * 1000)::float8 AS age_ms FROM request_replays WHERE user_id = $1 AND key = $2`,
      [userId, given],
    );
    // Gone meanwhile (its first request failed and let it go): this one takes it.
    if (!row) {
      request.replay = { key: given };
      await db.query(`INSERT INTO request_replays (user_id, key, fingerprint) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [userId, given, fingerprint]);
      return;
    }
    if (row.fingerprint !== fingerprint) throw new HttpError(422, 'request.keyReused', {}, { field: 'idempotency-key' });
    if (row.status !== null) {
      void reply.code(row.status).header(REPLAYED_HEADER, 'true');
      if (row.content_type) void reply.type(row.content_type);
      return reply.send(row.body ?? undefined);
    }
    if (row.age_ms < REPLAY_STALE_MS) throw Object.assign(new HttpError(409, 'request.inProgress', {}, { field: 'idempotency-key' }), { retryAfter: 5 });
    // Its first request never answered (the server stopped half-way): this one runs, told since when it may have acted.
    await db.query(`UPDATE request_replays SET created_at = now() WHERE user_id = $1 AND key = $2`, [userId, given]);
    request.replay = { key: given, retakenSince: new Date(row.created_at) };
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const replay = request.replay;
    if (replay?.ownRecord) {
      await settleOwnKey(db, request, reply.statusCode).catch((error: unknown) => request.log.warn({ err: error }, 'the idempotency key of this request could not be kept'));
      return payload;
    }
    if (!replay || reply.getHeader(REPLAYED_HEADER)) return payload;
    const status = reply.statusCode;
    const text = typeof payload === 'string' ? payload : payload === null || payload === undefined ? '' : undefined;
    try {
      if (status >= 200 && status < 300 && text !== undefined && text.length <= KEPT_ANSWER) {
        const type = reply.getHeader('content-type');
        await db.query(`UPDATE request_replays SET status = $3, body = $4, content_type = $5 WHERE user_id = $1 AND key = $2`, [
          request.user.id,
          replay.key,
          status,
          text,
          typeof type === 'string' ? type : null,
        ]);
      } else {
        // Refused, or an answer too big to keep: the key goes, and the request may be sent again.
        await db.query(`DELETE FROM request_replays WHERE user_id = $1 AND key = $2 AND status IS NULL`, [request.user.id, replay.key]);
      }
    } catch (error) {
      // The answer stands; without its key kept, a resend acts again (as a request without a key would).
      request.log.warn({ err: error }, 'the idempotency key of this request could not be kept');
    }
    return payload;
  });
});
