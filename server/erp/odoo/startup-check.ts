/**
 * With ERP=odoo the server checks its Odoo in the background once it listens, and logs a summary: a warning per
 * missing item, degraded items and "nothing missing" at info level. It never stops the start: an unreachable Odoo
 * is logged as such and the server answers 'ERP unavailable' until Odoo is back.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Sql } from '../../db/sql';
import type { ErpClient } from '../types';
import { checkOdoo, summaryLine, type CheckReport, type ConsoleAccount } from './check';

/** The console's accounts (for the employee and companies checks); null when the app database cannot be read. */
export async function consoleAccounts(db: Sql): Promise<ConsoleAccount[] | null> {
  try {
    return await db.query<ConsoleAccount>('SELECT email, active, permissions, companies FROM users ORDER BY id');
  } catch {
    return null;
  }
}

export function logReport(log: FastifyBaseLogger, report: CheckReport): void {
  if (!report.reachable) {
    const [item] = report.items;
    log.warn(`Odoo check: ${item?.details.join('; ') ?? 'Odoo cannot be reached'}. ${item?.fix ?? ''}`.trim());
    return;
  }
  for (const item of report.items) {
    if (item.status === 'missing') log.warn(`Odoo check: missing ${item.feature}: ${item.details.join('; ')}. Fix: ${item.fix}`);
    else if (item.status === 'degraded') log.info(`Odoo check: degraded ${item.feature}: ${item.details.join('; ')}. Fix: ${item.fix}`);
  }
  const missing = report.items.some((item) => item.status === 'missing');
  const summary = `Odoo check of ${report.target}${report.version ? ` (Odoo ${report.version})` : ''}: ${summaryLine(report)}; details: npm run odoo:check`;
  if (missing) log.warn(summary);
  else log.info(summary);
}

/** Runs the check and logs it; resolves when done, never rejects. */
export async function checkOdooAtStart(services: { config: Config; erp: { client: ErpClient }; db: Sql }, log: FastifyBaseLogger): Promise<void> {
  const { config } = services;
  if (config.erp !== 'odoo' || !config.odoo) return;
  try {
    const accounts = await consoleAccounts(services.db);
    const report = await checkOdoo(services.erp.client, {
      connection: config.odoo,
      accounts: accounts ?? undefined,
      accountsNote: accounts ? undefined : "Employees not checked: the app database's accounts could not be read",
    });
    logReport(log, report);
  } catch (error) {
    log.warn({ err: error }, `Odoo check could not run: ${error instanceof Error ? error.message : String(error)}`);
  }
}
