import { RE2JS } from 're2js'
import { describe, expect, it } from 'vitest'
import { compileCodeSearch } from '../../../src/constraints/code-search.js'
import { requiredLiterals } from '../../../src/constraints/required-literals.js'

/** Deterministic generator, so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state / 2147483648
  }
}

// Characters the patterns use, their other cases, and the non-ASCII characters RE2 folds onto ASCII (Kelvin sign, long s).
const alphabet = [...'abcdefgkosxyzABKSOXYZ0123 .(){}|\n\t=_-"\'', '\u212a', '\u017f', '\u0130', '\u0131', 'é', 'É', '😀']
const fragments = ['TODO', 'FIXME', 'todo', 'Fixme', 'password', 'PASSWORD', 'pa\u017f\u017fword', 'pa\u017f\u017fword="', 'ta\u017fk', 'TA\u212a', 'mysql', 'mysql2', 'var x', 'console.log(', 'a\u212ab', 'AKB', 'foo', 'bar', 'abc', 'ABC', '😀😀']

function generate(next: () => number): string {
  let text = ''
  const pieces = Math.floor(next() * 8)
  for (let piece = 0; piece < pieces; piece++) {
    text += next() < 0.5 ? (fragments[Math.floor(next() * fragments.length)] as string) : (alphabet[Math.floor(next() * alphabet.length)] as string)
  }
  return text
}

const patterns = [
  'TODO|FIXME',
  '(?i)todo|fixme',
  '(?i)password\\s*=\\s*["\']',
  '(?i)a(?-i)K(?i)b',
  '(?i:akb)',
  '(?i)task',
  'mysql2?',
  '^(mysql|mysql2|mariadb)$',
  '\\bvar\\s+\\w+',
  'console\\.log\\(',
  '[A-Z0-9]{32,}',
  'a[bc]d|x?yz',
  '(foo|bar)+baz?',
  '(ab){2,}',
  'a{0,3}bc',
  'a*b+c?',
  '(?:abc|abd)(?P<n>x|y)',
  '[]a]bc[^]x]',
  '[[:alpha:]]+ok',
  '\\pLab\\p{Greek}cd',
  '\\x41\\x{42}C',
  '\\Qa.b\\E',
  '😀+x',
  '(?s)a.b',
  '(a|)bc',
  'o{2}',
  '',
]

describe('required literals', () => {
  it('finds the literals a match cannot lack', () => {
    expect(requiredLiterals('TODO|FIXME')).toEqual({ anyOf: ['TODO', 'FIXME'], lowerCase: false })
    expect(requiredLiterals('\\bvar\\s+\\w+')?.anyOf).toEqual(['var'])
    expect(requiredLiterals('console\\.log\\(')?.anyOf).toEqual(['console.log('])
    expect(requiredLiterals('mysql2?')?.anyOf).toEqual(['mysql', 'mysql2'])
    expect(requiredLiterals('(foo|bar)+baz?')?.anyOf).toEqual(['foo', 'bar'])
    expect(requiredLiterals('(?i)password\\s*=')).toEqual({ anyOf: ['word'], lowerCase: true })
  })

  it('gives none when a match may contain no literal, or the syntax is not modelled', () => {
    for (const pattern of ['[A-Z0-9]{32,}', 'a*b?', '(a|)', '\\Qabc\\E', '\\d+', '(?i)sss', '']) expect(requiredLiterals(pattern)).toBeUndefined()
  })

  it('never rules out a text that a pattern matches (checked against re2js on generated texts)', () => {
    const next = random(7)
    const texts = Array.from({ length: 4000 }, () => generate(next))
    for (const pattern of patterns) {
      const literals = requiredLiterals(pattern)
      if (literals === undefined) continue
      const regex = RE2JS.compile(pattern, RE2JS.MULTILINE)
      for (const text of texts) {
        if (!regex.matcher(text).find()) continue
        const haystack = literals.lowerCase ? text.toLowerCase() : text
        expect(literals.anyOf.some((literal) => haystack.includes(literal)), `${pattern} matches ${JSON.stringify(text)}`).toBe(true)
      }
    }
  })

  it('makes the code search report every pattern that occurs', () => {
    const search = compileCodeSearch(patterns.filter((pattern) => pattern !== ''))
    const next = random(11)
    const compiled = patterns.filter((pattern) => pattern !== '').map((pattern) => RE2JS.compile(pattern, RE2JS.MULTILINE))
    for (let run = 0; run < 2000; run++) {
      const text = generate(next)
      const mayOccur = search(text)
      compiled.forEach((regex, index) => {
        if (regex.matcher(text).find()) expect(mayOccur.has(index)).toBe(true)
      })
    }
    expect([...search('-')]).toEqual([])
  })
})
