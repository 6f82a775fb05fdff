/** How the server reaches a real Odoo (its URL, database and API user), apart from the client so the version probe can name it too. */
import type { UnaccentSetting } from './accents';

export type OdooProtocol = 'jsonrpc' | 'json2';

export interface OdooConnection {
  url: string;
  db: string;
  login: string;
  apiKey: string;
  /** auto (or unset): JSON-2 on Odoo 19 and later, JSON-RPC before, from the server's version. */
  protocol?: 'auto' | OdooProtocol;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** The time zone sent when no request context gives one (scripts, start-up checks). */
  timeZone?: string;
  /** Whether Odoo's ilike ignores accents (started with --unaccent): asked of it by default (accents.ts). */
  unaccent?: UnaccentSetting;
}
