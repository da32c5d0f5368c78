import type { Reporter, TestModule } from 'vitest/node'

/** Ends the run with one plain line, `N passed, N failed, N skipped`, that any CI log reader understands. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const count = (state: 'passed' | 'failed' | 'skipped'): number =>
      testModules.reduce((total, module) => total + [...module.children.allTests(state)].length, 0)
    process.stdout.write(`\n${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped\n`)
  }
}
