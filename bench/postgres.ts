/** A throwaway PostgreSQL 15 cluster on a free local port, for benchmarks and tests that want a real server. */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/free-port';

const BIN = '/usr/lib/postgresql/15/bin';
const run = promisify(execFile);

export function postgresAvailable(): boolean {
  return existsSync(join(BIN, 'initdb'));
}

export interface Cluster {
  url: string;
  /** pg_ctl restart: 'fast' ends the sessions cleanly, 'immediate' as a crash (recovery at start); waits until it is up. */
  restart: (mode: 'fast' | 'immediate') => Promise<void>;
  /** pg_ctl stop (fast): the database away until `resume`; waits until it is down. */
  halt: () => Promise<void>;
  /** pg_ctl start after `halt`; waits until it accepts connections. */
  resume: () => Promise<void>;
  /** The path of the server's own log. */
  log: string;
  stop: () => void;
}

export async function startPostgres(): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  // initdb refuses to run as root: run the cluster as the postgres user when we are root.
  const asPostgres = (command: string, args: string[]) =>
    process.getuid?.() === 0 ? execFileSync('runuser', ['-u', 'postgres', '--', join(BIN, command), ...args], { stdio: 'pipe' }) : execFileSync(join(BIN, command), args, { stdio: 'pipe' });
  asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c shared_buffers=256MB`;
  asPostgres('pg_ctl', ['-D', data, '-w', '-l', join(dir, 'log'), '-o', options, 'start']);
  const ctl = async (args: string[]) => {
    const command = [join(BIN, 'pg_ctl'), '-D', data, '-w', '-t', '120', ...args];
    await run(process.getuid?.() === 0 ? 'runuser' : command[0], process.getuid?.() === 0 ? ['-u', 'postgres', '--', ...command] : command.slice(1));
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    log: join(dir, 'log'),
    // Without blocking the caller's thread: its requests go on meanwhile.
    restart: async (mode) => {
      const args = [join(BIN, 'pg_ctl'), '-D', data, '-w', '-t', '120', '-m', mode, '-l', join(dir, 'log'), '-o', options, 'restart'];
      await run(process.getuid?.() === 0 ? 'runuser' : args[0], process.getuid?.() === 0 ? ['-u', 'postgres', '--', ...args] : args.slice(1));
    },
    halt: () => ctl(['-m', 'fast', 'stop']),
    resume: () => ctl(['-l', join(dir, 'log'), '-o', options, 'start']),
    stop: () => {
      try {
        asPostgres('pg_ctl', ['-D', data, '-w', '-m', 'fast', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
