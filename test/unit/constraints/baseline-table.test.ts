import { describe, expect, it } from 'vitest'
import { BaselineTable, encodeBaselineTable } from '../../../src/constraints/cache/baseline-table.js'

describe('baseline table', () => {
  it('finds each file’s entries, and nothing for a file without any', () => {
    const byFile = new Map<string, Map<string, number>>()
    const files = ['.', 'src/a.ts', 'src/b.ts', 'é/x.ts', 'Z.ts', 'src/a.tsx', ...Array.from({ length: 300 }, (_, index) => `gen/file${index}.js`)]
    files.forEach((file, index) => byFile.set(file, new Map([[`rule-${index}\0hash`, index + 1]])))
    const table = new BaselineTable(encodeBaselineTable(byFile))
    for (const file of files) expect(table.entriesOf(file)).toEqual(byFile.get(file))
    for (const missing of ['', 'src', 'src/a.t', 'src/c.ts', 'zz', 'gen/file300.js']) expect(table.entriesOf(missing)).toBeUndefined()
  })

  it('an empty baseline has no entries, and bytes of another length are refused', () => {
    const bytes = encodeBaselineTable(new Map())
    expect(new BaselineTable(bytes).entriesOf('a.ts')).toBeUndefined()
    expect(() => new BaselineTable(Buffer.concat([bytes, Buffer.from('x')]))).toThrow()
  })
})
