import { RE2JS } from 're2js'
import { describe, expect, it } from 'vitest'
import { compileCodeSearch } from '../../../src/constraints/scan/code-search.js'
import { compilePattern } from '../../../src/constraints/scan/regex.js'
import { generate, patterns, random } from './generated-texts.js'

const searched = [
  ...patterns.filter((pattern) => pattern !== ''),
  '==\\s*null',
  'except:\\s*$',
  '^\\s*print\\(',
  '\\bvar\\s+\\w+',
  'x$',
  '^ab',
  '(?i)İk',
  'b\\s+\\n?a',
  'x[^y]+z',
  '(?s)o.b',
  'a\\n',
  '\\bvar\\b|\\Ax',
  '(?-m)^ab$',
  '(a|b)\\s*\\z',
]

/** Several generated lines, some ending in \r\n, some with characters whose lower case is longer. */
function generateText(next: () => number): string {
  const lines = Array.from({ length: 1 + Math.floor(next() * 5) }, () => generate(next) + (next() < 0.2 ? '\r' : '') + (next() < 0.1 ? 'İ' : ''))
  return lines.join('\n')
}

describe('code search', () => {
  const search = compileCodeSearch(searched.map((pattern) => ({ pattern })))

  it('reports every pattern that occurs', () => {
    const next = random(11)
    const compiled = searched.map((pattern) => RE2JS.compile(pattern, RE2JS.MULTILINE))
    for (let run = 0; run < 2000; run++) {
      const text = generateText(next)
      const found = search.search(text)
      compiled.forEach((regex, index) => {
        if (regex.matcher(text).find()) expect(found.mayOccur(index), `${searched[index] ?? ''} in ${JSON.stringify(text)}`).toBe(true)
      })
    }
    expect(searched.filter((_, index) => search.search('-').mayOccur(index))).toEqual([])
  })

  it('locates exactly the matches a search of the whole text locates', () => {
    const next = random(13)
    const plain = searched.map((pattern) => compilePattern(pattern))
    for (let run = 0; run < 2000; run++) {
      const text = generateText(next)
      plain.forEach((regex, index) => {
        expect(search.search(text).lineMatchOffsets(index), `${searched[index] ?? ''} in ${JSON.stringify(text)}`).toEqual(regex.lineMatchOffsets(text))
      })
    }
  })
})
