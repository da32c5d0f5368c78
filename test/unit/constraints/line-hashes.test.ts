import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { runCheck } from '../../../src/constraints/check.js'
import { createScanner, type ScannedPattern } from '../../../src/constraints/scan/file-scan.js'
import { compilePattern } from '../../../src/constraints/scan/regex.js'
import { lineHash } from '../../../src/constraints/waivers/fingerprint.js'
import { noConsoleAdr } from '../../helpers/no-console-adr.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

const adr = noConsoleAdr()

let workspace: TempWorkspace | undefined
afterEach(async () => workspace?.cleanup())

async function check(withCache: boolean): Promise<string[]> {
  const root = (workspace as TempWorkspace).root
  const loaded = await loadWorkspace({ cwd: root, env: { MK_HOME: (workspace as TempWorkspace).mkHome } })
  const report = await runCheck(loaded, {
    source: { kind: 'tree' },
    minSeverity: 'info',
    failOn: 'block',
    useBaseline: true,
    ...(withCache ? { scanCache: { directory: join(loaded.stateDir, 'cache', 'check'), version: 'test' } } : {}),
  })
  return report.findings.map((finding) => `${finding.file}:${finding.line}`)
}

describe("a hit's line hash", () => {
  const code = (source: string): ScannedPattern => ({ target: 'code', pattern: source, regex: compilePattern(source) })

  it('is taken only when the plan asks for it', () => {
    const request = { path: 'a.ts', patterns: [0], manifest: false }
    const [hashed] = createScanner({ patterns: [code('x\\(')], dependencyFields: [] })(request, '  x()\n').hits.get(0) ?? []
    const [plain] = createScanner({ patterns: [code('x\\(')], dependencyFields: [], lineHashes: false })(request, '  x()\n').hits.get(0) ?? []
    expect(hashed?.lineHash).toBe(lineHash('x()'))
    expect(plain?.lineHash).toBe('')
  })

  it('still hides what a version 1 baseline lists, keyed by the line, with and without the caches', async () => {
    workspace = await makeWorkspace({
      'knowledge/adr/adr-0001-no-console.md': adr,
      'src/a.ts': 'export const a = 1\nconsole.log(a)\n',
      'src/b.ts': 'console.log(2)\n',
      '.mk-baseline.json': JSON.stringify({
        version: 1,
        entries: [{ constraint: 'no-console', file: 'src/a.ts', hash: lineHash('console.log(a)'), count: 1 }],
      }),
    })
    expect(await check(false)).toEqual(['src/b.ts:1'])
    expect(await check(true)).toEqual(['src/b.ts:1'])
    expect(await check(true)).toEqual(['src/b.ts:1'])
  })
})
