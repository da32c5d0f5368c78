import { RE2JS } from 're2js'
import { describe, expect, it } from 'vitest'
import { compilePattern, compilePatternSet } from '../../../src/constraints/scan/regex.js'
import { exactLiterals } from '../../../src/constraints/scan/required-literals.js'
import { patternError } from '../../../src/knowledge/pattern.js'
import { generate, patterns, random } from './generated-texts.js'

/** Where re2js finds a pattern's non-overlapping matches in one line. */
function re2jsColumns(pattern: string, line: string): number[] {
  const matcher = RE2JS.compile(pattern).matcher(line)
  const columns: number[] = []
  while (matcher.find()) {
    columns.push(matcher.start())
    if (matcher.end() >= line.length) break
  }
  return columns
}

describe('constraint patterns', () => {
  it('matches (a+)+$ against a long line of a characters without backtracking', () => {
    // A backtracking engine needs about 2^n steps here; RE2 is linear. A hang fails the test by timeout.
    const pattern = compilePattern('(a+)+$')
    const line = `${'a'.repeat(100_000)}!`
    expect(pattern.matchColumns(line)).toEqual([])
    expect(pattern.lineMatchOffsets(`${line}\n${line}`)).toEqual([])
    expect(compilePatternSet(['(a+)+$'])(line).size).toBe(0)
    expect(pattern.matchColumns('aaaa')).toEqual([0])
  })

  it('validates with the engine that matches: RE2 syntax', () => {
    expect(patternError('^(mysql|mysql2)$', 'dependency')).toBeUndefined()
    expect(patternError('(?=lookahead)', 'code')).toMatch(/RE2 syntax/)
    expect(patternError('(unclosed', 'import')).toMatch(/missing closing \)/)
    expect(patternError('**/*.pem', 'file')).toBeUndefined()
    expect(patternError('', 'code')).toBe('pattern is empty')
  })

  it('matches whole names only', () => {
    const pattern = compilePattern('mysql2?')
    expect(pattern.matchesWhole('mysql2')).toBe(true)
    expect(pattern.matchesWhole('mysql2-wrapper')).toBe(false)
  })

  it('locates every match within its line, also when the file-wide search crosses a line break', () => {
    const pattern = compilePattern('==\\s*null')
    const text = 'a == null; b == null\nc ==\nnull\nd ==null'
    const offsets = pattern.lineMatchOffsets(text)
    expect(offsets.map((offset) => text.slice(offset, offset + 2))).toEqual(['==', '==', '=='])
    expect(offsets).toEqual([2, 13, text.indexOf('d ==') + 2])
  })

  it('locates patterns of plain literal text where re2js finds them (checked on generated texts)', () => {
    const literalPatterns = [...patterns, 'aa', 'a|b', 'ab|ba', '😀', 'FIXME|TODO|todo', 'x\\(\\)'].filter((pattern) => exactLiterals(pattern) !== undefined)
    expect(literalPatterns).toEqual(expect.arrayContaining(['TODO|FIXME', 'console\\.log\\(', 'aa', 'ab|ba']))
    const next = random(11)
    const texts = Array.from({ length: 3000 }, () => generate(next) + generate(next).repeat(3))
    for (const pattern of literalPatterns) {
      const compiled = compilePattern(pattern)
      for (const text of texts) {
        const lines = text.split('\n')
        const expected = lines.flatMap((line, index) =>
          re2jsColumns(pattern, line).map((column) => lines.slice(0, index).join('\n').length + (index > 0 ? 1 : 0) + column),
        )
        expect(compiled.lineMatchOffsets(text), `${pattern} in ${JSON.stringify(text)}`).toEqual(expected)
        for (const line of lines) expect(compiled.matchColumns(line), `${pattern} in ${JSON.stringify(line)}`).toEqual(re2jsColumns(pattern, line))
      }
    }
  })

  it('reports which patterns of a set occur', () => {
    const occurring = compilePatternSet(['console\\.log\\(', '^\\s*print\\(', 'TODO'])
    expect([...occurring('x\n  print("hi")\n')]).toEqual([1])
  })
})
