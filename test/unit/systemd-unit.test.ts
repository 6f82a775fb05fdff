/**
 * Issue 54: the systemd unit (deploy/backoffice.service) caps the service's memory, and says what the README says
 * about a watchdog: none, since the server cannot notify systemd (no native module for NOTIFY_SOCKET's datagrams).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';

const root = join(import.meta.dirname, '../..');
const unitPath = join(root, 'deploy/backoffice.service');
const unitText = readFileSync(unitPath, 'utf8');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The unit's settings by section, comments left out; a key set twice keeps its last value, as systemd does. */
function sections(text: string): Record<string, Record<string, string>> {
  const parsed: Record<string, Record<string, string>> = {};
  let section = '';
  for (const line of text.split('\n').map((one) => one.trim())) {
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) section = header[1];
    else {
      const at = line.indexOf('=');
      (parsed[section] ??= {})[line.slice(0, at).trim()] = line.slice(at + 1).trim();
    }
  }
  return parsed;
}

const GIB = 1024 ** 3;
const UNITS: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: GIB, T: 1024 ** 4 };

describe('the systemd unit', () => {
  const service = sections(unitText).Service;

  it("caps the memory of the server and its readers, with room for the default readers' caps (MemoryMax)", () => {
    const limit = /^(\d+)([KMGT]?)$/.exec(service.MemoryMax ?? '');
    expect(limit, `MemoryMax=${service.MemoryMax}`).not.toBeNull();
    const bytes = Number(limit![1]) * UNITS[limit![2]];
    // Two readers on a two-core machine, each capped at EXTRACT_MEMORY_MB, and 1 GiB for the server.
    const defaults = loadConfig({ EXTRACT_WORKERS: '2' });
    expect(bytes).toBeGreaterThanOrEqual(defaults.extractWorkers * defaults.extractMemoryMb * 1024 ** 2 + GIB);
    // A reader ended by the kernel is replaced by the server; the service is not stopped for it.
    expect(service.OOMPolicy).toBe('continue');
    expect(readme).toContain(`\`MemoryMax=${service.MemoryMax}\``);
  });

  it('has no watchdog, since the server does not notify systemd, and the README does not promise one', () => {
    expect(service.WatchdogSec).toBeUndefined();
    expect(service.Type).toBe('simple');
    expect(service.NotifyAccess).toBeUndefined();
    expect(readme).not.toMatch(/systemd's watchdog/i);
    expect(readme).toMatch(/no systemd watchdog \(`WatchdogSec`\)/);
  });

  it.runIf(existsSync('/usr/bin/systemd-analyze'))('is a unit systemd reads without a complaint', () => {
    let output: string;
    try {
      output = execFileSync('/usr/bin/systemd-analyze', ['verify', unitPath], { encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      output = String((error as { stderr?: string }).stderr ?? error);
    }
    expect(output).not.toMatch(/backoffice\.service:\d+:/);
  });
});
