import { availableParallelism } from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { areaIcons } from './scripts/area-icons.ts';
import { MOCKING } from './test/support/mocking.ts';

/** An end-to-end project: a real server and a real Chromium per file. */
function e2eProject(name: string, rest: { maxWorkers: number; sequence: { groupOrder: number } }): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: {
      name,
      include: ['test/e2e/**/*.e2e.test.ts'],
      environment: 'node',
      // One data folder as the server's first start makes it, copied for each server that starts the same way.
      globalSetup: ['test/support/started-data-setup.ts'],
      testTimeout: 90_000,
      hookTimeout: 120_000,
      // What a page shows after a server round trip or a document read (OCR) can take seconds when the two cores
      // are busy: polls wait up to 20 s (vitest's default, 1 s, failed under load), never retried.
      expect: { poll: { timeout: 20_000 } },
      // A worker's files one after another in one process, importing playwright-core, the harness and the server
      // modules a file uses (the demo PDF, the database) once: a process per file imported them again, about 2 s of
      // processor time per file (six files: 39.9 -> 27.6 s of the vitest processes, bench/test-cpu.ts). Each file
      // still starts its own server and Chromium, and shares no state with the others (the harness keys its
      // resumed sessions by server).
      isolate: false,
      ...rest,
    },
  };
}

/**
 * A project whose files share the modules they import, one worker's files after another (isolate: false): a new
 * process per file imported the server or react-admin again each time, 1 to 3 s of a core per file. Each file still
 * gets its own environment (jsdom, globals, storage). The files that replace a module (MOCKING) run apart, isolated,
 * as '<name>-mocks'. A project's name is its folder under test/.
 */
function sharedModules(test: NonNullable<TestProjectInlineConfiguration['test']> & { name: 'unit' | 'component' | 'server' }): TestProjectInlineConfiguration[] {
  const mocking = MOCKING.filter((file) => file.startsWith(`test/${test.name}/`));
  return [
    { extends: true, test: { ...test, isolate: false, exclude: mocking } },
    ...(mocking.length ? [{ extends: true as const, test: { ...test, name: `${test.name}-mocks`, include: mocking } }] : []),
  ];
}

export default defineConfig({
  // The console's modules as the build makes them (the icons the declarations name); each project extends this.
  plugins: [areaIcons()],
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Test files mostly wait on PGlite, servers and Chromium: one worker per core (vitest's default leaves one idle).
    maxWorkers: Math.max(availableParallelism(), 2),
    projects: [
      // A test of pure functions can still wait seconds for a core while the whole suite runs.
      ...sharedModules({ name: 'unit', include: ['test/unit/**/*.test.{ts,tsx}'], environment: 'node', testTimeout: 30_000 }),
      // A first render in jsdom (react-admin, MUI, the catalogues) took more than vitest's 5 s default while the whole
      // suite ran on two busy cores: the limit guards against a hang, it measures nothing.
      // Their setup keeps jsdom's style matching, React's owner stacks and emotion's one <style> per rule from most of
      // their processor time (each file says how; its test, that nothing a test sees changes).
      ...sharedModules({
        name: 'component',
        include: ['test/component/**/*.test.{ts,tsx}'],
        environment: 'jsdom',
        setupFiles: ['test/component/jsdom-styles.ts', 'test/component/react-owner-stacks.ts', 'test/component/emotion-speedy.ts'],
        testTimeout: 30_000,
      }),
      ...sharedModules({
        name: 'server',
        include: ['test/server/**/*.test.ts'],
        environment: 'node',
        // One initialised PGlite data directory that every in-memory test database starts from; the data folder a
        // server process's first start makes, for the fault tests that start theirs the same way.
        globalSetup: ['test/server/global-setup.ts', 'test/support/started-data-setup.ts'],
        testTimeout: 30_000,
        hookTimeout: 60_000,
      }),
      e2eProject('e2e', {
        // After the other projects, side by side with the server tests, whose document readers and fault tests keep
        // both cores busy, a page's waits went past their limits. Three files at a time: an e2e file mostly waits (on
        // its server, its Chromium, what a page shows), and two at a time left a core idle a fifth of the time
        // (bench/test-cpu.ts). The files that read documents by OCR ran alone after the rest until issue 53, at one
        // core in all: a reading's limit counts its reader's own processor time since issue 51, not the wait.
        maxWorkers: 3,
        sequence: { groupOrder: 1 },
      }),
    ],
  },
});
