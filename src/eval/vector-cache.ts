import { randomBytes } from 'node:crypto'
import { appendFile, mkdir, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isNodeError } from '../errors.js'
import { sha256Hex } from '../hash.js'
import type { EmbeddingProvider } from '../search/embedding/provider.js'

const keyBytes = 32

export interface CachedEmbedder extends EmbeddingProvider {
  readonly stats: { cached: number; embedded: number }
}

function keyOf(text: string): string {
  return sha256Hex(text)
}

/**
 * Wraps a provider so that document vectors already computed for the same
 * model and text are read from a file instead of embedded again: repeated
 * benchmark runs then cost seconds, not the minutes a corpus takes to embed.
 * Queries are always embedded, so search latency stays honest. Each run
 * appends to its own file (so runs at the same time never interleave
 * records); a file holds records of a SHA-256 key and the vector.
 */
export async function withVectorCache(provider: EmbeddingProvider, dir: string): Promise<CachedEmbedder> {
  const prefix = `${sha256Hex(provider.modelId).slice(0, 16)}-${provider.dimensions}-`
  const file = join(dir, `${prefix}${process.pid}-${randomBytes(4).toString('hex')}.vectors`)
  const recordBytes = keyBytes + provider.dimensions * 4
  const vectors = new Map<string, Float32Array>()
  await mkdir(dir, { recursive: true })
  for (const name of (await readdir(dir)).filter((entry) => entry.startsWith(prefix) && entry.endsWith('.vectors'))) {
    let data: Buffer
    try {
      data = await readFile(join(dir, name))
    } catch (error) {
      if (isNodeError(error) && error.code === 'ENOENT') continue
      throw error
    }
    // A record cut short by an interrupted run is ignored.
    for (let offset = 0; offset + recordBytes <= data.length; offset += recordBytes) {
      const key = data.toString('hex', offset, offset + keyBytes)
      const vector = new Float32Array(provider.dimensions)
      Buffer.from(vector.buffer).set(data.subarray(offset + keyBytes, offset + recordBytes))
      vectors.set(key, vector)
    }
  }
  const stats = { cached: 0, embedded: 0 }
  return {
    modelId: provider.modelId,
    dimensions: provider.dimensions,
    stats,
    async embed(texts, kind) {
      if (kind === 'query') return provider.embed(texts, kind)
      const keys = texts.map(keyOf)
      const missing = [...new Set(keys.filter((key) => !vectors.has(key)))]
      if (missing.length > 0) {
        const textOf = new Map(keys.map((key, index) => [key, texts[index] ?? '']))
        const fresh = await provider.embed(
          missing.map((key) => textOf.get(key) ?? ''),
          kind,
        )
        if (fresh.length !== missing.length) throw new Error(`${provider.modelId} returned ${fresh.length} vectors for ${missing.length} texts`)
        const records = missing.map((key, index) => {
          const vector = fresh[index] as Float32Array
          vectors.set(key, vector)
          return Buffer.concat([Buffer.from(key, 'hex'), Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)])
        })
        await appendFile(file, Buffer.concat(records))
      }
      stats.embedded += missing.length
      stats.cached += texts.length - missing.length
      return keys.map((key) => vectors.get(key) ?? new Float32Array(provider.dimensions))
    },
    close: () => provider.close?.() ?? Promise.resolve(),
  }
}
