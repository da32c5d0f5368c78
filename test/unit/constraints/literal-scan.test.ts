import { describe, expect, it } from 'vitest'
import { LiteralScanner } from '../../../src/constraints/literal-scan.js'

const exact = (...texts: string[]) => texts.map((text) => ({ text, foldCase: false }))

describe('literal scanner', () => {
  it('reports the lines each literal ends on, overlapping and nested literals included', () => {
    const scanner = new LiteralScanner(exact('he', 'she', 'hers', 'x'))
    expect(scanner.scan('ushers\nhe he\nnothing\nShe')).toEqual(new Map([[0, [0, 7, 21]], [1, [0]], [2, [0]]]))
  })

  it('folds ASCII case and the Kelvin sign only for literals that ask for it', () => {
    const scanner = new LiteralScanner([
      { text: 'kb', foldCase: true },
      { text: 'kb', foldCase: false },
      { text: 'KB', foldCase: false },
    ])
    expect(scanner.scan('a\u212aB\nKB\nkb\nk b')).toEqual(new Map([[0, [0, 4, 7]], [1, [7]], [2, [4]]]))
  })

  it('handles characters outside the basic plane and no literals at all', () => {
    expect(new LiteralScanner(exact('😀x')).scan('a😀\n😀x')).toEqual(new Map([[0, [4]]]))
    expect(new LiteralScanner([]).scan('anything')).toEqual(new Map())
  })
})
