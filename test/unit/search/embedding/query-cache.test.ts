import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EmbeddingProvider } from '../../../../src/search/embedding/provider.js'
import { withQueryCache } from '../../../../src/search/embedding/query-cache.js'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mk-query-cache-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

/** A provider that counts what it embeds; the vector encodes the text's length. */
function counting(modelId = 'model-a'): EmbeddingProvider & { embedded: string[] } {
  const embedded: string[] = []
  return {
    modelId,
    dimensions: 3,
    embedded,
    embed: async (texts) => {
      embedded.push(...texts)
      return texts.map((text) => new Float32Array([text.length, 1, 0]))
    },
  }
}

describe('query vector cache', () => {
  it('embeds a query once, then reads it from disk, also in a new process (a new wrapper)', async () => {
    const first = counting()
    expect(Array.from((await withQueryCache(first, dir).embed(['what database'], 'query'))[0] ?? [])).toEqual([13, 1, 0])
    const second = counting()
    const [vector] = await withQueryCache(second, dir).embed(['what database'], 'query')
    expect(second.embedded).toEqual([])
    expect(Array.from(vector ?? [])).toEqual([13, 1, 0])
  })

  it('embeds only the texts it has not seen, in order, and never caches documents', async () => {
    const provider = counting()
    const cached = withQueryCache(provider, dir)
    await cached.embed(['b'], 'query')
    const vectors = await cached.embed(['aa', 'b', 'cccc'], 'query')
    expect(vectors.map((vector) => vector[0])).toEqual([2, 1, 4])
    expect(provider.embedded).toEqual(['b', 'aa', 'cccc'])
    await cached.embed(['doc'], 'document')
    await cached.embed(['doc'], 'document')
    expect(provider.embedded.filter((text) => text === 'doc')).toHaveLength(2)
  })

  it('answers a query asked before in this process from memory, without the disk, and never shares a vector a caller could change', async () => {
    const provider = counting()
    const cached = withQueryCache(provider, dir)
    const [first] = await cached.embed(['what database'], 'query')
    await rm(dir, { recursive: true, force: true })
    first?.fill(0)
    const [again] = await cached.embed(['what database'], 'query')
    expect(provider.embedded).toEqual(['what database'])
    expect(Array.from(again ?? [])).toEqual([13, 1, 0])
  })

  it('embeds a query asked again while it is being embedded once, and gives each caller its own copy', async () => {
    const provider = counting()
    const cached = withQueryCache(provider, dir)
    const [ahead, asked] = await Promise.all([cached.embed(['what database'], 'query'), cached.embed(['what database', 'who'], 'query')])
    expect(provider.embedded).toEqual(['what database', 'who'])
    ahead[0]?.fill(0)
    expect(Array.from(asked[0] ?? [])).toEqual([13, 1, 0])
    expect(asked.map((vector) => vector[0])).toEqual([13, 3])
  })

  it('keeps models apart', async () => {
    await withQueryCache(counting('model-a'), dir).embed(['q'], 'query')
    const other = counting('model-b')
    await withQueryCache(other, dir).embed(['q'], 'query')
    expect(other.embedded).toEqual(['q'])
  })

  it('embeds again over a damaged file and repairs it', async () => {
    await withQueryCache(counting(), dir).embed(['q'], 'query')
    const [modelFolder = ''] = await readdir(dir)
    const [file = ''] = await readdir(join(dir, modelFolder))
    await writeFile(join(dir, modelFolder, file), 'junk')
    const again = counting()
    expect((await withQueryCache(again, dir).embed(['q'], 'query'))[0]?.[0]).toBe(1)
    expect(again.embedded).toEqual(['q'])
    const third = counting()
    await withQueryCache(third, dir).embed(['q'], 'query')
    expect(third.embedded).toEqual([])
  })
})
