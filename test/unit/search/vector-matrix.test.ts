import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openIndex } from '../../../src/search/search-index.js'
import { nearestByCosine } from '../../../src/search/vector-matrix.js'
import { largest, VectorTable } from '../../../src/search/vector-table.js'
import type { IndexDocument } from '../../../src/search/types.js'
import { wordEmbedder } from '../../helpers/word-embedder.js'

// Issue 27: below the partitions' threshold, vectors are compared in memory. These tests hold
// the in-memory ranking to a brute-force cosine over the same vectors, and check it follows
// every way the index changes: this connection's writes and another process's commits.

let dir: string
let path: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mk-matrix-'))
  path = join(dir, '.mk', 'index.db')
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const embedder = wordEmbedder({ dimensions: 48 })
const memory = (id: string, content: string): IndexDocument => ({ id, kind: 'memory', layer: 'user', content, tags: [], source: 'user', updatedAt: 1 })
const texts = [
  'the staging database is read-only on fridays',
  'billing is owned by the payments team',
  'runners have two cores and eight gigabytes',
  'on-call escalates after fifteen minutes',
  'the search latency budget is twenty milliseconds',
  'deploys need two approvals from the owners',
  'the database backups run nightly at two',
  'payments retries use exponential backoff',
]

async function cosines(query: string, documents: readonly { id: string; content: string }[]): Promise<{ id: string; score: number }[]> {
  const [queryVector, ...vectors] = await embedder.embed([query, ...documents.map((doc) => doc.content)], 'document')
  const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * (b[i] as number), 0)
  return documents.map((doc, n) => ({ id: doc.id, score: dot(queryVector as Float32Array, vectors[n] as Float32Array) })).sort((a, b) => b.score - a.score)
}

const nearest = async (index: ReturnType<typeof openIndex>, query: string) =>
  (await index.nearDuplicates(query, { kind: 'memory' }, -1, 50)).map((hit) => ({ id: hit.id, score: hit.score }))

describe('vectors compared in memory', () => {
  it('rank every document as a brute-force cosine does', async () => {
    const index = openIndex(path, { embedder })
    const documents = texts.map((content, n) => ({ id: `m${n}`, content }))
    index.upsert(documents.map((doc) => memory(doc.id, doc.content)))
    await index.embedPending()
    for (const query of ['who owns billing', 'database read-only', 'how fast must search be']) {
      const found = await nearest(index, query)
      const expected = (await cosines(query, documents)).filter((doc) => doc.score > 0 || found.some((hit) => hit.id === doc.id))
      expect(found.map((hit) => hit.id).slice(0, 3)).toEqual(expected.map((doc) => doc.id).slice(0, 3))
      for (const hit of found) expect(hit.score).toBeCloseTo(expected.find((doc) => doc.id === hit.id)?.score ?? Number.NaN, 5)
    }
    index.close()
  })

  it('rank the same on a connection’s first search (in SQL) as on the next ones (in memory)', async () => {
    const writer = openIndex(path, { embedder })
    writer.upsert(texts.map((content, n) => memory(`m${n}`, content)))
    await writer.embedPending()
    writer.close()
    const index = openIndex(path, { embedder })
    const first = await nearest(index, 'who owns the database backups')
    const second = await nearest(index, 'who owns the database backups')
    expect(second.map((hit) => hit.id)).toEqual(first.map((hit) => hit.id))
    second.forEach((hit, n) => expect(hit.score).toBeCloseTo(first[n]?.score as number, 5))
    index.close()
  })

  it.each([texts.length, 80])('calibrate the same in SQL and in memory (%i documents, the background sentences joining a small store)', async (count) => {
    const writer = openIndex(path, { embedder })
    writer.upsert(Array.from({ length: count }, (_, n) => memory(`m${n}`, `${texts[n % texts.length] ?? ''} note ${n}`)))
    await writer.embedPending()
    writer.close()
    const index = openIndex(path, { embedder })
    const search = async () =>
      (await index.search({ text: 'who owns the database backups', mode: 'vector', limit: 20 })).map((hit) => ({ id: hit.id, vector: hit.scores.vector }))
    const inSql = await search()
    const inMemory = await search()
    expect(inMemory.map((hit) => hit.id)).toEqual(inSql.map((hit) => hit.id))
    inMemory.forEach((hit, n) => expect(Math.abs((hit.vector as number) - (inSql[n]?.vector as number))).toBeLessThan(1e-5))
    index.close()
  })

  it('follow this connection’s writes: a changed text, a removal, a new document', async () => {
    const index = openIndex(path, { embedder })
    index.upsert(texts.map((content, n) => memory(`m${n}`, content)))
    await index.embedPending()
    expect((await nearest(index, 'kubernetes cluster upgrade'))[0]?.id).not.toBe('m1')
    index.upsert([memory('m1', 'the kubernetes cluster upgrade is on monday')])
    await index.embedPending()
    expect((await nearest(index, 'kubernetes cluster upgrade'))[0]?.id).toBe('m1')
    index.remove(['m1'])
    expect((await nearest(index, 'kubernetes cluster upgrade')).map((hit) => hit.id)).not.toContain('m1')
    index.upsert([memory('new', 'kubernetes cluster upgrade runbook')])
    await index.embedPending()
    expect((await nearest(index, 'kubernetes cluster upgrade'))[0]?.id).toBe('new')
    index.close()
  })

  it('follow another connection’s commits to the same index file', async () => {
    const reader = openIndex(path, { embedder })
    reader.upsert(texts.map((content, n) => memory(`m${n}`, content)))
    await reader.embedPending()
    expect((await nearest(reader, 'kubernetes cluster upgrade')).map((hit) => hit.id)).not.toContain('other')
    const writer = openIndex(path, { embedder })
    writer.upsert([memory('other', 'kubernetes cluster upgrade runbook'), memory('m2', 'kubernetes nodes are upgraded weekly')])
    await writer.embedPending()
    writer.close()
    const found = (await nearest(reader, 'kubernetes cluster upgrade')).map((hit) => hit.id)
    expect(found.slice(0, 2)).toEqual(['other', 'm2'])
    reader.close()
  })
})

