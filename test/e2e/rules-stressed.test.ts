import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/**
 * Issue 29: a rule its author stressed ("**MANDATORY**: Only ever upgrade a single package at a time", sentry's
 * dependency-upgrade rules) ranked below the block while other rules of its section filled it, because it shares
 * fewer of the task's words.
 */
const agentsMd = `# Contributor guide

## Dependency upgrades

- You must upgrade the pg instrumentation together with its OpenTelemetry core packages.
- You must read the pg instrumentation changelog for breaking changes before you upgrade the pg instrumentation.
- You must run the pg instrumentation integration tests after you upgrade the pg instrumentation.
- You must pin the pg instrumentation version exactly when you upgrade it.
- **MANDATORY**: Only ever bump one package per pull request.
- **Renovate**: Never merge its pull requests by hand.

## Releases

- Tag releases from the main branch.
`

let workspace: TempWorkspace
beforeAll(async () => {
  workspace = await makeWorkspace({ 'AGENTS.md': agentsMd })
  const ingest = await runMk(['rules', 'ingest', '.', '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
  expect(ingest.exitCode, ingest.stderr).toBe(0)
}, 60_000)
afterAll(async () => workspace.cleanup())

describe('mk rules directives: the rules an author stressed', () => {
  it('brings a stressed rule of a section the block serves, right after the first rule of that section', async () => {
    const run = await runMk(['rules', 'directives', 'Upgrade the pg instrumentation to the latest version', '--max-items', '3', '--no-memories', '--json'], {
      cwd: workspace.root,
      env: { MK_HOME: workspace.mkHome },
    })
    expect(run.exitCode, run.stderr).toBe(0)
    const bullets = parseJson<{ context_block: string }>(run)
      .context_block.split('\n')
      .filter((line) => line.startsWith('- ['))
    expect(bullets).toHaveLength(3)
    expect(bullets[1]).toContain('MANDATORY: Only ever bump one package per pull request.')
    // A bold term naming what a rule is about is not stress.
    expect(bullets.join('\n')).not.toContain('Never merge its pull requests by hand')
  })
})
