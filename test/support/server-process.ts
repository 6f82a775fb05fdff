/**
 * The real server as a child process (as production runs it: test/support/server-command.ts), so that its exit is observable, and the
 * bill creations the fault tests send it (issue 29): each with a PDF and an Idempotency-Key.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { demoPdf } from '../../server/erp/embedded/files';
import { openDatabase } from '../../server/db';
import { serverArgs } from './server-command';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything it wrote, standard output and error. */
  output: () => string;
  /** How it ended (null while it runs). */
  exit: () => { code: number | null; signal: NodeJS.Signals | null } | null;
  /** SIGTERM, waited for. */
  stop: () => Promise<void>;
  /** SIGKILL, waited for: no clean-up of any kind. */
  kill: () => Promise<void>;
}

/** `whileStarting` is shown the output so far each time the starting server writes (a test acts on what it says). */
export async function startServerProcess(env: Record<string, string>, port: number, timeoutMs = 180_000, whileStarting?: (output: string) => void): Promise<ServerProcess> {
  const child = spawn(process.execPath, await serverArgs(), {
    env: { ...process.env, PORT: String(port), PUBLIC_URL: `http://localhost:${port}`, LOG_LEVEL: 'warn', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  let ended: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      ended = { code, signal };
      resolve();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in ${timeoutMs} ms:\n${log}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      log += chunk;
      whileStarting?.(log);
      if (log.includes('Backoffice console on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the server ended while starting (${JSON.stringify(ended)}):\n${log}`));
    });
  });
  const signal = async (name: NodeJS.Signals) => {
    if (!ended) child.kill(name);
    await exited;
  };
  return { url: `http://127.0.0.1:${port}`, child, output: () => log, exit: () => ended, stop: () => signal('SIGTERM'), kill: () => signal('SIGKILL') };
}

const today = new Date().toISOString().slice(0, 10);
const pdf = `data:application/pdf;base64,${demoPdf(['Taxi', 'Total 23,40 EUR']).toString('base64')}`;

/** An expense of the seeded demo company with its receipt, as the console sends it. */
export function expense(n: number) {
  return { type: 'expense', company_id: 1, partner_id: 1, date: today, amount: 10 + n / 100, concept: `Taxi ${n}`, comment: `Burst ${n}`, paymentMethod: 'corporate_card', file: { name: `taxi-${n}.pdf`, data: pdf } };
}

export interface Answer {
  key: string;
  /** Which expense was sent (expense(n)): a resend with the same key sends the same one. */
  n: number;
  status: number | 'no answer';
  id?: number;
  retryAfter?: string | null;
  /** Answered with the bill an earlier send of the same key made (Idempotent-Replayed). */
  replayed?: boolean;
  message?: string;
  error?: string;
}

/** One creation (in Spanish, the console's default), answered or not (a connection cut by a kill is no answer). */
export async function createMove(url: string, token: string, n: number, key: string = randomUUID(), language = 'es'): Promise<Answer> {
  try {
    const response = await fetch(`${url}/odoo/moves/create`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json', 'accept-language': language, 'idempotency-key': key },
      body: JSON.stringify(expense(n)),
      signal: AbortSignal.timeout(120_000),
    });
    const body = (await response.json()) as { id?: number; message?: string };
    return { key, n, status: response.status, id: body.id, retryAfter: response.headers.get('retry-after'), replayed: response.headers.get('idempotent-replayed') === 'true', message: body.message };
  } catch (error) {
    return { key, n, status: 'no answer', error: String((error as Error)?.cause ?? error) };
  }
}

/** The moves the given keys made, each with its main attachment and the attachments that point at it. */
export async function movesByKey(database: { databaseUrl?: string; dataDir: string }, keys: string[]) {
  const db = await openDatabase({ ...database, lockWaitMs: 60_000 });
  try {
    return await db.query<{ id: number; key: string; main: number | null; files: number; main_is_its_own: boolean }>(
      `SELECT m.id, m.x_backoffice_key AS key, m.message_main_attachment_id AS main,
              (SELECT count(*)::int FROM ir_attachment a WHERE a.res_model = 'account.move' AND a.res_id = m.id AND a.datas IS NOT NULL) AS files,
              EXISTS (SELECT 1 FROM ir_attachment a WHERE a.id = m.message_main_attachment_id AND a.res_id = m.id) AS main_is_its_own
         FROM account_move m WHERE m.x_backoffice_key = ANY($1::text[]) ORDER BY m.id`,
      [keys],
    );
  } finally {
    await db.close();
  }
}

/**
 * A burst of creations at once: `underWay` settles when the first is acknowledged (the moment a fault test strikes,
 * the others being in every stage of their write), `settled` with every answer.
 */
export function burstOfMoves(url: string, token: string, count: number, first: number): { underWay: Promise<void>; settled: Promise<Answer[]> } {
  let acknowledged!: () => void;
  const underWay = new Promise<void>((resolve) => (acknowledged = resolve));
  const settled = Promise.all(
    Array.from({ length: count }, (_, n) =>
      createMove(url, token, first + n).then((answer) => {
        if (answer.status === 201) acknowledged();
        return answer;
      }),
    ),
  );
  return { underWay, settled };
}
