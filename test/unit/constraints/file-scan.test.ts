import { describe, expect, it } from 'vitest'
import { createScanner, type ScannedPattern } from '../../../src/constraints/file-scan.js'
import { compilePattern } from '../../../src/constraints/regex.js'

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
      { line: 2, column: 3, lineText: '  console.log(a) // TODO', subject: 'console.log(a) // TODO' },
      { line: 3, column: 1, lineText: 'console.log(2)', subject: 'console.log(2)' },
    ])
    expect(scan.hits.has(1)).toBe(false)
    const clean = scanner({ path: 'src/b.ts', patterns: [1], manifest: false }, 'clean\n')
    expect(clean.hits.size).toBe(0)
    expect(clean.patterns).toEqual([1])
  })

  it('keeps only the imports an import pattern matches, by specifier or package root', () => {
    const source = "// mk-ignore no-x -- legacy\nimport fp from 'lodash/fp'\nimport pg from 'pg'\nconst db = require('mysql2')\n"
    const scan = scanner({ path: 'src/a.ts', patterns: [2, 3], manifest: false }, source)
    expect(scan.hits.get(2)).toEqual([{ line: 2, column: 1, lineText: "import fp from 'lodash/fp'", subject: 'lodash/fp' }])
    expect(scan.hits.get(3)?.map((hit) => [hit.line, hit.subject])).toEqual([[4, 'mysql2']])
    expect(scanner({ path: 'src/b.ts', patterns: [2], manifest: false }, "import _ from 'lodash'\n").hits.get(2)?.map((hit) => hit.subject)).toEqual(['lodash'])
    expect(scanner({ path: 'src/c.ts', patterns: [3], manifest: false }, "import _ from 'lodash'\n").hits.size).toBe(0)
    expect(scan.waivers.map((waiver) => [waiver.line, waiver.constraintIds, waiver.reason])).toEqual([[1, ['no-x'], 'legacy']])
  })

  it('locates dependencies of a manifest it was asked to read', () => {
    const manifest = scanner({ path: 'package.json', patterns: [], manifest: true }, '{\n  "dependencies": {\n    "mysql": "^2.0.0"\n  }\n}\n')
    expect(manifest.dependencies).toEqual([{ name: 'mysql', version: '^2.0.0', field: 'dependencies', line: 3, column: 5, lineText: '    "mysql": "^2.0.0"' }])
  })

  it('reads nothing it was not asked for', () => {
    const scan = scanner({ path: 'src/a.ts', patterns: [], manifest: false }, "import x from 'lodash'\nconsole.log(1)\n")
    expect(scan.hits.size).toBe(0)
    expect(scan.dependencies).toEqual([])
  })
})
