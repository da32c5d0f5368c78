import { mkdtemp, rm, truncate, writeFile, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { dedupKey } from '../../../src/search/normalise.js'
import { openIndex } from '../../../src/search/search-index.js'
import { embedWindow } from '../../../src/search/vector-store.js'
import type { IndexDocument } from '../../../src/search/types.js'
import { wordEmbedder } from '../../helpers/word-embedder.js'

let dir: string
let path: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mk-index-'))
  path = join(dir, '.mk', 'index.db')
})
afterEach(() => rm(dir, { recursive: true, force: true }))

function memory(id: string, content: string, extra: Partial<IndexDocument> = {}): IndexDocument {
  return { id, kind: 'memory', layer: 'user', content, tags: [], source: 'user', updatedAt: Date.now(), ...extra }
}

describe('search index', () => {
  // Issue 13: full text matches the parts of product names and identifiers.
  it('finds PostgreSQL by "postgres", getUserName by "user name" and userId by "user_id"', async () => {
    const index = openIndex(path)
    index.upsert([
      memory('adr', 'Use PostgreSQL for relational data'),
      memory('call', 'Call getUserName from the OrderService'),
      memory('field', 'Every event carries a userId'),
      memory('other', 'Lunch is at noon'),
    ])
    const ids = async (text: string) => (await index.search({ text, mode: 'fulltext', limit: 10 })).map((hit) => hit.id)
    expect(await ids('postgres')).toEqual(['adr'])
    expect((await ids('user name'))[0]).toBe('call')
    expect(await ids('order service')).toEqual(['call'])
    expect((await ids('user_id'))[0]).toBe('field')
    expect((await ids('userId'))[0]).toBe('field')
    index.close()
  })

  it('gets documents in the order asked, skipping ids it does not hold', () => {
    const index = openIndex(path)
    index.upsert([memory('a', 'first', { tags: ['x'] }), memory('b', 'second'), memory('c', 'third')])
    expect(index.getMany(['c', 'missing', 'a', 'c']).map((doc) => [doc.id, doc.content])).toEqual([
      ['c', 'third'],
      ['a', 'first'],
      ['c', 'third'],
    ])
    expect(index.getMany(['a'])[0]?.tags).toEqual(['x'])
    expect(index.getMany([])).toEqual([])
    index.close()
  })

  it('finds documents by full text, ranked by BM25, with filters', async () => {
    const index = openIndex(path)
    index.upsert([
      memory('m1', 'We store everything in Postgres', { tags: ['db'] }),
      memory('m2', 'The staging database is read-only on Fridays', { layer: 'project', source: 'project' }),
      memory('m3', 'Lunch is at noon'),
      {
        id: 'adr-1',
        kind: 'knowledge',
        layer: 'project',
        title: 'Use PostgreSQL',
        content: 'Relational data goes to postgres.',
        tags: [],
        updatedAt: 1,
        type: 'adr',
        status: 'accepted',
      },
    ])
    const hits = await index.search({ text: 'where is the postgres database', mode: 'hybrid', limit: 10 })
    expect(hits.map((hit) => hit.id)).toEqual(expect.arrayContaining(['m1', 'm2', 'adr-1']))
    expect(hits.map((hit) => hit.id)).not.toContain('m3')
    expect(hits[0]?.score).toBe(1)
    expect(hits[0]?.scores.text).toBeGreaterThan(0)
    const memoriesOnly = await index.search({ text: 'postgres', mode: 'fulltext', limit: 10, filters: { kind: 'memory', tags: ['db'] } })
    expect(memoriesOnly.map((hit) => hit.id)).toEqual(['m1'])
    const projectOnly = await index.search({ text: 'database', mode: 'fulltext', limit: 10, filters: { layers: ['project'], kind: 'memory' } })
    expect(projectOnly.map((hit) => hit.id)).toEqual(['m2'])
    index.close()
  })

  it('leaves out expired documents and removes documents', async () => {
    const index = openIndex(path)
    index.upsert([memory('old', 'temporary token rotation note', { expiresAt: Date.now() - 1000 }), memory('new', 'token rotation happens monthly')])
    expect((await index.search({ text: 'token rotation', mode: 'fulltext', limit: 5 })).map((hit) => hit.id)).toEqual(['new'])
    expect(index.remove(['new', 'missing'])).toBe(1)
    expect(await index.search({ text: 'token rotation', mode: 'fulltext', limit: 5 })).toEqual([])
    index.close()
  })

  it('upsert does not embed; embedPending does, and hybrid search then finds by meaning', async () => {
    const embedder = wordEmbedder({ synonyms: { postgres: 'database', postgresql: 'database' } })
    const index = openIndex(path, { embedder })
    index.upsert([memory('pg', 'We store everything in Postgres'), memory('noise', 'The office plants need water')])
    expect(embedder.calls).toBe(0)
    expect(index.pendingCount()).toBe(2)
    // Without vectors the memory is still found by its words.
    expect((await index.search({ text: 'postgres', mode: 'hybrid', limit: 5 }))[0]?.id).toBe('pg')
    expect(await index.embedPending()).toBe(2)
    expect(index.pendingCount()).toBe(0)
    const hits = await index.search({ text: 'what database do we use', mode: 'hybrid', limit: 5 })
    expect(hits[0]?.id).toBe('pg')
    expect(hits[0]?.scores.vector).toBeGreaterThan(0)
    const vectorOnly = await index.search({ text: 'database', mode: 'vector', limit: 1, filters: { kind: 'memory' } })
    expect(vectorOnly[0]?.id).toBe('pg')
    index.close()
  })

  // Issue 27: a memory written with its vector never waits for one, so a search in another thread does not embed it a second time.
  it('upsert with the vectors from embedDocuments stores document and vector together, as embedPending would', async () => {
    const embedder = wordEmbedder({ synonyms: { postgres: 'database' } })
    const index = openIndex(path, { embedder })
    const pg = memory('pg', 'We store everything in Postgres', { tags: ['db'] })
    const vectors = await index.embedDocuments([pg])
    index.upsert([pg, memory('noise', 'The office plants need water')], vectors)
    // Only the document without a given vector waits for embedPending.
    expect(index.pendingCount()).toBe(1)
    const [stored] = index.vectorsOf(['pg'])
    const other = openIndex(join(dir, 'other.db'), { embedder: wordEmbedder({ synonyms: { postgres: 'database' } }) })
    other.upsert([pg])
    await other.embedPending()
    expect(stored?.vector).toEqual(other.vectorsOf(['pg'])[0]?.vector)
    other.close()
    expect((await index.search({ text: 'what database do we use', mode: 'vector', limit: 1 }))[0]?.id).toBe('pg')
    // A vector for a text that changed since is not kept: the new text waits for its own.
    index.upsert([{ ...pg, content: 'We store everything in MySQL' }], vectors)
    expect(index.vectorsOf(['pg'])).toEqual([])
    expect(index.pendingCount()).toBe(2)
    index.close()
  })

  // Issue 27: a search ranks up to a thousand candidates; callers group and page them on what each hit carries, reading only the page whole.
  it('gives each hit its document id, layer, source and dedup key, for matches by words and by meaning alone', async () => {
    const embedder = wordEmbedder({ synonyms: { postgres: 'zorblax' } })
    const index = openIndex(path, { embedder })
    index.upsert([
      memory('pg', 'We store everything in Postgres', { layer: 'project', source: 'project' }),
      memory('copy', 'we store everything in postgres.', { layer: 'user', source: 'user' }),
      memory('db', 'The staging database is read-only', { layer: 'user', source: 'agent/alice' }),
    ])
    await index.embedPending()
    const head = (hit: { id: string; layer: string; source: string | undefined; dedupKey: string }) => [hit.id, hit.layer, hit.source, hit.dedupKey]
    const byWords = await index.search({ text: 'staging', mode: 'fulltext', limit: 5 })
    expect(byWords.map(head)).toEqual([['db', 'user', 'agent/alice', dedupKey('The staging database is read-only')]])
    const byMeaning = await index.search({ text: 'zorblax', mode: 'hybrid', limit: 5 })
    const pg = byMeaning.find((hit) => hit.id === 'pg')
    expect(pg?.scores.text).toBeUndefined()
    expect(pg === undefined ? undefined : head(pg)).toEqual(['pg', 'project', 'project', dedupKey('We store everything in Postgres')])
    // Copies of one fact share the key the layers collapse on.
    expect(byMeaning.find((hit) => hit.id === 'copy')?.dedupKey).toBe(pg?.dedupKey)
    index.close()
  })

  it('searches the rebuilt file after a rebuild swaps it in', async () => {
    const index = openIndex(path)
    index.upsert([memory('old', 'the old staging notes')])
    expect((await index.search({ text: 'staging', mode: 'fulltext', limit: 5 })).map((hit) => hit.id)).toEqual(['old'])
    await index.rebuildFrom(async (fresh) => fresh.upsert([memory('new', 'the new staging notes')]))
    expect((await index.search({ text: 'staging', mode: 'fulltext', limit: 5 })).map((hit) => hit.id)).toEqual(['new'])
    index.close()
  })

  it('embedPending stops between batches when its signal is aborted, keeping the batches already embedded', async () => {
    const embedder = wordEmbedder()
    const controller = new AbortController()
    const embed = embedder.embed.bind(embedder)
    embedder.embed = async (texts, kind) => {
      controller.abort()
      return embed(texts, kind)
    }
    const index = openIndex(path, { embedder })
    const count = embedWindow + 8
    index.upsert(Array.from({ length: count }, (_, n) => memory(`m${n}`, `memory number ${n}`)))
    await expect(index.embedPending(undefined, controller.signal)).rejects.toThrow()
    expect(embedder.calls).toBe(1)
    expect(index.pendingCount()).toBe(8)
    expect(await index.embedPending()).toBe(8)
    index.close()
  })

  it('embedPending also embeds what another writer added while it was embedding', async () => {
    const embedder = wordEmbedder()
    const embed = embedder.embed.bind(embedder)
    const index = openIndex(path, { embedder })
    let added = false
    embedder.embed = async (texts, kind) => {
      await new Promise((resolve) => setTimeout(resolve, 10))
      if (!added) {
        added = true
        // As another process's refresh would, while this window is with the model.
        index.upsert([memory('late', 'a memory that arrived during the embedding')])
      }
      return embed(texts, kind)
    }
    index.upsert([memory('first', 'the first memory')])
    expect(await index.embedPending()).toBe(2)
    expect(index.pendingCount()).toBe(0)
    index.close()
  })

  it('embeds a text once: a copy, in the same window or arriving later, takes the stored vector', async () => {
    const embedder = wordEmbedder()
    const seen: string[] = []
    const embed = embedder.embed.bind(embedder)
    embedder.embed = async (texts, kind) => {
      seen.push(...texts)
      return embed(texts, kind)
    }
    const index = openIndex(path, { embedder })
    index.upsert([memory('m1', 'the cache lives in bucket one'), memory('m2', 'the cache lives in bucket one'), memory('m3', 'deploys on tuesday')])
    expect(await index.embedPending()).toBe(3)
    index.upsert([memory('m4', 'the cache lives in bucket one')])
    expect(await index.embedPending()).toBe(1)
    expect(seen).toHaveLength(2)
    expect(index.vectorsOf(['m4'])[0]?.vector).toEqual(index.vectorsOf(['m1'])[0]?.vector)
    index.close()
  })

  it('re-embeds with a notice when the model changes', async () => {
    const first = openIndex(path, { embedder: wordEmbedder({ modelId: 'a' }) })
    first.upsert([memory('m1', 'alpha beta')])
    await first.embedPending()
    first.close()
    const second = openIndex(path, { embedder: wordEmbedder({ modelId: 'b', dimensions: 32 }) })
    expect(second.notices.join('\n')).toMatch(/model changed from a to b: re-embedding 1 documents/)
    expect(second.pendingCount()).toBe(1)
    expect(await second.embedPending()).toBe(1)
    expect(second.stats()).toMatchObject({ modelId: 'b', dimensions: 32, documents: 1, pending: 0 })
    second.close()
  })

  it('recreates a truncated index with a notice instead of failing', async () => {
    const index = openIndex(path)
    index.upsert(Array.from({ length: 300 }, (_, n) => memory(`m${n}`, `memory number ${n} `.repeat(20))))
    index.close()
    const size = (await stat(path)).size
    await truncate(path, Math.floor(size / 2))
    const reopened = openIndex(path)
    expect(reopened.notices.join('\n')).toMatch(/truncated; it was recreated/)
    expect(reopened.stats().documents).toBe(0)
    reopened.close()
  })

  it('explains a damaged page met in a search, and clear() recreates the index', async () => {
    const index = openIndex(path)
    index.upsert(Array.from({ length: 300 }, (_, n) => memory(`m${n}`, `memory number ${n} `.repeat(20))))
    index.close()
    const { open } = await import('node:fs/promises')
    const file = await open(path, 'r+')
    const size = (await file.stat()).size
    // Garbage over the later pages (document data), not over the schema and metadata at the start.
    for (let offset = Math.ceil(size / 2 / 4096) * 4096; offset < size; offset += 4096) await file.write(Buffer.alloc(4096, 0xa5), 0, 4096, offset)
    await file.close()
    const damaged = openIndex(path)
    expect(damaged.notices).toEqual([])
    const explained = {
      code: 'INTERNAL_ERROR',
      message: expect.stringMatching(/index\.db is corrupt/),
      details: { hint: expect.stringMatching(/run mk index rebuild/) },
    }
    await expect(damaged.search({ text: 'memory number', mode: 'fulltext', limit: 300 })).rejects.toMatchObject(explained)
    // Every method that reads the damaged pages says the same, not SQLite's "database disk image is malformed".
    expect(() => damaged.list({ limit: 300 })).toThrow(expect.objectContaining(explained))
    expect(() => damaged.getMany(Array.from({ length: 300 }, (_, n) => `m${n}`))).toThrow(expect.objectContaining(explained))
    expect(damaged.integrityProblem()).toBeDefined()
    // A rebuild never reads the damaged file: it fills a new one and swaps it in.
    await damaged.rebuildFrom(async (fresh) => fresh.upsert([memory('fresh', 'written after the repair')]))
    expect(damaged.integrityProblem()).toBeUndefined()
    expect(damaged.stats().documents).toBe(1)
    expect((await damaged.search({ text: 'repair', mode: 'fulltext', limit: 1 }))[0]?.id).toBe('fresh')
    damaged.close()
  })

  it('recreates a file that is not an mk index', async () => {
    const { mkdir } = await import('node:fs/promises')
    await mkdir(join(dir, '.mk'), { recursive: true })
    await writeFile(path, 'this is not a database at all, just text that is long enough to have a header of 100 bytes.............')
    const index = openIndex(path)
    expect(index.notices.join('\n')).toMatch(/not a SQLite database/)
    index.upsert([memory('m1', 'works again')])
    expect((await index.search({ text: 'works', mode: 'fulltext', limit: 1 }))[0]?.id).toBe('m1')
    index.close()
  })

  it('finds the same content in a source regardless of case and spacing', () => {
    const index = openIndex(path)
    index.upsert([memory('m1', 'Deploys   happen on Tuesdays.')])
    expect(index.findSameContent('deploys happen on tuesdays', ['user'], undefined)?.id).toBe('m1')
    expect(index.findSameContent('deploys happen on tuesdays', ['project'], undefined)).toBeUndefined()
    index.close()
  })

  it("never matches another owner's private copy of the same content", () => {
    const index = openIndex(path)
    index.upsert([{ ...memory('m2', 'The cache is warm at noon'), source: 'project', meta: JSON.stringify({ ownerAgentId: 'a2' }) }])
    expect(index.findSameContent('the cache is warm at noon', ['project'], undefined)).toBeUndefined()
    expect(index.findSameContent('the cache is warm at noon', ['project'], { ownerAgentId: 'a1' })).toBeUndefined()
    expect(index.findSameContent('the cache is warm at noon', ['project'], { ownerAgentId: 'a2' })?.id).toBe('m2')
    index.close()
  })
})
