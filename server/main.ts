/** Starts the reference server: `npm start` (after building the console) or `npm run serve`. */
import { buildApp } from './app';
import { configOrReport } from './config';
import { demoAccountsText, DemoPasswordsPresent } from './db/seed';
import { checkOdooAtStart } from './erp/odoo/startup-check';

async function main() {
  const config = configOrReport();
  if (!config) process.exit(2);
  const app = await buildApp(config);
  const { seededUsers, erp } = app.services;
  await app.listen({ port: config.port, host: '0.0.0.0' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`Backoffice console on ${config.publicUrl} (listening on port ${port}; ERP: ${config.erp}${erp.seeded ? ', demo data seeded' : ''})`);
  if (seededUsers && !config.google) console.log(demoAccountsText());
  if (config.demo && config.erp === 'odoo') {
    app.log.warn('DEMO=true with ERP=odoo: the demo accounts and their published password (demo1234) can write to this Odoo; for a test Odoo only');
  }
  // With ERP=odoo: what the Odoo has and lacks, in the log, in the background (never stops the start).
  if (config.erp === 'odoo') void checkOdooAtStart(app.services, app.log);

  let closing = false;
  const stop = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: closing`);
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  // A refusal that says its own fix is printed as it is, without a stack.
  console.error(error instanceof DemoPasswordsPresent ? error.message : error);
  process.exit(1);
});
