/** Starts the reference server: `npm start` (after building the console) or `npm run serve`. */
import { buildApp } from './app';
import { configOrReport } from './config';
import { DatabaseNotReady } from './db';
import { databaseFault } from './db/faults';
import { demoAccountsText, DemoPasswordsPresent } from './db/seed';
import { checkOdooAtStart } from './erp/odoo/startup-check';
import { SchemaTooNew } from './db/migrations';
import { stopGracefully } from './stop';

/**
 * The last line of defence (issue 29, item 2): a rejection nobody awaited, or an 'error' event nobody listens to, of
 * the database (a connection cut by a restart) is logged and the server goes on, since the database layer answers 503
 * until it is back; anything else is a bug whose state nobody knows, and ends the process as Node would.
 */
function guardProcess(log: { error: (object: object, message: string) => void }) {
  process.on('unhandledRejection', (reason) => {
    log.error({ err: reason }, databaseFault(reason) ? 'unhandled rejection (database fault): the server goes on' : 'unhandled rejection');
    if (!databaseFault(reason)) process.exit(1);
  });
  process.on('uncaughtException', (error) => {
    log.error({ err: error }, databaseFault(error) ? 'uncaught exception (database fault): the server goes on' : 'uncaught exception');
    if (!databaseFault(error)) process.exit(1);
  });
}

async function main() {
  const config = configOrReport();
  if (!config) process.exit(2);
  const app = await buildApp(config);
  guardProcess(app.log);
  const { seededUsers, erp } = app.services;
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`Backoffice console on ${config.publicUrl} (listening on port ${port}; ERP: ${config.erp}${erp.seeded ? ', demo data seeded' : ''}${erp.filled.length ? `, demo rows added to ${erp.filled.join(', ')}` : ''})`);
  if (seededUsers && !config.google) console.log(demoAccountsText());
  // Readers loaded before the first person asks (issue 30), in the background: listening is not delayed.
  if (config.extractWarm > 0) void app.services.extractor.pool.warm(config.extractWarm);
  if (config.demo && config.erp === 'odoo') {
    app.log.warn('DEMO=true with ERP=odoo: the demo accounts and their published password (demo1234) can write to this Odoo; for a test Odoo only');
  }
  // With ERP=odoo: what the Odoo has and lacks, in the log, in the background (never stops the start).
  if (config.erp === 'odoo') void checkOdooAtStart(app.services, app.log);

  let closing = false;
  const stop = async (signal: string) => {
    if (closing) return;
    closing = true;
    process.exit((await stopGracefully(app, signal)) === 'stopped' ? 0 : 1);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  // A refusal that says its own fix is printed as it is, without a stack.
  console.error(error instanceof DemoPasswordsPresent || error instanceof SchemaTooNew || error instanceof DatabaseNotReady ? error.message : error);
  process.exit(1);
});
