import type { EmbeddingProvider } from '../../src/search/embedding/provider.js'

/**
 * A deterministic stand-in for a sentence encoder: words hashed into buckets, with a small
 * synonym table so tests can show a match by meaning that full text alone would miss.
 */
export function wordEmbedder(
  options: { modelId?: string; dimensions?: number; synonyms?: Record<string, string> } = {},
): EmbeddingProvider & { calls: number } {
  const dimensions = options.dimensions ?? 64
  const synonyms = options.synonyms ?? {}
  const provider = {
    modelId: options.modelId ?? 'test-words',
    dimensions,
    calls: 0,
    async embed(texts: readonly string[]): Promise<Float32Array[]> {
      provider.calls++
      return texts.map((text) => {
        const vector = new Float32Array(dimensions)
        for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
          const word = synonyms[raw] ?? raw
          let hash = 2166136261
          for (const char of word) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619)
          const bucket = (hash >>> 0) % dimensions
          vector[bucket] = (vector[bucket] ?? 0) + 1
        }
        const norm = Math.hypot(...vector) || 1
        return vector.map((value) => value / norm)
      })
    },
  }
  return provider
}
