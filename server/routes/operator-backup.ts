/**
 * POST /auth/operator/backup: what `npm run backup` asks of the server that holds the embedded database (it belongs to
 * one process: the command cannot open it meanwhile). The answer is the database as one consistent moment (PGlite's
 * data directory, an uncompressed tar, taken between transactions; server/ops/backup.ts) with its schema version in a
 * header; the command adds DATA_DIR's other files and writes the archive.
 *
 * Only with an operator token for this action (signed with the session secret, one minute), as npm run admin:create's
 * route; hidden from /docs: it is the command's, not the API's.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import { BACKUP_ACTION, BACKUP_SUBJECT, dumpEmbeddedDatabase, SCHEMA_VERSION_HEADER } from '../ops/backup';
import { tokenFrom, type Sessions } from '../auth/session';

export async function operatorBackupRoute(app: FastifyInstance, options: { db: Db; sessions: Sessions }) {
  app.post('/auth/operator/backup', { schema: { hide: true }, config: { public: true } }, async (request, reply) => {
    const token = tokenFrom(request.headers.authorization);
    if (!token || !(await options.sessions.verifyOperator(token, BACKUP_ACTION, BACKUP_SUBJECT))) return reply.code(401).send({ message: 'Not an operator token for a backup' });
    if (options.db.kind !== 'pglite') return reply.code(409).send({ message: "This server's database is a PostgreSQL server: back it up with pg_dump (npm run backup saves DATA_DIR's files)" });
    const { data, schemaVersion } = await dumpEmbeddedDatabase(options.db);
    request.log.info({ bytes: data.length, schemaVersion }, 'backup: the embedded database copied for npm run backup');
    return reply
      .header('content-type', 'application/octet-stream')
      .header('cache-control', 'no-store')
      .header(SCHEMA_VERSION_HEADER, String(schemaVersion))
      .send(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  });
}
