import { describe, expect, it } from 'vitest'
import { RE2JS } from 're2js'
import { LiteralScanner } from '../../../src/constraints/scan/literal-scan.js'
import { generate, random } from './generated-texts.js'

const exact = (...texts: string[]) => texts.map((text) => ({ text, foldCase: false }))

describe('literal scanner', () => {
  it('reports the lines each literal occurs on, overlapping and nested literals included', () => {
    const scanner = new LiteralScanner(exact('he', 'she', 'hers', 'x'))
    expect(scanner.scan('ushers\nhe he\nnothing\nShe')).toEqual(
      new Map([
        [0, [0, 7, 21]],
        [1, [0]],
        [2, [0]],
      ]),
    )
  })

  it('folds ASCII case and the Kelvin sign only for literals that ask for it', () => {
    const scanner = new LiteralScanner([
      { text: 'kb', foldCase: true },
      { text: 'kb', foldCase: false },
      { text: 'KB', foldCase: false },
    ])
    expect(scanner.scan('a\u212aB\nKB\nkb\nk b')).toEqual(
      new Map([
        [0, [0, 4, 7]],
        [1, [7]],
        [2, [4]],
      ]),
    )
  })

  it('folds s onto the long s as RE2 does, and escapes regular expression syntax', () => {
    const scanner = new LiteralScanner([
      { text: 'ask', foldCase: true },
      { text: 'a.(b|c)', foldCase: false },
    ])
    expect(scanner.scan('A\u017f\u212a\nabc\na.(b|c)\naSk')).toEqual(
      new Map([
        [0, [0, 16]],
        [1, [8]],
      ]),
    )
  })

  it('finds literals that share long prefixes or start with one another', () => {
    const scanner = new LiteralScanner(exact('abcdefghijkx', 'abcdefghijky', 'abc', 'abcd'))
    expect(scanner.scan('abcdefghijky\nab\nzabcd')).toEqual(
      new Map([
        [1, [0]],
        [2, [0, 16]],
        [3, [0, 16]],
      ]),
    )
  })

  it('refuses literals that span lines', () => {
    expect(() => new LiteralScanner(exact('a\nb'))).toThrow()
  })

  it('handles characters outside the basic plane and no literals at all', () => {
    expect(new LiteralScanner(exact('😀x')).scan('a😀\n😀x')).toEqual(new Map([[0, [4]]]))
    expect(new LiteralScanner([]).scan('anything')).toEqual(new Map())
  })

  it('finds every line on which RE2 finds the literal, case folded or not, on generated texts', () => {
    const literals = [
      'todo',
      'TODO',
      'to',
      'ask',
      'kb',
      'a.b',
      'x',
      'word',
      '😀x',
      '😀😀',
      '(',
      'mysql',
      'mysql2',
      'abcdefghijkx',
      'abcdefghijky',
      'ta\u212a',
      'pa\u017f\u017f',
    ].flatMap((text) => [
      { text, foldCase: false },
      { text: text.toLowerCase(), foldCase: true },
    ])
    const scanner = new LiteralScanner(literals)
    const engines = literals.map(({ text, foldCase }) => RE2JS.compile(RE2JS.quote(text), foldCase ? RE2JS.CASE_INSENSITIVE : 0))
    const next = random(7)
    for (let run = 0; run < 3000; run++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 4) }, () => generate(next)).join('\n')
      const expected = new Map<number, number[]>()
      let lineStart = 0
      for (const line of text.split('\n')) {
        engines.forEach((engine, literal) => {
          if (engine.matcher(line).find()) expected.set(literal, [...(expected.get(literal) ?? []), lineStart])
        })
        lineStart += line.length + 1
      }
      expect(scanner.scan(text), JSON.stringify(text)).toEqual(expected)
    }
  })
})