describe('vectors compared in memory, following the index row by row', () => {
  // A long-lived connection reads only the rows the change log names: after any mix of writes it
  // must rank exactly as a connection that reads the whole index afresh.
  const words = ['billing', 'database', 'deploy', 'runner', 'search', 'cluster', 'backup', 'payments', 'owner', 'approval', 'latency', 'nightly']
  const pick = (n: number, count: number) => Array.from({ length: count }, (_, k) => words[(n * 7 + k * 5) % words.length]).join(' ')
  const queries = ['billing owner', 'database backup nightly', 'deploy approval', 'search latency cluster']
  const filtersOf = (tag?: string) => ({ kind: 'memory' as const, ...(tag === undefined ? {} : { tags: [tag] }) })
  const ranked = async (index: ReturnType<typeof openIndex>, query: string, tag?: string) =>
    (await index.nearDuplicates(query, filtersOf(tag), -1, 100)).map((hit) => `${hit.id}:${hit.score.toFixed(5)}`)

  async function expectSameAsFresh(reader: ReturnType<typeof openIndex>): Promise<void> {
    const fresh = openIndex(path, { embedder })
    for (const query of queries) {
      // A connection's first search ranks in SQL; the second reads the whole matrix.
      await ranked(fresh, query)
      for (const tag of [undefined, 'even', 'odd']) expect(await ranked(reader, query, tag)).toEqual(await ranked(fresh, query, tag))
    }
    fresh.close()
  }

  it('rank as a fresh connection after adds, changed texts and tags, removals, by itself and by another connection', async () => {
    const reader = openIndex(path, { embedder })
    const tagged = (id: string, n: number, content: string): IndexDocument => ({ ...memory(id, content), tags: [n % 2 === 0 ? 'even' : 'odd'] })
    reader.upsert(Array.from({ length: 40 }, (_, n) => tagged(`m${n}`, n, pick(n, 4))))
    await reader.embedPending()
    for (const query of queries) await ranked(reader, query)
    const writer = openIndex(path, { embedder })
    for (let round = 0; round < 6; round++) {
      const by = round % 2 === 0 ? reader : writer
      by.upsert([tagged(`new${round}`, round, pick(round + 3, 3)), tagged(`m${round * 5}`, round + 1, pick(round * 11, 5))])
      // A vector waits while another row is removed; then both are in step.
      if (round === 2) await expectSameAsFresh(reader)
      by.remove([`m${round * 3 + 1}`])
      await by.embedPending()
      await expectSameAsFresh(reader)
    }
    writer.close()
    reader.close()
  })

  it('give hybrid hits the same heads from the matrix as a fresh connection reads in SQL, after another connection’s commits', async () => {
    const hits = async (index: ReturnType<typeof openIndex>, query: string) =>
      // Vector scores in SQL and in memory agree to float precision (see above), the heads exactly.
      (await index.search({ text: query, mode: 'hybrid', limit: 100, filters: { kind: 'memory' } })).map(
        (hit) => `${hit.id} ${hit.layer} ${hit.source ?? ''} ${hit.dedupKey} ${hit.score.toFixed(5)} ${hit.scores.text?.toFixed(5) ?? ''}`,
      )
    const writer = openIndex(path, { embedder })
    writer.upsert(Array.from({ length: 40 }, (_, n) => ({ ...memory(`m${n}`, pick(n, 4)), layer: n % 2 === 0 ? 'user' : 'project', source: `s${n % 3}` })))
    await writer.embedPending()
    const reader = openIndex(path, { embedder })
    for (const query of queries) await hits(reader, query)
    writer.upsert([{ ...memory('late', `${pick(3, 3)} backup`), layer: 'project', source: 's9' }])
    await writer.embedPending()
    for (const query of queries) {
      const fresh = openIndex(path, { embedder })
      // The fresh connection's first search reads the heads with its full-text rows; the reader's come from its matrix.
      expect(await hits(reader, query)).toEqual(await hits(fresh, query))
      fresh.close()
    }
    expect((await hits(reader, 'backup')).some((hit) => hit.startsWith('late project s9 '))).toBe(true)
    writer.close()
    reader.close()
  })

  it('read everything again when it fell further behind than the change log keeps', async () => {
    const reader = openIndex(path, { embedder })
    reader.upsert(texts.map((content, n) => memory(`m${n}`, content)))
    await reader.embedPending()
    for (const query of queries) await ranked(reader, query)
    const writer = openIndex(path, { embedder })
    // Each upsert of a changed text logs its row: past the newest 4,096 entries the log keeps.
    for (let round = 0; round < 5200; round++) writer.upsert([memory(`m${round % 8}`, `${texts[round % 8]} round ${round}`)])
    await writer.embedPending()
    writer.close()
    const log = new Database(path, { readonly: true })
    expect(log.prepare('SELECT min(seq) > 1000 AND count(*) <= 5120 FROM doc_changes').pluck().get()).toBe(1)
    log.close()
    await expectSameAsFresh(reader)
    reader.close()
  })
})

