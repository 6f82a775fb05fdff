import type { Reporter, TestModule } from 'vitest/node';

/** Ends the run with the plain 'N passed, N failed' line that CI reads, whatever the other reporters print. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (module.state() === 'failed' && ![...module.children.allTests()].some((test) => test.result().state === 'failed')) failed++;
    }
    console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
