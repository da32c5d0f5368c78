import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isNodeError } from '../../errors.js'
import { sha256Hex } from '../../hash.js'
import { writeFileAtomicSync } from '../../fs/atomic-write.js'
import type { EmbeddingProvider } from './provider.js'

/** Queries a process keeps in memory (1.5 KB each at 384 dimensions). */
const remembered = 256

/**
 * Keeps the vector of every query asked, on disk, per model: a question asked again (agents ask
 * the same ones at every task start) skips the model, and a fresh process that only searches
 * with known questions never loads it. One file per query, `<dir>/<model hash>/<text hash>.f32`;
 * a file of the wrong size is a miss and is written again. Documents are never cached here:
 * their vectors live in the index. A long-lived process (the MCP server, `mk serve`) also keeps
 * the last `remembered` queries in memory: a file read was about 5% of a warm search. The files
 * are read and written synchronously: a few small calls, where each asynchronous one (folder,
 * open, write, rename) cost a trip through the thread pool, 5 ms of a new question at 10,000
 * memories.
 */
export function withQueryCache(provider: EmbeddingProvider, dir: string): EmbeddingProvider {
  const folder = join(dir, sha256Hex(provider.modelId).slice(0, 16))
  const pathOf = (text: string): string => join(folder, `${sha256Hex(text)}.f32`)
  const bytes = provider.dimensions * 4
  /** Most recently used last; callers get copies, so a vector changed by one never reaches another. */
  const inMemory = new Map<string, Float32Array>()
  const remember = (text: string, vector: Float32Array): void => {
    inMemory.delete(text)
    inMemory.set(text, vector.slice())
    if (inMemory.size > remembered) inMemory.delete(inMemory.keys().next().value as string)
  }

  function read(text: string): Float32Array | undefined {
    const known = inMemory.get(text)
    if (known !== undefined) {
      remember(text, known)
      return known.slice()
    }
    try {
      const data = readFileSync(pathOf(text))
      if (data.length !== bytes) return undefined
      const vector = new Float32Array(data.buffer.slice(data.byteOffset, data.byteOffset + bytes))
      remember(text, vector)
      return vector
    } catch (error) {
      if (isNodeError(error) && error.code === 'ENOENT') return undefined
      throw error
    }
  }

  /** Queries being embedded now: a search that posted its question ahead (SearchIndex.expectQuery) and then asks for it waits for the same answer. */
  const inFlight = new Map<string, Promise<Float32Array>>()

  function startEmbedding(missing: readonly string[]): void {
    const fresh = provider
      .embed(missing, 'query')
      .then((vectors) => {
        missing.forEach((text, index) => {
          const vector = vectors[index] as Float32Array
          remember(text, vector)
          writeFileAtomicSync(pathOf(text), new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength))
        })
        return vectors
      })
      .finally(() => {
        for (const text of missing) inFlight.delete(text)
      })
    missing.forEach((text, index) =>
      inFlight.set(
        text,
        fresh.then((vectors) => vectors[index] as Float32Array),
      ),
    )
  }

  return {
    modelId: provider.modelId,
    dimensions: provider.dimensions,
    async embed(texts, kind) {
      if (kind !== 'query') return provider.embed(texts, kind)
      const cached = texts.map(read)
      const missing = [...new Set(texts.filter((text, index) => cached[index] === undefined && !inFlight.has(text)))]
      if (missing.length > 0) startEmbedding(missing)
      // Copies: a vector several callers wait for must not change under one of them.
      return Promise.all(texts.map(async (text, index) => cached[index] ?? (await (inFlight.get(text) as Promise<Float32Array>)).slice()))
    },
    ...(provider.close === undefined ? {} : { close: () => provider.close?.() ?? Promise.resolve() }),
  }
}
