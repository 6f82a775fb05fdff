/** Which failures are the database's (server/db/faults.ts): 503 while it is away, 507 when its disk is full, else none. */
import { describe, expect, it } from 'vitest';
import { databaseFault, DatabaseUnavailable, DiskFull, faultOf } from '../../server/db/faults';
import { ErpError } from '../../server/erp/types';

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

describe('database faults', () => {
  it('a restart, a refused or cut connection, a server starting up: 503', () => {
    for (const error of [
      pgError('57P01', 'terminating connection due to administrator command'),
      pgError('57P03', 'the database system is starting up'),
      pgError('08006', 'connection failure'),
      socketError('ECONNREFUSED'),
      socketError('ECONNRESET'),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
    ]) {
      expect(databaseFault(error), error.message).toBeInstanceOf(DatabaseUnavailable);
      expect(databaseFault(error)).toMatchObject({ statusCode: 503, key: 'db.unavailable', retryAfter: 5 });
    }
  });

  it('a write refused by a database that takes reads only (a standby, a read-only default): 503, a longer wait', () => {
    const error = pgError('25006', 'cannot execute INSERT in a read-only transaction');
    expect(databaseFault(error)).toBeInstanceOf(DatabaseUnavailable);
    expect(databaseFault(new Error('create failed', { cause: error }))).toMatchObject({ statusCode: 503, key: 'db.readOnly', retryAfter: 30 });
  });

  it('a full disk, PostgreSQL\'s or a file\'s: 507', () => {
    for (const error of [pgError('53100', 'could not extend file "base/5/16390": No space left on device'), socketError('ENOSPC')]) {
      expect(databaseFault(error)).toBeInstanceOf(DiskFull);
      expect(faultOf(error)).toMatchObject({ statusCode: 507, key: 'db.diskFull' });
    }
  });

  it("a query's own mistakes are not faults; an ERP or mail server out of reach is not the database", () => {
    expect(databaseFault(pgError('23505', 'duplicate key value violates unique constraint'))).toBeUndefined();
    expect(databaseFault(pgError('42601', 'syntax error at or near "x"'))).toBeUndefined();
    // The error handler answers only what the database layer named: Odoo refusing connections stays the ERP's 503.
    expect(faultOf(new ErpError('unavailable', 'ERP unavailable', { cause: socketError('ECONNREFUSED') }))).toBeUndefined();
    expect(faultOf(socketError('ECONNREFUSED'))).toBeUndefined();
    // Named by the database layer, found through the causes a caller wrapped it in.
    const named = new DatabaseUnavailable(socketError('ECONNREFUSED'));
    expect(faultOf(new Error('report failed', { cause: named }))).toBe(named);
  });
});
