import { RE2JS } from 're2js'
import { describe, expect, it } from 'vitest'
import { exactLiterals, requiredLiterals, requiredRun } from '../../../src/constraints/scan/required-literals.js'
import { generate, patterns, random } from './generated-texts.js'

function longestRun(text: string, members: Uint8Array): number {
  let longest = 0
  let length = 0
  for (const char of text) {
    length = char.charCodeAt(0) < 128 && members[char.charCodeAt(0)] === 1 ? length + 1 : 0
    longest = Math.max(longest, length)
  }
  return longest
}

describe('required literals', () => {
  it('finds the literals a match cannot lack', () => {
    expect(requiredLiterals('TODO|FIXME')).toEqual({ anyOf: ['TODO', 'FIXME'], lowerCase: false, lineLocal: true })
    expect(requiredLiterals('\\bvar\\s+\\w+')?.anyOf).toEqual(['var'])
    expect(requiredLiterals('console\\.log\\(')?.anyOf).toEqual(['console.log('])
    expect(requiredLiterals('mysql2?')?.anyOf).toEqual(['mysql', 'mysql2'])
    expect(requiredLiterals('(foo|bar)+baz?')?.anyOf).toEqual(['foo', 'bar'])
    expect(requiredLiterals('(?i)password\\s*=')).toEqual({ anyOf: ['word'], lowerCase: true, lineLocal: true })
  })

  it('tells whether matches can be found line by line', () => {
    const lineLocal = (pattern: string) => requiredLiterals(pattern)?.lineLocal
    expect(['console\\.log\\(', '^\\s*print', 'a[^x]b', '(?s)a.b', 'a\\nb', '==\\s*null$'].map(lineLocal)).toEqual(Array(6).fill(true))
    expect(['\\Aab', 'ab\\z', '(?-m)^ab', '(?m)ab'].map(lineLocal)).toEqual(Array(4).fill(false))
  })

  it('reads long and deeply nested patterns without failing', () => {
    expect(requiredLiterals(`${'(?:'.repeat(20_000)}x${')'.repeat(20_000)}`)).toBeUndefined()
    expect(requiredLiterals('ab{2}'.repeat(20_000))?.anyOf).toEqual(['a'])
  })

  it('gives none when a match may contain no literal, or the syntax is not modelled', () => {
    for (const pattern of ['[A-Z0-9]{32,}', 'a*b?', '(a|)', '\\Qabc\\E', '\\d+', '(?i)sss', '']) expect(requiredLiterals(pattern)).toBeUndefined()
  })

  it('finds the run of class characters a match cannot lack', () => {
    const run = (pattern: string) => {
      const found = requiredRun(pattern)
      return found === undefined
        ? undefined
        : { min: found.min, members: String.fromCharCode(...[...found.members].flatMap((member, code) => (member === 1 ? [code] : []))) }
    }
    expect(run('[A-Z0-9]{32,}')).toEqual({ min: 32, members: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ' })
    expect(run('x\\d{4}[a-c_]{2}')).toEqual({ min: 4, members: '0123456789' })
    expect(run('[]a-]{2,}')).toEqual({ min: 2, members: '-]a' })
    for (const pattern of ['[^a]{5}', '(?i)[a-z]{5}', '[a-z]{5}|b', '[a-z]{0,5}', '([a-z]){5}', '[[:alpha:]]{5}', '[\\x41-Z]{5}', '[a-z]'])
      expect(run(pattern)).toBeUndefined()
  })

  it('tells the patterns that are plain literal text, and the strings they match', () => {
    expect(exactLiterals('console\\.log\\(')).toEqual(['console.log('])
    expect(exactLiterals('TODO|FIXME')).toEqual(['TODO', 'FIXME'])
    expect(exactLiterals('(?:foo|bar)baz')).toEqual(['foobaz', 'barbaz'])
    expect(exactLiterals('(a|)bc')).toEqual(['abc', 'bc'])
    // One alternative begins another: RE2 would take the one written first.
    expect(exactLiterals('a|ab')).toBeUndefined()
    for (const pattern of ['(?i)todo', '\\bvar', 'ab?', '^TODO', 'o{2}', '\\Qa.b\\E', 'a\\nb']) expect(exactLiterals(pattern), pattern).toBeUndefined()
  })

  it('never rules out a text that a pattern matches (checked against re2js on generated texts)', () => {
    const next = random(7)
    const texts = Array.from({ length: 4000 }, () => generate(next))
    for (const pattern of patterns) {
      const literals = requiredLiterals(pattern)
      const run = requiredRun(pattern)
      const regex = RE2JS.compile(pattern, RE2JS.MULTILINE)
      for (const text of texts) {
        if (!regex.matcher(text).find()) continue
        const haystack = literals?.lowerCase === true ? text.toLowerCase() : text
        if (literals !== undefined)
          expect(
            literals.anyOf.some((literal) => haystack.includes(literal)),
            `${pattern} matches ${JSON.stringify(text)}`,
          ).toBe(true)
        if (run !== undefined) expect(longestRun(text, run.members), `${pattern} matches ${JSON.stringify(text)}`).toBeGreaterThanOrEqual(run.min)
      }
    }
  })
})
