import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { applyBaseline, baselineEntries, lineHash, readBaseline } from '../../../src/constraints/baseline.js'
import type { Finding, Rule } from '../../../src/constraints/model.js'

const rule = { constraint: { id: 'no-x' } } as Rule
const at = (file: string, line: number, lineText: string): Finding => ({ rule, file, line, column: 1, subject: 'x', message: 'm', lineText })

describe('baseline', () => {
  it('keys by the line text, not the line number, and counts repeats', () => {
    const old = [at('a.ts', 3, '  x()'), at('a.ts', 9, 'x()')]
    const entries = baselineEntries(old)
    expect(entries).toEqual([{ constraint: 'no-x', file: 'a.ts', hash: lineHash('x()'), count: 2 }])
    const later = applyBaseline([at('a.ts', 5, 'x()'), at('a.ts', 6, 'x()'), at('a.ts', 7, 'x()'), at('b.ts', 1, 'x()')], entries)
    expect(later.hidden).toBe(2)
    expect(later.kept.map((finding) => `${finding.file}:${finding.line}`)).toEqual(['a.ts:7', 'b.ts:1'])
    expect(applyBaseline([], entries).fixed).toBe(2)
  })

  it('refuses entries whose file points outside the workspace', async () => {
    const root = await mkdtemp(join(tmpdir(), 'mk-baseline-'))
    try {
      await writeFile(join(root, '.mk-baseline.json'), JSON.stringify({ version: 1, entries: [{ constraint: 'no-x', file: '../etc/passwd', hash: 'ab', count: 1 }] }))
      expect(() => readBaseline(root, '.mk-baseline.json')).toThrow(/outside|inside the workspace/)
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})
