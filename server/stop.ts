/**
 * A graceful stop (issue 32, item 3), on SIGTERM or SIGINT: the process takes no new work (readiness 503; any new
 * request 503 with Retry-After, server/plugins/health.ts), stops listening, lets the requests under way (document
 * readings included) finish, hands back the report jobs still running near the deadline, and closes the database.
 * Past `config.stopTimeoutMs` it hands the report jobs back and gives up waiting.
 */
import type { FastifyInstance } from 'fastify';

export type StopOutcome = 'stopped' | 'timed out';

export async function stopGracefully(app: FastifyInstance, signal: string): Promise<StopOutcome> {
  const { lifecycle, config, reports } = app.services;
  const withinMs = config.stopTimeoutMs;
  app.log.info({ signal, withinMs }, `${signal}: stopping (no new work; waiting for the requests and report jobs under way)`);
  lifecycle.stop(withinMs);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<StopOutcome>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), withinMs);
  });
  const outcome = await Promise.race([app.close().then((): StopOutcome => 'stopped'), late]);
  clearTimeout(timer);
  if (outcome === 'timed out') {
    app.log.error({ withinMs }, 'stopping took too long: report jobs handed back, the process ends with requests still under way');
    await reports.stop(0).catch(() => 0);
  } else app.log.info('stopped');
  return outcome;
}