describe('vectors compared in memory, with the filters', () => {
  it('leave out what expired by the time of each search, the same index read once', async () => {
    const index = openIndex(path, { embedder })
    index.upsert([
      { ...memory('lasting', 'billing is owned by the payments team'), expiresAt: undefined },
      { ...memory('expiring', 'billing is owned by the payments team today'), expiresAt: 5_000 },
    ])
    await index.embedPending()
    const ids = async (now: number) => (await index.nearDuplicates('who owns billing', { kind: 'memory', now }, -1, 10)).map((hit) => hit.id).sort()
    expect(await ids(4_999)).toEqual(['expiring', 'lasting'])
    expect(await ids(5_000)).toEqual(['lasting'])
    expect((await index.nearDuplicates('who owns billing', { kind: 'memory', now: 9_000, includeExpired: true }, -1, 10)).map((hit) => hit.id).sort()).toEqual([
      'expiring',
      'lasting',
    ])
    index.close()
  })

  it('give each consumer only the memories it may see, for consumers searching in turn', async () => {
    const index = openIndex(path, { embedder })
    index.upsert([
      memory('shared', 'billing is owned by the payments team'),
      { ...memory('private', 'billing is owned by the payments team, ask alice'), meta: JSON.stringify({ ownerAgentId: 'alice' }) },
    ])
    await index.embedPending()
    const ids = async (agentId: string) =>
      (await index.nearDuplicates('who owns billing', { kind: 'memory', consumer: { agentId, teamId: undefined } }, -1, 10)).map((hit) => hit.id).sort()
    expect(await ids('alice')).toEqual(['private', 'shared'])
    expect(await ids('bob')).toEqual(['shared'])
    expect(await ids('alice')).toEqual(['private', 'shared'])
    index.close()
  })
})

