import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { applyBaseline, baselineEntries, readBaseline } from '../../../src/constraints/waivers/baseline.js'
import { lineHash, subjectHash } from '../../../src/constraints/waivers/fingerprint.js'
import type { Finding, ConstraintRule } from '../../../src/constraints/model.js'

const rule = { constraint: { id: 'no-x' } } as ConstraintRule
const at = (file: string, line: number, subject: string, lineText = subject): Finding => ({
  rule,
  file,
  line,
  column: 1,
  subject,
  message: 'm',
  lineHash: lineHash(lineText),
})

describe('baseline', () => {
  it('keys by what violates, not the line number, and counts repeats', () => {
    const old = [at('a.ts', 3, 'x()', '  x()'), at('a.ts', 9, 'x()')]
    const entries = baselineEntries(old)
    expect(entries).toEqual([{ constraint: 'no-x', file: 'a.ts', hash: subjectHash('x()'), count: 2 }])
    const later = applyBaseline([at('a.ts', 5, 'x()'), at('a.ts', 6, 'x()'), at('a.ts', 7, 'x()'), at('b.ts', 1, 'x()')], { version: 2, entries })
    expect(later.hidden).toBe(2)
    expect(later.kept.map((finding) => `${finding.file}:${finding.line}`)).toEqual(['a.ts:7', 'b.ts:1'])
    expect(applyBaseline([], { version: 2, entries }).fixed).toBe(2)
  })

  it('issue 11.14: a baselined dependency stays hidden when its line gains a trailing comma', () => {
    const entries = baselineEntries([at('package.json', 3, 'mysql', '    "mysql": "^2.0.0"')])
    const after = applyBaseline([at('package.json', 3, 'mysql', '    "mysql": "^2.0.0",')], { version: 2, entries })
    expect(after).toMatchObject({ hidden: 1, fixed: 0, kept: [] })
  })

  it('still reads version 1 baselines, keyed by the line text', async () => {
    const root = await mkdtemp(join(tmpdir(), 'mk-baseline-'))
    try {
      await writeFile(
        join(root, '.mk-baseline.json'),
        JSON.stringify({ version: 1, entries: [{ constraint: 'no-x', file: 'a.ts', hash: lineHash('x()'), count: 1 }] }),
      )
      const baseline = readBaseline(root, '.mk-baseline.json')
      expect(baseline?.version).toBe(1)
      expect(applyBaseline([at('a.ts', 4, 'x(', '  x()')], baseline ?? { version: 2, entries: [] }).hidden).toBe(1)
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })

  it('refuses entries whose file points outside the workspace', async () => {
    const root = await mkdtemp(join(tmpdir(), 'mk-baseline-'))
    try {
      await writeFile(
        join(root, '.mk-baseline.json'),
        JSON.stringify({ version: 1, entries: [{ constraint: 'no-x', file: '../etc/passwd', hash: 'ab', count: 1 }] }),
      )
      expect(() => readBaseline(root, '.mk-baseline.json')).toThrow(/outside|inside the workspace/)
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})
