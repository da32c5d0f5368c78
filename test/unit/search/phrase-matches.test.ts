import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { holds, PhraseMatchCache, readPhraseMatches, summedBm25, type PhraseMatches } from '../../../src/search/phrase-matches.js'
import { openIndex } from '../../../src/search/search-index.js'

const matches = (rowids: number[], bm25 = rowids.map(() => 1)): PhraseMatches => ({ rowids: Int32Array.from(rowids), bm25: Float64Array.from(bm25) })

describe('phrase matches', () => {
  it('holds finds exactly the rows listed, at both ends and between', () => {
    const phrase = matches([2, 3, 5, 8, 13, 21])
    const held = Array.from({ length: 25 }, (_, rowid) => rowid).filter((rowid) => holds(phrase, rowid))
    expect(held).toEqual([2, 3, 5, 8, 13, 21])
    expect(holds(matches([]), 0)).toBe(false)
  })

  it('summedBm25 adds each phrase part in the order of the phrases', () => {
    const sums = summedBm25([matches([1, 2], [0.1, 0.2]), matches([2, 3], [0.7, 0.3])])
    expect([...sums]).toEqual([
      [1, 0.1],
      [2, 0.2 + 0.7],
      [3, 0.3],
    ])
  })
})

describe('reading a phrase', () => {
  it("collects every match, in row id order, with FTS5's own BM25 part", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mk-phrase-matches-'))
    try {
      const path = join(dir, 'index.db')
      const index = openIndex(path)
      // More matches than the collector first makes room for, of different lengths and counts.
      const words = (n: number): string => `${'release train '.repeat(1 + (n % 4))}${n % 3 === 0 ? 'freeze' : 'window'} note ${n}`
      index.upsert(
        Array.from({ length: 700 }, (_, n) => ({ id: `m${n}`, kind: 'memory' as const, layer: 'project', content: words(n), tags: [], updatedAt: n })),
      )
      index.close()
      const db = new Database(path, { readonly: true })
      for (const phrase of ['release train', 'freeze', 'note 7', 'absent']) {
        const expected = db.prepare('SELECT rowid, -bm25(docs_fts) FROM docs_fts WHERE docs_fts MATCH ? ORDER BY rowid').raw().all(`"${phrase}"`) as [
          number,
          number,
        ][]
        const read = readPhraseMatches(db, phrase)
        expect([...read.rowids]).toEqual(expected.map(([rowid]) => rowid))
        expect([...read.bm25]).toEqual(expected.map(([, bm25]) => bm25))
      }
      expect(readPhraseMatches(db, 'release train').rowids.length).toBe(700)
      db.close()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

/** Asks the cache for each phrase in turn; returns the phrases it read from the index. */
function phrasesRead(cache: PhraseMatchCache, asked: readonly string[]): string[] {
  const read: string[] = []
  for (const phrase of asked) {
    cache.matchesOf(phrase, (reading) => {
      read.push(reading)
      return matches([1, 2, 3])
    })
  }
  return read
}

describe('the phrase match cache', () => {
  it('reads a phrase once until cleared', () => {
    const cache = new PhraseMatchCache()
    expect(phrasesRead(cache, ['database', 'database', 'staging'])).toEqual(['database', 'staging'])
    cache.clear()
    expect(phrasesRead(cache, ['database', 'staging'])).toEqual(['database', 'staging'])
  })

  it('drops the phrases used longest ago once it holds more rows than its bound', () => {
    // Three rows each, six at most: 'a' asked again before 'c' leaves 'b' the one used longest ago.
    expect(phrasesRead(new PhraseMatchCache(6), ['a', 'b', 'a', 'c', 'a', 'b'])).toEqual(['a', 'b', 'c', 'b'])
  })
})
