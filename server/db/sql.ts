/** The little the app database and the embedded store need from a SQL connection (PGlite or a PostgreSQL pool). */
export interface Sql {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface SqlDatabase extends Sql {
  /** Runs fn in one transaction: everything or nothing. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
}
