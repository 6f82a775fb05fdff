/**
 * A graceful stop (issue 32, item 3; issue 54, item 4), on SIGTERM or SIGINT: the process takes no new work (readiness
 * 503; any new request 503 with Retry-After and Connection: close, server/plugins/health.ts), stops listening, lets the
 * requests under way (document readings included) finish, hands back the report jobs still running near the deadline,
 * and closes the database.
 *
 * The connections already open stay open while the requests under way finish: a request a client sends on one it
 * kept alive is answered 503 with Connection: close (then that connection closes), not reset. Once no request is under
 * way the idle connections are closed and the process ends. Past `config.stopTimeoutMs` every request still under way
 * is answered 503 `server.restarting` (in its language, with Retry-After and Connection: close) before its connection
 * closes, whatever its handler is doing; the report jobs are handed back and the process ends (code 1). A creation cut
 * so is never half-written: it is made whole or not at all by its ERP transaction or its pending marker and clean-up
 * (server/erp/whole.ts), and the client's resend with its Idempotency-Key answers the record it made, or makes it once.
 */
import { Server as NetServer } from 'node:net';
import type { FastifyInstance } from 'fastify';

export type StopOutcome = 'stopped' | 'timed out';

/**
 * Stops taking connections and leaves those open alone: Node's http `server.close()` (which `app.close()` calls) also
 * closes the idle kept-alive ones at once, so that a request their client sends at that moment meets a reset.
 */
function stopListening(app: FastifyInstance): void {
  if (app.server.listening) NetServer.prototype.close.call(app.server);
}

export async function stopGracefully(app: FastifyInstance, signal: string): Promise<StopOutcome> {
  const { lifecycle, config, reports } = app.services;
  const withinMs = config.stopTimeoutMs;
  app.log.info({ signal, withinMs, underWay: lifecycle.underWay }, `${signal}: stopping (no new work; waiting for the requests and report jobs under way)`);
  lifecycle.stop(withinMs);
  stopListening(app);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<StopOutcome>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), withinMs);
  });
  // Once no request is under way: the idle connections closed, the report jobs waited for, the database closed.
  const closed = lifecycle.drained().then(() => app.close().then((): StopOutcome => 'stopped'));
  const outcome = await Promise.race([closed, late]);
  clearTimeout(timer);
  if (outcome === 'timed out') {
    const answered = await lifecycle.answerUnderWay();
    app.log.error({ withinMs, answered }, 'stopping took too long: the requests still under way answered 503, report jobs handed back, the process ends');
    await reports.stop(0).catch(() => 0);
    app.server.closeAllConnections();
  } else app.log.info('stopped');
  return outcome;
}
