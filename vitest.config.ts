import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { areaIcons } from './scripts/area-icons.ts';

export default defineConfig({
  // The console's modules as the build makes them (the icons the declarations name); each project extends this.
  plugins: [areaIcons()],
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Test files mostly wait on PGlite, servers and Chromium: one worker per core (vitest's default leaves one idle).
    maxWorkers: Math.max(availableParallelism(), 2),
    projects: [
      // A test of pure functions can still wait seconds for a core while the whole suite runs.
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.{ts,tsx}'], environment: 'node', testTimeout: 30_000 } },
      // A first render in jsdom (react-admin, MUI, the catalogues) took more than vitest's 5 s default while the whole
      // suite ran on two busy cores: the limit guards against a hang, it measures nothing.
      { extends: true, test: { name: 'component', include: ['test/component/**/*.test.{ts,tsx}'], environment: 'jsdom', testTimeout: 30_000 } },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['test/server/**/*.test.ts'],
          environment: 'node',
          // One initialised PGlite data directory that every in-memory test database starts from.
          globalSetup: ['test/server/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.test.ts'],
          environment: 'node',
          // One data folder as the server's first start makes it, copied for each server that starts the same way.
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          // What a page shows after a server round trip or a document read (OCR) can take seconds when the two cores
          // are busy: polls wait up to 20 s (vitest's default, 1 s, failed under load), never retried.
          expect: { poll: { timeout: 20_000 } },
          // Each file starts a server and a Chromium: one file at a time, after the other projects. Side by side with
          // the others (tried: 1847 s instead of 2323 s for the whole run) a document read by three OCR processes at
          // once while another Chromium rendered went past the test's 90 s on two cores: load, not a bug.
          fileParallelism: false,
        },
      },
    ],
  },
});
