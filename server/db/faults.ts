/**
 * What a database failure means for the person who asked (issue 29, items 2 and 5): the database away (a restart, a
 * failover, the embedded one's thread gone) is 503 with Retry-After, "try again in a moment"; taking reads only (issue
 * 54) is 503 with a longer Retry-After, "only reads for now"; its disk full is 507,
 * the administrator's to fix. Anything else a query fails with (a constraint, a syntax error) is left as it is.
 */
import { HttpError } from '../http-error';
import { RefusalError } from '../refusal-error';

/** How many seconds a client is told to wait before trying again while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** How long a client is told to wait while the database takes reads only (a failover is minutes, not seconds). */
export const READ_ONLY_RETRY_AFTER_SECONDS = 30;

export class DatabaseUnavailable extends HttpError {
  readonly retryAfter: number;
  constructor(cause: unknown, key: 'db.unavailable' | 'db.readOnly' = 'db.unavailable', retryAfter = DATABASE_RETRY_AFTER_SECONDS) {
    super(503, key, {}, { cause });
    this.name = 'DatabaseUnavailable';
    this.retryAfter = retryAfter;
  }
}

/**
 * A write refused by a database that takes reads only (issue 54, item 2: a failover's standby, a replica, an
 * administrator's `default_transaction_read_only`): 503 with Retry-After, "only reads for now", never a 500.
 */
export class DatabaseReadOnly extends DatabaseUnavailable {
  constructor(cause: unknown) {
    super(cause, 'db.readOnly', READ_ONLY_RETRY_AFTER_SECONDS);
    this.name = 'DatabaseReadOnly';
  }
}

export class DiskFull extends HttpError {
  constructor(cause: unknown) {
    super(507, 'db.diskFull', {}, { cause });
    this.name = 'DiskFull';
  }
}

/** Socket failures: nobody listens, the connection was cut, the address is gone for now. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTCONN']);

/** SQLSTATE 25006, read_only_sql_transaction: a write sent to a database that takes reads only. */
const READ_ONLY_STATE = '25006';

/**
 * PostgreSQL's own words for "not now" (SQLSTATE): class 08 connection exceptions, 57P01 admin shutdown (a fast or
 * immediate restart), 57P02 crash shutdown, 57P03 cannot connect now (starting up, shutting down, in recovery),
 * 53300 too many connections.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** node-postgres's messages for a connection that ended under it (they carry no code). */
const ENDED = /Connection terminated|not queryable|timeout exceeded when trying to connect|The embedded database (stopped|failed)/;

const NO_SPACE = /No space left on device|could not extend file|could not write to file/i;

function chain(error: unknown): unknown[] {
  const seen: unknown[] = [];
  for (let at = error; at && typeof at === 'object' && !seen.includes(at) && seen.length < 8; at = (at as { cause?: unknown }).cause) seen.push(at);
  return seen;
}

/** What a failure of the database is to the client, or undefined when it is not one of these. */
export function databaseFault(error: unknown): DatabaseUnavailable | DiskFull | undefined {
  const causes = chain(error);
  for (const one of causes) if (one instanceof DatabaseUnavailable || one instanceof DiskFull) return one;
  for (const one of causes) {
    const { code, message } = one as { code?: unknown; message?: unknown };
    if (code === '53100' || code === 'ENOSPC' || (typeof message === 'string' && NO_SPACE.test(message))) return new DiskFull(error);
  }
  for (const one of causes) if ((one as { code?: unknown }).code === READ_ONLY_STATE) return new DatabaseReadOnly(error);
  for (const one of causes) {
    const { code, message } = one as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith('08'))) return new DatabaseUnavailable(error);
    if (typeof message === 'string' && ENDED.test(message)) return new DatabaseUnavailable(error);
  }
  return undefined;
}

/**
 * The fault an error handler answers: one the database layer named (anywhere in the error's causes), or a disk full
 * met elsewhere (a file written under DATA_DIR). A refused connection of another service (the ERP, the mail server)
 * is not the database's: it is left to its own message.
 */
export function faultOf(error: unknown): DatabaseUnavailable | DiskFull | undefined {
  const causes = chain(error);
  for (const one of causes) if (one instanceof DatabaseUnavailable || one instanceof DiskFull) return one;
  if (causes[0] instanceof RefusalError) return undefined;
  for (const one of causes) {
    const { code, message } = one as { code?: unknown; message?: unknown };
    if (code === '53100' || code === 'ENOSPC' || (typeof message === 'string' && NO_SPACE.test(message))) return new DiskFull(error);
  }
  return undefined;
}

/** The error as the client is to see it: a database fault as 503 or 507, anything else as it is. */
export function asDatabaseFault(error: unknown): unknown {
  return databaseFault(error) ?? error;
}