describe('largest', () => {
  it('finds the value of each rank as a sort does, with ties and repeats', () => {
    const next = (
      (seed: number) => () =>
        (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 37
    )(5)
    for (const length of [1, 2, 3, 10, 257, 1000]) {
      const values = Float64Array.from({ length }, next)
      const sorted = [...values].sort((a, b) => b - a)
      for (const rank of [1, 2, Math.ceil(length / 2), length]) {
        if (rank > length) continue
        expect(largest(Float64Array.from(values), rank)).toBe(sorted[rank - 1])
      }
    }
  })
})

describe('VectorTable', () => {
  const next = (
    (seed: number) => () =>
      ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1
  )(11)
  const brute = (rows: { rowid: number; vector: Float32Array }[], query: Float32Array) =>
    rows
      .map(({ rowid, vector }) => {
        const dot = vector.reduce((sum, value, i) => sum + value * (query[i] as number), 0)
        return { rowid, score: dot / (Math.hypot(...vector) * Math.hypot(...query)) }
      })
      .sort((a, b) => b.score - a.score || a.rowid - b.rowid)

  it.each([3, 7, 16, 384])('ranks %i-dimension vectors as a brute-force cosine does, padding and all', (dimensions) => {
    const rows = Array.from({ length: 300 }, (_, rowid) => ({ rowid, vector: Float32Array.from({ length: dimensions }, next) }))
    const query = Float32Array.from({ length: dimensions }, next)
    const found = VectorTable.of(rows).nearest(query, 20)
    const expected = brute(rows, query).slice(0, 20)
    expect(found.map((hit) => hit.rowid)).toEqual(expected.map((hit) => hit.rowid))
    found.forEach((hit, n) => expect(hit.score).toBeCloseTo(expected[n]?.score as number, 5))
  })

  it('ranks only the positions given, and nothing for an empty table or another size of query', () => {
    const rows = Array.from({ length: 50 }, (_, rowid) => ({ rowid: rowid * 10, vector: Float32Array.from({ length: 8 }, next) }))
    const query = Float32Array.from({ length: 8 }, next)
    const table = VectorTable.of(rows)
    const even = Int32Array.from({ length: 25 }, (_, n) => n * 2)
    const expected = brute(
      rows.filter((_, position) => position % 2 === 0),
      query,
    ).slice(0, 5)
    expect(table.nearest(query, 5, even).map((hit) => hit.rowid)).toEqual(expected.map((hit) => hit.rowid))
    expect(VectorTable.of([]).nearest(query, 5)).toEqual([])
    expect(table.nearest(new Float32Array(9), 5)).toEqual([])
  })

  it('ranks rows read one at a time as rows given whole, however many it expected', () => {
    const rows = Array.from({ length: 200 }, (_, rowid) => ({ rowid, vector: Float32Array.from({ length: 24 }, next) }))
    const query = Float32Array.from({ length: 24 }, next)
    const whole = VectorTable.of(rows).nearest(query, 200)
    const oneByOne = function* () {
      yield* rows
    }
    for (const expected of [0, 10, 200, 5000]) expect(VectorTable.of(oneByOne(), expected).nearest(query, 200)).toEqual(whole)
  })

  it('leaves out rows whose vector has other dimensions than the first', () => {
    const table = VectorTable.of([
      { rowid: 1, vector: Float32Array.of(1, 0, 0, 0) },
      { rowid: 2, vector: Float32Array.of(1, 0, 0) },
      { rowid: 3, vector: Float32Array.of(0, 1, 0, 0) },
    ])
    expect(table.rowids).toEqual([1, 3])
    expect(table.nearest(Float32Array.of(1, 0, 0, 0), 5)).toEqual([
      { rowid: 1, score: 1 },
      { rowid: 3, score: 0 },
    ])
  })
})

describe('VectorTable.apply', () => {
  const next = (
    (seed: number) => () =>
      ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1
  )(23)
  const vectorOf = (dimensions: number) => Float32Array.from({ length: dimensions }, next)

  it.each([5, 384])('changed in place, ranks as a table built afresh from the same rows (%i dimensions)', (dimensions) => {
    const rows = new Map(Array.from({ length: 200 }, (_, n) => [n * 2, vectorOf(dimensions)]))
    const table = VectorTable.of([...rows].map(([rowid, vector]) => ({ rowid, vector })))
    let nextRowid = 400
    for (let round = 0; round < 30; round++) {
      const held = [...rows.keys()]
      const set = [
        { rowid: held[(round * 13) % held.length] as number, vector: vectorOf(dimensions) },
        // Enough new rows to outgrow the memory reserved at first, several times over.
        ...Array.from({ length: 1 + (round % 4) * 10 }, () => ({ rowid: nextRowid++, vector: vectorOf(dimensions) })),
      ]
      const remove = round % 3 === 0 ? [held[(round * 7 + 1) % held.length] as number, 99_999] : []
      expect(table.apply({ set, remove })).toEqual({ applied: true, moved: remove.length > 0 })
      for (const { rowid, vector } of set) rows.set(rowid, vector)
      for (const rowid of remove) rows.delete(rowid)
      const fresh = VectorTable.of([...rows].sort(([a], [b]) => a - b).map(([rowid, vector]) => ({ rowid, vector })))
      expect(table.rowids).toEqual(fresh.rowids)
      const query = vectorOf(dimensions)
      expect(table.nearest(query, 25)).toEqual(fresh.nearest(query, 25))
      const some = Int32Array.from({ length: 40 }, (_, n) => (n * 5) % fresh.size)
      expect(table.nearest(query, 10, some)).toEqual(fresh.nearest(query, 10, some))
      expect(table.positionOf(table.rowids[7] as number)).toBe(7)
    }
  })

  it('refuses, changing nothing, what would break the row id order or the dimensions', () => {
    const table = VectorTable.of([10, 20, 30].map((rowid) => ({ rowid, vector: vectorOf(4) })))
    const query = vectorOf(4)
    const before = table.nearest(query, 3)
    expect(
      table.apply({
        set: [
          { rowid: 40, vector: vectorOf(4) },
          { rowid: 15, vector: vectorOf(4) },
        ],
        remove: [20],
      }),
    ).toEqual({ applied: false })
    expect(table.apply({ set: [{ rowid: 50, vector: vectorOf(5) }], remove: [] })).toEqual({ applied: false })
    expect(VectorTable.of([]).apply({ set: [{ rowid: 1, vector: vectorOf(4) }], remove: [] })).toEqual({ applied: false })
    expect(table.rowids).toEqual([10, 20, 30])
    expect(table.nearest(query, 3)).toEqual(before)
  })
})

describe('nearestByCosine', () => {
  // Deterministic vectors with many exact ties (copies), so the rowid order of equal scores is tested too.
  const pseudoRandom = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1
  const next = pseudoRandom(7)
  const base = Array.from({ length: 40 }, () => Float32Array.from({ length: 16 }, next))
  const held = Array.from({ length: 600 }, (_, n) => {
    const vector = base[(n * 7) % base.length] as Float32Array
    return { rowid: 1000 - n, vector, norm: Math.hypot(...vector) }
  })
  const query = Float32Array.from({ length: 16 }, next)
  const fullSort = (limit: number) =>
    held
      .map(({ rowid, vector, norm }) => ({
        rowid,
        score: Math.fround(vector.reduce((sum, value, i) => sum + value * (query[i] as number), 0) / (norm * Math.hypot(...query))),
      }))
      .sort((a, b) => b.score - a.score || a.rowid - b.rowid)
      .slice(0, limit)

  it.each([0, 1, 15, 16, 100, 599, 600, 1000])('returns the %i best as a full sort does, ties in rowid order', (limit) => {
    const found = nearestByCosine(held, query, limit)
    const expected = fullSort(limit)
    expect(found.map((hit) => hit.rowid)).toEqual(expected.map((hit) => hit.rowid))
    found.forEach((hit, n) => expect(hit.score).toBeCloseTo(expected[n]?.score as number, 6))
  })
})
