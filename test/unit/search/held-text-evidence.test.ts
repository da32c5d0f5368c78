import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { removeDocuments } from '../../../src/search/documents.js'
import { openIndex } from '../../../src/search/search-index.js'
import { textEvidence } from '../../../src/search/text-evidence.js'
import { vectorMatrix } from '../../../src/search/vector-matrix.js'
import type { IndexDocument, SearchFilters } from '../../../src/search/types.js'
import { wordEmbedder } from '../../helpers/word-embedder.js'

// Issue 27: a connection holding every document's head and the filters' allowed rows (the vector
// matrix) filters and ranks full-text matches itself instead of joining the documents' rows in
// SQL. It must find exactly what the statement finds: the same rows, scores and order, equal
// BM25 in row id order, at every cut.

let dir: string
let path: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mk-held-text-'))
  path = join(dir, '.mk', 'index.db')
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const subjects = ['staging database', 'deploy pipeline', 'billing service', 'search index']
const facts = ['is read-only on fridays', 'needs two approvals', 'runs on two cores', 'is owned by the platform team']

function memory(n: number): IndexDocument {
  return {
    id: `m${n}`,
    kind: 'memory',
    layer: 'project',
    // Many documents of one length and words: equal BM25, so the cuts fall inside ties.
    content: `${subjects[n % subjects.length] ?? ''} ${facts[(n * 3) % facts.length] ?? ''} (note ${n % 5})`,
    tags: [`t${n % 3}`],
    source: n % 7 === 0 ? 'other' : 'project',
    status: n % 11 === 0 ? 'cold' : 'hot',
    updatedAt: n,
    ...(n % 9 === 0 ? { expiresAt: 1_000 + n } : {}),
    ...(n % 13 === 0 ? { meta: JSON.stringify({ ownerAgentId: 'agent-a' }) } : {}),
  }
}

describe('full-text evidence on a connection that holds the documents', () => {
  it('equals the statement that joins the documents, under every filter and cut', async () => {
    const index = openIndex(path, { embedder: wordEmbedder({ dimensions: 32 }) })
    index.upsert(Array.from({ length: 120 }, (_, n) => memory(n)))
    await index.embedPending()
    // Written after the vectors: matched by words, with no vector in the matrix.
    index.upsert(Array.from({ length: 20 }, (_, n) => memory(200 + n)))
    index.close()
    const db = new Database(path, { readonly: true })
    const matrix = vectorMatrix(db)
    const filterSets: (SearchFilters | undefined)[] = [
      undefined,
      { kind: 'memory', sources: ['project'], statuses: ['hot', 'warm'] },
      { kind: 'memory', tags: ['t1'], now: 1_050 },
      { kind: 'memory', consumer: { agentId: 'agent-a', teamId: undefined }, includeExpired: true },
      { kind: 'memory', sources: [] },
    ]
    let compared = 0
    for (const question of ['which database is read-only', 'who owns the billing service', 'note 3 approvals', 'how many cores']) {
      for (const filters of filterSets) {
        for (const limit of [1, 7, 25, 1000]) {
          const joined = textEvidence(db, question, filters, limit)
          expect(textEvidence(db, question, filters, limit, matrix)).toEqual(joined)
          compared += joined.length
        }
      }
    }
    expect(compared).toBeGreaterThan(500)
    db.close()
  })

  it('follows writes: a search after documents change finds what the statement finds, not the phrases read before', async () => {
    const index = openIndex(path, { embedder: wordEmbedder({ dimensions: 32 }) })
    index.upsert(Array.from({ length: 60 }, (_, n) => memory(n)))
    await index.embedPending()
    const db = new Database(path)
    const questions = ['which database is read-only', 'who owns the billing service', 'deploy approvals']
    for (const question of questions) expect(textEvidence(db, question, undefined, 25, vectorMatrix(db))).toEqual(textEvidence(db, question, undefined, 25))
    // Another connection's writes: new holders of the words asked, one removed, one rewritten.
    index.upsert(Array.from({ length: 15 }, (_, n) => memory(300 + n)))
    index.upsert([{ ...memory(4), content: 'the billing service database is read-only on mondays' }])
    index.remove(['m8'])
    for (const question of questions) {
      const joined = textEvidence(db, question, undefined, 25)
      expect(joined.some(({ rowid }) => rowid > 60)).toBe(true)
      expect(textEvidence(db, question, undefined, 25, vectorMatrix(db))).toEqual(joined)
    }
    // And this connection's own.
    expect(removeDocuments(db, ['m12'], true)).toBe(1)
    for (const question of questions) expect(textEvidence(db, question, undefined, 25, vectorMatrix(db))).toEqual(textEvidence(db, question, undefined, 25))
    db.close()
    index.close()
  })
})
