import { describe, expect, it } from 'vitest'
import { createScanner } from '../../../src/constraints/file-scan.js'

const scanner = createScanner({ codePatterns: [{ pattern: 'console\\.log\\(' }, { pattern: 'TODO' }], dependencyFields: ['dependencies'] })

describe('file scan', () => {
  it('locates the requested code patterns with their line text, and only those', () => {
    const text = 'const a = 1\r\n  console.log(a) // TODO\nconsole.log(2)\n'
    const scan = scanner({ path: 'src/a.ts', codePatterns: [0], imports: false, manifest: false }, text)
    expect(scan.codeMatches.get(0)).toEqual([
      { line: 2, column: 3, lineText: '  console.log(a) // TODO' },
      { line: 3, column: 1, lineText: 'console.log(2)' },
    ])
    expect(scan.codeMatches.has(1)).toBe(false)
    expect(scanner({ path: 'src/b.ts', codePatterns: [1], imports: false, manifest: false }, 'clean\n').codeMatches.get(1)).toEqual([])
  })

  it('locates imports and dependencies, and reads inline waivers whatever was requested', () => {
    const source = "// mk-ignore no-x -- legacy\nimport fp from 'lodash/fp'\n"
    const scan = scanner({ path: 'src/a.ts', codePatterns: [], imports: true, manifest: false }, source)
    expect(scan.imports).toEqual([{ specifier: 'lodash/fp', root: 'lodash', line: 2, column: 1, lineText: "import fp from 'lodash/fp'" }])
    expect(scan.waivers.map((waiver) => [waiver.line, waiver.constraintIds, waiver.reason])).toEqual([[1, ['no-x'], 'legacy']])

    const manifest = scanner({ path: 'package.json', codePatterns: [], imports: false, manifest: true }, '{\n  "dependencies": {\n    "mysql": "^2.0.0"\n  }\n}\n')
    expect(manifest.dependencies).toEqual([{ name: 'mysql', version: '^2.0.0', field: 'dependencies', line: 3, column: 5, lineText: '    "mysql": "^2.0.0"' }])
  })

  it('reads nothing it was not asked for', () => {
    const scan = scanner({ path: 'src/a.ts', codePatterns: [], imports: false, manifest: false }, "import x from 'y'\nconsole.log(1)\n")
    expect(scan.imports).toEqual([])
    expect(scan.codeMatches.size).toBe(0)
  })
})
