/**
 * Where the test suite's time goes, in processor time (issue 53): runs `npx vitest run [args]` and, every half
 * second, reads /proc for every process started since, adding up each one's processor time by what it is (the
 * vitest workers, each Chromium process type, the servers the tests start, their document readers, scripts);
 * also how many of the machine's cores were busy, minute by minute, and each test file's time as vitest reports it.
 *   node --import tsx bench/test-cpu.ts [vitest arguments, e.g. --project e2e test/e2e/moves-list.e2e.test.ts]
 * Linux only (/proc). The figures are the whole machine's: run it on a quiet machine.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { stripVTControlCharacters } from 'node:util';

const TICKS_PER_SECOND = 100;

/** What a process is, by its command line. */
function kindOf(command: string): string {
  if (command.includes('chrom')) {
    const type = /--type=([a-z-]+)/.exec(command)?.[1];
    return `chromium ${type ?? 'browser'}`;
  }
  // From TypeScript (npm run dev) or from the bundle (scripts/build-server.ts), as the tests start them.
  if (/server\/main\.ts|\/main\.js/.test(command)) return 'server process';
  if (/extract\/worker\.ts|\/worker\.js/.test(command)) return 'document reader';
  if (command.includes('attachment-worker')) return 'attachment process';
  if (command.includes('tesseract')) return 'tesseract';
  if (command.includes('scripts/')) return `script ${/scripts\/([\w-]+)/.exec(command)?.[1] ?? ''}`;
  if (command.includes('postgres')) return 'postgres';
  if (command.includes('vitest')) return 'vitest (workers: unit, component, server tests, e2e clients)';
  return `other: ${command.slice(0, 60)}`;
}

/** Every process: its identity (pid and start time), processor ticks so far, command line. */
function processes(): Array<{ id: string; ticks: number; command: string }> {
  const out = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      out.push({ id: `${pid}:${fields[19]}`, ticks: Number(fields[11]) + Number(fields[12]), command });
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

/** All cores' ticks, and the idle ones (idle + iowait). */
function machine(): { all: number; idle: number } {
  const values = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  return { all: values.reduce((a, b) => a + b, 0), idle: values[3] + values[4] };
}

const before = new Set(processes().map((one) => one.id));
const seen = new Map<string, { kind: string; ticks: number }>();
const minutes: number[][] = [];
const started = Date.now();
let last = machine();
let output = '';

const child = spawn('npx', ['vitest', 'run', ...process.argv.slice(2)], { stdio: ['ignore', 'pipe', 'inherit'] });
child.stdout.on('data', (chunk: Buffer) => {
  output += chunk;
  process.stdout.write(chunk);
});
const sampler = setInterval(() => {
  for (const one of processes()) {
    if (before.has(one.id)) continue;
    const known = seen.get(one.id);
    // A forked process shows its parent's command line for a moment: named again until it is something known.
    seen.set(one.id, { kind: known && !known.kind.startsWith('other') ? known.kind : kindOf(one.command), ticks: one.ticks });
  }
  const now = machine();
  const minute = Math.floor((Date.now() - started) / 60_000);
  (minutes[minute] ??= []).push((1 - (now.idle - last.idle) / Math.max(1, now.all - last.all)) * availableParallelism());
  last = now;
}, 500);
const code = await new Promise<number>((resolve) => child.once('exit', (exit) => resolve(exit ?? 1)));
clearInterval(sampler);

const wall = (Date.now() - started) / 1000;
const byKind = new Map<string, number>();
const startedCount = new Map<string, number>();
for (const { kind, ticks } of seen.values()) {
  byKind.set(kind, (byKind.get(kind) ?? 0) + ticks / TICKS_PER_SECOND);
  startedCount.set(kind, (startedCount.get(kind) ?? 0) + 1);
}
const total = [...byKind.values()].reduce((a, b) => a + b, 0);
console.log(`\nwall ${wall.toFixed(0)} s; processor time of the processes the run started ${total.toFixed(0)} s (${(total / wall).toFixed(2)} cores on average of ${availableParallelism()})`);
for (const [kind, seconds] of [...byKind].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`${seconds.toFixed(1).padStart(8)} s  ${kind} (${startedCount.get(kind)} started)`);
console.log('\nbusy cores, minute by minute (the whole machine):');
console.log(minutes.map((samples, minute) => `${minute}: ${(samples.reduce((a, b) => a + b, 0) / samples.length).toFixed(2)}`).join('  '));
// Each file's time as vitest reported it (wall time, beside whatever else ran), longest first.
const files = [...stripVTControlCharacters(output).matchAll(/^ [✓❯×] +(\S+) +(\S+\.test\.tsx?) .*?(\d+)ms$/gm)].map(([, project, file, ms]) => ({ project, file, ms: Number(ms) }));
const projects = new Map<string, number>();
for (const { project, ms } of files) projects.set(project, (projects.get(project) ?? 0) + ms / 1000);
console.log('\nfile time by project (s): ' + [...projects].map(([name, seconds]) => `${name} ${seconds.toFixed(0)}`).join(', '));
console.log('longest files (s): ' + files.sort((a, b) => b.ms - a.ms).slice(0, 15).map(({ file, ms }) => `${file.replace(/^test\//, '')} ${(ms / 1000).toFixed(0)}`).join(', '));
process.exitCode = code;
