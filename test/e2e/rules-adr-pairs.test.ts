import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adrFile, adrTaskPairs, securityBaseline } from '../fixtures/adr-task-pairs.js'
import { parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/** Measured with full-text similarity only (no embedding model in tests): 7 of 16, both of issue 29's examples among them. */
const reachedAtLeast = 7

let workspace: TempWorkspace
beforeAll(async () => {
  const files: Record<string, string> = { 'knowledge/policies/security-baseline.md': securityBaseline }
  for (const pair of adrTaskPairs) files[`knowledge/adr/${pair.id}.md`] = adrFile(pair)
  workspace = await makeWorkspace(files)
})
afterAll(async () => workspace.cleanup())

describe("a team's ADR decisions reach tasks that do not repeat their words", () => {
  it(`serves the decision in the block of at least ${reachedAtLeast} of ${adrTaskPairs.length} tasks`, async () => {
    const missed: string[] = []
    for (const pair of adrTaskPairs) {
      const run = await runMk(['rules', 'directives', pair.task, '--json', '--no-memories'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
      expect(run.exitCode, run.stderr).toBe(0)
      if (!parseJson<{ context_block: string }>(run).context_block.includes(pair.rule)) missed.push(`${pair.task} -> ${pair.rule}`)
    }
    const reached = adrTaskPairs.length - missed.length
    console.log(`ADR pairs: ${reached} of ${adrTaskPairs.length} reached\n${missed.join('\n')}`)
    expect(reached, missed.join('\n')).toBeGreaterThanOrEqual(reachedAtLeast)
    // The two of the issue: the security baseline, matched on "password", no longer crowds out the regression-test rule.
    expect(missed.filter((line) => line.includes('outbox') || line.includes('regression test'))).toEqual([])
  }, 600_000)
})
