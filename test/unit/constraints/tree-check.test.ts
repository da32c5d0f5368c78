import { existsSync, lstatSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { prepareCheck, type CheckOptions } from '../../../src/constraints/pipeline/prepare.js'
import type { CheckReport } from '../../../src/constraints/pipeline/report.js'
import { checkTree, recordOf } from '../../../src/constraints/strategies/tree-check.js'
import type { FileContribution } from '../../../src/constraints/pipeline/contribution.js'
import { collectTree } from '../../../src/constraints/input/collect-tree.js'
import type { CheckInput } from '../../../src/constraints/input/input.js'
import { statSignature, wallClockNs } from '../../../src/fs/stat-signature.js'
import { noConsoleAdr } from '../../helpers/no-console-adr.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

const adr = noConsoleAdr(['src/**'])

/**
 * ADR 0023: the working tree is answered from the last check's stored result
 * and what changed. Reads are counted through an input that reads files
 * itself (no `disk`), with a clock set ahead so every file's stat data counts
 * as settled.
 */
describe('checkTree', () => {
  let workspace: TempWorkspace
  const reads: string[] = []
  const statted: string[] = []
  const statTime = wallClockNs() + 60_000_000_000n

  const located = (report: CheckReport): string[] =>
    report.findings.map((finding) => `${finding.rule.constraint.id} ${finding.file}:${finding.line}:${finding.column} ${finding.subject}`)

  async function check(): Promise<CheckReport> {
    const loaded = await loadWorkspace({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    const directory = join(loaded.stateDir, 'cache', 'check')
    const options: CheckOptions = {
      source: { kind: 'tree' },
      minSeverity: 'info',
      failOn: 'block',
      useBaseline: true,
      scanCache: { directory, version: 'test' },
    }
    const preparation = await prepareCheck(loaded, options)
    const tree = collectTree(loaded.root, preparation.ignoreRules)
    const input: CheckInput = {
      ...tree,
      disk: undefined,
      read: (path) => {
        reads.push(path)
        return tree.read(path)
      },
      identity: (path) => {
        statted.push(path)
        return statSignature(lstatSync(join(loaded.root, path), { bigint: true }), statTime)
      },
    }
    return checkTree(preparation, input, directory)
  }

  beforeAll(async () => {
    workspace = await makeWorkspace({
      'knowledge/adr/adr-0001-no-console.md': adr,
      'src/a.ts': 'console.log("a")\n',
      'src/b.ts': 'export const b = 1\n',
      'src/c.ts': 'export const c = 1\n',
      'docs/guide.md': '# guide\n',
    })
  })
  afterAll(() => workspace.cleanup())

  it('reads only the files whose stat data changed since the last check, none when nothing did, and stats only files a rule reads', async () => {
    const cacheFolder = join(workspace.root, '.mk', 'cache', 'check')
    const first = await check()
    expect(reads.sort()).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts'])
    expect(first.findings.map((finding) => finding.file)).toEqual(['src/a.ts'])
    // The first check stores only that it ran, and takes no file's identity; the second stores its result.
    expect(statted).toEqual([])
    expect(existsSync(join(cacheFolder, 'tree-seen'))).toBe(true)
    expect(existsSync(join(cacheFolder, 'tree-result.bin'))).toBe(false)
    reads.length = 0
    expect(located(await check())).toEqual(located(first))
    expect(reads.sort()).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts'])
    expect(existsSync(join(cacheFolder, 'tree-result.bin'))).toBe(true)

    reads.length = 0
    statted.length = 0
    expect(located(await check())).toEqual(located(first))
    expect(reads).toEqual([])
    // What no rule reads is judged by its path alone: not even stat'ed.
    expect(statted.sort()).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts'])

    await workspace.write('src/b.ts', 'console.log("b")\n')
    reads.length = 0
    const edited = await check()
    expect(reads).toEqual(['src/b.ts'])
    expect(located(edited)).toEqual([...located(first), 'no-console src/b.ts:1:1 console.log("b")'])
    expect(edited.checked).toEqual(first.checked)
  })

  it('records a file a rule ran out of time on with no identity, so that the next check judges it again', () => {
    const facts: FileContribution['facts'] = { kind: 'scanned', hidden: 0, required: [], imports: [], fileWaiversUsed: [] }
    const listing = (reason: 'time' | 'matches'): FileContribution['listing'] => ({
      kept: [],
      waived: [],
      invalidWaivers: [],
      refusals: [],
      unmatchedWaivers: [],
      overBudget: [{ rule: 0, reason }],
    })
    expect(recordOf({ facts, listing: listing('time') }, 'stat 1 2 3 4').identity).toBeNull()
    expect(recordOf({ facts, listing: listing('matches') }, 'stat 1 2 3 4').identity).toBe('stat 1 2 3 4')
    expect(recordOf({ facts, listing: undefined }, undefined).identity).toBeNull()
    expect(recordOf({ facts: { ...facts, kind: 'unread' }, listing: undefined }, undefined).identity).toBe('')
  })
})
