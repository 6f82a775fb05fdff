import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort } from '../support/free-port';
import { scriptArgs, serverArgs } from '../support/server-command';
import { copyStartedData } from '../support/started-data';
import { STORAGE_KEYS } from '../../shared/domain/constants';

export const PASSWORD = 'demo1234';
export const SCREENSHOTS = join(process.cwd(), 'test-results');

export interface RunningServer {
  url: string;
  dataDir: string;
  /** The server's process (a test may pause it with SIGSTOP: a server that takes calls and answers nothing). */
  pid: number;
  output: () => string;
  stop: () => Promise<void>;
}

/** Whether a server of these settings would start as the copied data folder was made: embedded ERP, demo data. */
const startsAsSeeded = (env: Record<string, string>) => !env.DATA_DIR && !env.DATABASE_URL && !env.ERP && !env.DEMO;

/**
 * Starts the real server (`npm run serve`'s command) on a free port with a fresh data folder: a copy of the data
 * folder a first start makes, unless `env` changes how it would start (another ERP or database, no demo data).
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-e2e-'));
  if (startsAsSeeded(env)) await copyStartedData(dataDir);
  let log = '';
  const child: ChildProcess = spawn(process.execPath, await serverArgs(), {
    env: { ...process.env, PORT: String(port), PUBLIC_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (log += chunk));
  child.stderr?.on('data', (chunk) => (log += chunk));
  // A first start creates and seeds its database: on a loaded machine, well over a minute.
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`);
    try {
      const response = await fetch(`${url}/login`, { headers: { accept: 'text/html' } });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    dataDir,
    pid: child.pid!,
    output: () => log,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The Chromium people run (`apt-get install -y chromium`), with its own parts: its PDF viewer, for one. */
const FULL_CHROMIUM = () => process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * The same Chromium's headless shell (`apt-get install -y chromium-headless-shell`, Debian's package of the same
 * version): the same Blink and V8 without the browser's window and profile machinery, which the tests' pages do not
 * use; the full Chromium when it is not installed. Measured with bench/test-cpu.ts on moves-list.e2e.test.ts: the
 * Chromium processes 104.6 -> 65.2 s of processor time, 47 -> 19 renderer processes started.
 */
function chromiumFor(full: boolean): string {
  if (full) return FULL_CHROMIUM();
  const shell = process.env.CHROMIUM_SHELL_PATH || '/usr/bin/chromium-headless-shell';
  return existsSync(shell) ? shell : FULL_CHROMIUM();
}

export interface BrowserOptions {
  /** The full Chromium rather than its headless shell, for a check of the browser's own parts (a PDF opened in a tab shows in its viewer; the shell downloads it instead). */
  full?: boolean;
  /**
   * The pages' motion as most people have it (transitions, ripples). Otherwise a context prefers reduced motion unless
   * it says so (`reducedMotion`), and the console then draws no frames between two states: the same screens, the same
   * steps, less of Chromium's processor time (issue 53, bench/test-cpu.ts: keyboard and moves-journey 187 -> 162 s; the
   * whole e2e project 1,464 -> 1,387 s, Chromium's GPU processes 145 -> 99 s). The journeys (moves-journey, orders) and
   * the motion check (theme.e2e) keep it.
   */
  motion?: boolean;
}

/** `args`: more of Chromium's switches (`--lang=en-US`: the browser's own locale, which native inputs follow). */
export async function launchBrowser(args: string[] = [], { full = false, motion = false }: BrowserOptions = {}): Promise<Browser> {
  const browser = await launched(args, full);
  if (motion) return browser;
  // Chromium's --force-prefers-reduced-motion is undone by Playwright's own media emulation: each context asks instead.
  const newContext = browser.newContext.bind(browser);
  const newPage = browser.newPage.bind(browser);
  browser.newContext = (options = {}) => newContext({ reducedMotion: 'reduce', ...options });
  browser.newPage = (options = {}) => newPage({ reducedMotion: 'reduce', ...options });
  return browser;
}

function launched(args: string[], full: boolean): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumFor(full),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...args,
    ],
  });
}

/** The session token each account's first sign-in on a server got (by server and e-mail), for signIn to resume. */
const sessions = new Map<string, string>();

/**
 * Opens the console with a session an earlier signIn of this file got for the account, as a person whose browser kept
 * it would (the session is the server's: permissions and companies are read fresh on every request). False, and the
 * token forgotten, when the server no longer knows it (signed out, revoked): the login page shows instead.
 */
async function resumeSession(page: Page, baseUrl: string, key: string, at: string): Promise<boolean> {
  // The token goes where the console keeps it, set from a page of the same origin that loads no console.
  await page.goto(`${baseUrl}/healthz`);
  await page.evaluate(([name, token]) => localStorage.setItem(name, token), [STORAGE_KEYS.token, sessions.get(key)!] as const);
  await page.goto(`${baseUrl}${at}`);
  const title = page.getByTestId('page-title');
  const login = page.getByTestId('google-sign-in');
  await title.or(login).first().waitFor();
  if (await title.isVisible()) return true;
  sessions.delete(key);
  return false;
}

