import { mkdtemp, readdir, rm, stat, truncate } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { withVectorCache } from '../../../src/eval/vector-cache.js'
import { wordEmbedder } from '../../helpers/word-embedder.js'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mk-vectors-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

describe('vector cache', () => {
  it('embeds a document text once, across runs, and returns the same vector', async () => {
    const model = wordEmbedder({ dimensions: 8 })
    const first = await withVectorCache(model, dir)
    const fresh = await first.embed(['alpha beta', 'gamma', 'alpha beta'], 'document')
    expect(model.calls).toBe(1)
    expect(first.stats).toEqual({ cached: 1, embedded: 2 })

    const second = await withVectorCache(model, dir)
    const again = await second.embed(['gamma', 'alpha beta'], 'document')
    expect(model.calls).toBe(1)
    expect(second.stats).toEqual({ cached: 2, embedded: 0 })
    expect(again).toEqual([fresh[1], fresh[0]])
  })

  it('always embeds queries, so measured search latency includes the encoder', async () => {
    const model = wordEmbedder({ dimensions: 8 })
    const cached = await withVectorCache(model, dir)
    await cached.embed(['alpha'], 'query')
    await cached.embed(['alpha'], 'query')
    expect(model.calls).toBe(2)
    expect(cached.stats).toEqual({ cached: 0, embedded: 0 })
  })

  it('gives each run its own file, so runs at the same time never interleave records', async () => {
    const model = wordEmbedder({ dimensions: 8 })
    const [one, two] = await Promise.all([withVectorCache(model, dir), withVectorCache(model, dir)])
    await Promise.all([one.embed(['alpha'], 'document'), two.embed(['beta'], 'document')])
    expect(await readdir(dir)).toHaveLength(2)
    const third = await withVectorCache(model, dir)
    await third.embed(['alpha', 'beta'], 'document')
    expect(third.stats).toEqual({ cached: 2, embedded: 0 })
  })

  it('keeps the vectors of different models apart', async () => {
    const one = await withVectorCache(wordEmbedder({ modelId: 'one', dimensions: 8 }), dir)
    await one.embed(['alpha'], 'document')
    const otherModel = wordEmbedder({ modelId: 'two', dimensions: 8 })
    await (await withVectorCache(otherModel, dir)).embed(['alpha'], 'document')
    expect(otherModel.calls).toBe(1)
  })

  it('ignores a record cut short by an interrupted run', async () => {
    const model = wordEmbedder({ dimensions: 8 })
    await (await withVectorCache(model, dir)).embed(['alpha', 'beta'], 'document')
    const [file] = await readdir(dir)
    const path = join(dir, file ?? '')
    await truncate(path, (await stat(path)).size - 5)
    const reopened = await withVectorCache(model, dir)
    await reopened.embed(['alpha', 'beta'], 'document')
    expect(reopened.stats).toEqual({ cached: 1, embedded: 1 })
  })
})
