import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { noConsoleAdr } from '../../helpers/no-console-adr.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

const adr = noConsoleAdr(['src/**'])

/**
 * Findings are sorted by path in the locale's order, with ICU's collator; setting
 * it up costs 6-20 ms and 3-5 MB of every process that does. The modules are
 * loaded afresh after Intl.Collator is watched: loading them must not set it up.
 */
describe('the order of a check report', () => {
  let workspace: TempWorkspace
  beforeAll(async () => {
    workspace = await makeWorkspace({ 'knowledge/adr/adr-0001-no-console.md': adr, 'src/a.ts': 'export const a = 1\n' })
  })
  afterAll(() => workspace.cleanup())
  afterEach(() => vi.restoreAllMocks())

  it('sets up a locale collator only to sort findings: a check that finds nothing never does', async () => {
    vi.resetModules()
    const RealCollator = Intl.Collator
    const collator = vi.spyOn(Intl, 'Collator').mockImplementation(function (...args: ConstructorParameters<typeof Intl.Collator>) {
      return new RealCollator(...args)
    } as typeof Intl.Collator)
    const { loadWorkspace } = await import('../../../src/config/load.js')
    const { runCheck } = await import('../../../src/constraints/check.js')
    const check = async (): Promise<string[]> => {
      const loaded = await loadWorkspace({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
      const report = await runCheck(loaded, { source: { kind: 'tree' }, minSeverity: 'info', failOn: 'block', useBaseline: true })
      return report.findings.map((finding) => `${finding.file}:${finding.line}`)
    }

    expect(await check()).toEqual([])
    expect(collator).not.toHaveBeenCalled()

    await workspace.write('src/c.ts', 'console.log("c")\n')
    await workspace.write('src/b.ts', 'console.log("b")\n')
    expect(await check()).toEqual(['src/b.ts:1', 'src/c.ts:1'])
    expect(collator).toHaveBeenCalled()
  })
})