/**
 * Signs in through the login page and the embedded issuer's form, as a person would; ends on the screen `at` (the
 * home by default), its title shown. The same account on the same server again (another test, another context)
 * resumes the session the first sign-in got, opening `at` straight away: a whole sign-in was about a second of
 * Chromium and a second of waiting each time, and the sign-in itself is what the first one (and test/e2e/shell,
 * users, a11y's sign-in pages) tests. A resumed session opened the home before the screen a test wanted: the console
 * started twice, the home's counts read for nothing.
 */
export async function signIn(page: Page, baseUrl: string, email: string, at = '/'): Promise<void> {
  const key = `${baseUrl} ${email}`;
  if (sessions.has(key) && (await resumeSession(page, baseUrl, key, at))) return;
  await page.goto(`${baseUrl}/login`);
  await page.getByTestId('google-sign-in').click();
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL(`${baseUrl}/`);
  await page.getByTestId('page-title').waitFor();
  const token = await page.evaluate((name) => localStorage.getItem(name), STORAGE_KEYS.token);
  if (token) sessions.set(key, token);
  if (at !== '/') {
    await page.goto(`${baseUrl}${at}`);
    await page.getByTestId('page-title').waitFor();
  }
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * A data folder made by `npm run seed -- <args>` (the demo data and, say, 500 bills waiting), then changed by
 * `prepare` with the server's own modules before the server opens it.
 */
export interface SeededData {
  args: string[];
  prepare?: (env: NodeJS.ProcessEnv) => Promise<void>;
}

/**
 * The real server and a Chromium for one test file: started before its tests, stopped after them; on a fresh data
 * folder, or on one `seed` made; `serverEnv`: more of the server's settings; `browserOptions`: the full Chromium, the
 * pages' motion (launchBrowser).
 */
export function serverAndBrowser(
  seed?: SeededData,
  serverEnv: Record<string, string> = {},
  browserOptions: BrowserOptions = {},
): { readonly server: RunningServer; readonly browser: Browser } {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    if (seed) {
      dataDir = mkdtempSync(join(tmpdir(), 'backoffice-e2e-seeded-'));
      await copyStartedData(dataDir);
      const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
      if (seed.args.length) execFileSync(process.execPath, scriptArgs('scripts/seed.ts', ...seed.args), { env, stdio: 'pipe' });
      await seed.prepare?.(env);
    }
    // The browser starts while the server does: neither waits on the other, and the one started is closed after all
    // even when the other failed.
    const [started, launched] = await Promise.allSettled([startServer({ ...serverEnv, ...(dataDir ? { DATA_DIR: dataDir } : {}) }), launchBrowser([], browserOptions)]);
    if (started.status === 'fulfilled') server = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    for (const outcome of [started, launched]) if (outcome.status === 'rejected') throw outcome.reason;
  }, 300_000);
  // A failing test leaves what it saw: the server's output, and each open page's address, alerts and a screenshot.
  beforeEach(({ onTestFailed, task }) => {
    onTestFailed(async () => {
      console.error(`[${task.name}] server output (last 6000 characters):\n${server?.output().slice(-6000) ?? '(no server)'}`);
      for (const [index, page] of (browser?.contexts() ?? []).flatMap((context) => context.pages()).entries()) {
        if (page.isClosed()) continue;
        const alerts = await page.getByRole('alert').allInnerTexts().catch(() => []);
        console.error(`[${task.name}] page ${index}: ${page.url()}; alerts: ${JSON.stringify(alerts)}`);
        await screenshot(page, `failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}-${index}`).catch(() => undefined);
      }
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    get server() {
      return server!;
    },
    get browser() {
      return browser!;
    },
  };
}

/** The texts of a table column, found by its header (which columns show, and where, is the user's choice). */
export function columnByHeader(page: Page, header: string): Promise<string[]> {
  return page.locator('table').evaluate((table, wanted) => {
    const index = [...table.querySelectorAll('thead th')].findIndex((th) => (th as HTMLElement).innerText.trim() === wanted);
    if (index < 0) throw new Error(`no column ${wanted}`);
    return [...table.querySelectorAll('tbody tr')].map((row) => (row.children[index] as HTMLElement)?.innerText ?? '');
  }, header);
}

/** Shows columns a list hides by default, with react-admin's column selector (issue 16). */
export async function showColumns(page: Page, headers: string[]): Promise<void> {
  await page.getByTestId('columns-button').click();
  for (const header of headers) await page.getByRole('switch', { name: header, exact: true }).check();
  await page.keyboard.press('Escape');
}

/**
 * Unfolds a list's filter form (issue 33: folded behind the search box on a desktop), unless it is already: the
 * unfolded state is remembered while the page lives, and a page loaded again starts folded.
 */
export async function unfoldFilters(page: Page): Promise<void> {
  const toggle = page.getByTestId('filters-toggle');
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  await page.getByTestId('apply-filters').waitFor();
}
