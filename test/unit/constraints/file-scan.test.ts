import { describe, expect, it } from 'vitest'
import { createScanner, type ScannedPattern } from '../../../src/constraints/scan/file-scan.js'
import { lineHash } from '../../../src/constraints/waivers/fingerprint.js'
import { compilePattern } from '../../../src/constraints/scan/regex.js'

const pattern = (target: ScannedPattern['target'], source: string): ScannedPattern => ({ target, pattern: source, regex: compilePattern(source) })
const scanner = createScanner({
  patterns: [pattern('code', 'console\\.log\\('), pattern('code', 'TODO'), pattern('import', 'lodash'), pattern('import', 'mysql2?')],
  dependencyFields: ['dependencies'],
})

describe('file scan', () => {
  it('locates the requested code patterns with their line text, and only those', () => {
    const text = 'const a = 1\r\n  console.log(a) // TODO\nconsole.log(2)\n'
    const scan = scanner({ path: 'src/a.ts', patterns: [0], manifest: false }, text)
    expect(scan.hits.get(0)).toEqual([
      { line: 2, column: 3, lineHash: lineHash('  console.log(a) // TODO'), subject: 'console.log(a) // TODO' },
      { line: 3, column: 1, lineHash: lineHash('console.log(2)'), subject: 'console.log(2)' },
    ])
    expect(scan.hits.has(1)).toBe(false)
    const clean = scanner({ path: 'src/b.ts', patterns: [1], manifest: false }, 'clean\n')
    expect(clean.hits.size).toBe(0)
    expect(clean.patterns).toEqual([1])
  })

  it('keeps only the imports an import pattern matches, by specifier or package root', () => {
    const source = "// mk-ignore no-x -- legacy\nimport fp from 'lodash/fp'\nimport pg from 'pg'\nconst db = require('mysql2')\n"
    const scan = scanner({ path: 'src/a.ts', patterns: [2, 3], manifest: false }, source)
    expect(scan.hits.get(2)).toEqual([{ line: 2, column: 1, lineHash: lineHash("import fp from 'lodash/fp'"), subject: 'lodash/fp' }])
    expect(scan.hits.get(3)?.map((hit) => [hit.line, hit.subject])).toEqual([[4, 'mysql2']])
    expect(
      scanner({ path: 'src/b.ts', patterns: [2], manifest: false }, "import _ from 'lodash'\n")
        .hits.get(2)
        ?.map((hit) => hit.subject),
    ).toEqual(['lodash'])
    expect(scanner({ path: 'src/c.ts', patterns: [3], manifest: false }, "import _ from 'lodash'\n").hits.size).toBe(0)
    expect(scan.waivers.map((waiver) => [waiver.line, waiver.constraintIds, waiver.reason])).toEqual([[1, ['no-x'], 'legacy']])
  })

  it('locates dependencies of a manifest it was asked to read', () => {
    const manifest = scanner({ path: 'package.json', patterns: [], manifest: true }, '{\n  "dependencies": {\n    "mysql": "^2.0.0"\n  }\n}\n')
    expect(manifest.dependencies).toEqual([
      { name: 'mysql', version: '^2.0.0', field: 'dependencies', line: 3, column: 5, lineHash: lineHash('    "mysql": "^2.0.0"') },
    ])
  })

  it('reads nothing it was not asked for', () => {
    const scan = scanner({ path: 'src/a.ts', patterns: [], manifest: false }, "import x from 'lodash'\nconsole.log(1)\n")
    expect(scan.hits.size).toBe(0)
    expect(scan.dependencies).toEqual([])
  })

  it('issue 11.7: a pattern that spans lines costs the file once, not once per line', () => {
    // ^(\w+\s?)*$ took 15 s at 100 KB: every line re-searched the rest of the file. Now each line is judged alone.
    const spanning = createScanner({
      patterns: [pattern('code', '^(\\w+\\s?)*$')],
      dependencyFields: [],
      limits: { maxMatchesPerFile: 1_000_000, maxMillisPerFile: 600_000 },
    })
    const text = 'word word\n'.repeat(40_000)
    const scan = spanning({ path: 'big.txt', patterns: [0], manifest: false }, text)
    expect(scan.overruns.size).toBe(0)
    expect(scan.hits.get(0)?.length).toBe(40_001)
  })

  it('issue 11.7: a file with more matches than the budget is reported as over budget, with no hits kept', () => {
    // A 999 KB minified line with 6,180 matches ran out of memory: every hit copied the whole line.
    const minified = `${'var a=1;console.log(a);'.repeat(6_180)}${'x'.repeat(999_000 - 23 * 6_180)}`
    const scan = scanner({ path: 'dist/app.min.js', patterns: [0], manifest: false }, minified)
    expect(scan.hits.has(0)).toBe(false)
    expect(scan.overruns.get(0)).toBe('matches')
  })

  it('issue 27: a file over budget keeps its overruns to itself; files without any share none', () => {
    const minified = 'console.log(a);'.repeat(1_001)
    const before = scanner({ path: 'a.ts', patterns: [0], manifest: false }, 'clean\n')
    const over = scanner({ path: 'b.min.js', patterns: [0], manifest: false }, minified)
    const after = scanner({ path: 'c.ts', patterns: [0, 1], manifest: false }, 'console.log(1)\n')
    expect(over.overruns.get(0)).toBe('matches')
    expect([before.overruns.size, after.overruns.size]).toEqual([0, 0])
    expect(after.hits.get(0)?.length).toBe(1)
  })

  it('issue 11.7: a pattern out of time on a file is reported as over budget', () => {
    const slow = createScanner({ patterns: [pattern('code', 'a')], dependencyFields: [], limits: { maxMatchesPerFile: 1000, maxMillisPerFile: 0 } })
    const scan = slow({ path: 'a.txt', patterns: [0], manifest: false }, 'a\n')
    expect(scan.overruns.get(0)).toBe('time')
    expect(scan.hits.has(0)).toBe(false)
  })

  it('keeps a bounded window of a long line per hit, not the line', () => {
    const line = `console.log(1);${'x'.repeat(500_000)}`
    const scan = scanner({ path: 'a.js', patterns: [0], manifest: false }, line)
    expect(scan.hits.get(0)).toEqual([{ line: 1, column: 1, lineHash: lineHash(line), subject: line.slice(0, 80) }])
  })
})
