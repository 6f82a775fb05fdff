/**
 * Records what a real Odoo answers to the Odoo check (and so to the feature probe, which asks a subset), for
 * test/server/odoo-check.test.ts to replay:
 *
 *   ODOO_URL=http://127.0.0.1:18069 ODOO_DB=bo_stock ODOO_LOGIN=admin ODOO_API_KEY=admin \
 *     node --import tsx test/support/record-odoo-check.ts test/server/fixtures/odoo17-stock.json "description" [a@x.example,b@y.example]
 *
 * The third argument lists console accounts whose employees are looked up. `fields_get` answers are cut to the
 * fields the product uses, and tracebacks to their last lines, to keep the fixture small.
 */
import { writeFileSync } from 'node:fs';
import { FEATURE_FIELDS } from '../../server/erp/features';
import { checkOdoo, formatReport } from '../../server/erp/odoo/check';
import { OdooClient, type OdooConnection } from '../../server/erp/odoo/client';
import { CONNECTOR_FIELDS, STANDARD_FIELDS } from '../../server/erp/odoo/requirements';
import { odooVersion } from '../../server/erp/odoo/version';
import { callOf, type OdooRecording, type RecordedExchange } from './odoo-replay';

const KEPT_FIELDS = new Set([
  ...Object.values(STANDARD_FIELDS).flat(),
  ...Object.values(CONNECTOR_FIELDS).flat(),
  ...Object.values(FEATURE_FIELDS).flatMap((models) => Object.values(models).flat()),
  'id', 'display_name', 'company_id', 'company_ids', 'deprecated', 'tax_calculation_rounding_method', 'tax_scope', 'price_include', 'amount_type',
]);

async function main() {
  const [out, description = '', accountList] = process.argv.slice(2);
  if (!out) throw new Error('Usage: record-odoo-check.ts <fixture.json> [description] [emails]');
  const env = process.env;
  const connection: OdooConnection = { url: env.ODOO_URL!, db: env.ODOO_DB!, login: env.ODOO_LOGIN!, apiKey: env.ODOO_API_KEY! };
  const exchanges: RecordedExchange[] = [];
  const recording = (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    const text = await response.text();
    const request = JSON.parse(String(init?.body ?? '{}'));
    const answer = JSON.parse(text) as { result?: unknown; error?: { data?: { debug?: string } } };
    const call = callOf(request);
    let result = answer.result;
    if (call.orm === 'fields_get' && result && typeof result === 'object') {
      result = Object.fromEntries(Object.entries(result).filter(([name]) => KEPT_FIELDS.has(name)));
    }
    const error = answer.error;
    if (error?.data?.debug) error.data.debug = error.data.debug.trim().split('\n').slice(-2).join('\n');
    exchanges.push({ call, answer: error ? { error } : { result } });
    return new Response(text, { status: response.status, headers: response.headers });
  }) as typeof fetch;

  const version = await odooVersion(connection);
  const withRecording = { ...connection, fetch: recording };
  const accounts = accountList ? accountList.split(',').map((email) => ({ email, active: true })) : undefined;
  const report = await checkOdoo(new OdooClient(withRecording), { connection: withRecording, accounts });
  console.log(formatReport(report));
  const unique = [...new Map(exchanges.map((exchange) => [JSON.stringify(exchange.call), exchange])).values()];
  const fixture: OdooRecording = {
    description: `${description} Recorded by test/support/record-odoo-check.ts on ${new Date().toISOString().slice(0, 10)}.`.trim(),
    odoo: { ...connection, serverVersion: version.serverVersion },
    exchanges: unique,
  };
  writeFileSync(out, `${JSON.stringify(fixture, null, 1)}\n`);
  console.log(`${unique.length} exchanges written to ${out}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
