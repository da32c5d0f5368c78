import { parentPort } from 'node:worker_threads'
import { embedWithModel, loadBundledModel, type BundledModel } from './bundled-model.js'

/** What the pool sends: texts to embed under a request number. */
export interface EmbedRequest {
  id: number
  texts: string[]
}

/** What a worker answers: the vectors, or why it could not. */
export type EmbedReply = { id: number; vectors: Float32Array[] } | { id: number; error: string }

// An embedding worker: loads the bundled model once and embeds the batches the pool sends it, one at a time.
let model: Promise<BundledModel> | undefined
const port = parentPort
port?.on('message', (request: EmbedRequest) => {
  model ??= loadBundledModel()
  model
    .then((loaded) => embedWithModel(loaded, request.texts))
    .then(
      (vectors) =>
        port.postMessage(
          { id: request.id, vectors } satisfies EmbedReply,
          vectors.map((vector) => vector.buffer as ArrayBuffer),
        ),
      (error: unknown) => port.postMessage({ id: request.id, error: (error as Error).message } satisfies EmbedReply),
    )
})
