import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { prepareCheck, type CheckPreparation } from '../../../src/constraints/pipeline/prepare.js'
import { sha256Hex } from '../../../src/hash.js'
import { wholeSettlement } from '../../../src/constraints/strategies/stored-evaluation.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

const baseline = (hash: string): string => `${JSON.stringify({ version: 2, entries: [{ constraint: 'no-x', file: 'src/a.ts', hash, count: 1 }] })}\n`

/**
 * A whole evaluation reads the baseline only when the header took its hash
 * from a stored result (its stat data matched): what it parses must be what
 * that hash names, or nothing is stored under it.
 */
describe('wholeSettlement', () => {
  let workspace: TempWorkspace
  let preparation: CheckPreparation
  const header = (baselineHash: string) => ({ key: 'k', baselineSignature: 'stat 1 2 3 4', baselineHash })

  beforeAll(async () => {
    workspace = await makeWorkspace({ 'src/a.ts': 'export const a = 1\n', 'knowledge/README.md': '# knowledge\n' })
    writeFileSync(join(workspace.root, '.mk-baseline.json'), baseline('aaaa'))
    const loaded = await loadWorkspace({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    preparation = await prepareCheck(loaded, { source: { kind: 'tree' }, minSeverity: 'info', failOn: 'block', useBaseline: true })
  })
  afterAll(() => workspace.cleanup())

  it('stores what it read when the baseline is the one the header names', () => {
    const whole = wholeSettlement(preparation, header(sha256Hex(baseline('aaaa'))), undefined, undefined)
    expect(whole.storable).toBe(true)
    expect(whole.grouped?.total).toBe(1)
  })

  it('stores nothing when the baseline was rewritten after the header took its hash', () => {
    expect(wholeSettlement(preparation, header(sha256Hex(baseline('bbbb'))), undefined, undefined).storable).toBe(false)
    expect(wholeSettlement(preparation, header('none'), undefined, undefined).storable).toBe(false)
  })

  it('stores what the header was computed from when it read the baseline itself', () => {
    expect(wholeSettlement(preparation, header('whatever'), undefined, Buffer.from(baseline('bbbb'))).storable).toBe(true)
  })
})
