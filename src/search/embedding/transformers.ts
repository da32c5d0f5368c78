import { createHash } from 'node:crypto'
import type { FeatureExtractionPipeline } from '@huggingface/transformers'
import { MkError } from '../../errors.js'
import { importPackage } from '../../import-package.js'
import type { ModelLocation } from './model-folder.js'
import type { EmbeddingProvider } from './provider.js'
import { batches, normalizeL2 } from './vectors.js'

const batchSize = 16

function describe(location: ModelLocation): string {
  return location.kind === 'folder' ? `model folder ${location.folder}` : `model ${location.id}`
}

type Transformers = typeof import('@huggingface/transformers')

/**
 * The runtime is an optional install (about 480 MB with ONNX Runtime and sharp): mk's own
 * package does not depend on it, so its absence is the user's one command away.
 */
async function importTransformers(): Promise<Transformers> {
  try {
    return await importPackage<Transformers>('@huggingface/transformers')
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND' || !String((error as Error).message).includes('@huggingface/transformers')) throw error
    throw new MkError('PROVIDER_ERROR', 'the transformers embedding provider needs @huggingface/transformers, which is not installed', {
      details: {
        hint: 'run: ONNXRUNTIME_NODE_INSTALL=skip npm install @huggingface/transformers (where mk-knowledge is installed; add -g for a global mk), or set search.embedding.provider to "bundled" in .mkrc',
      },
    })
  }
}

async function loadPipeline(location: ModelLocation): Promise<FeatureExtractionPipeline> {
  const { env, pipeline } = await importTransformers()
  try {
    env.allowLocalModels = true
    if (location.kind === 'folder') {
      // An absolute path is not a hub id, so transformers.js reads the folder itself; nothing is fetched.
      env.allowRemoteModels = false
      return await pipeline('feature-extraction', location.folder, { dtype: location.dtype, local_files_only: true })
    }
    env.allowRemoteModels = true
    env.localModelPath = location.cacheDir
    env.cacheDir = location.cacheDir
    return await pipeline('feature-extraction', location.id, { dtype: 'fp32', cache_dir: location.cacheDir })
  } catch (error) {
    throw new MkError('PROVIDER_ERROR', `cannot load the embedding ${describe(location)}: ${(error as Error).message}`, {
      cause: error,
      retryable: location.kind === 'hub',
      details: {
        hint: 'check that it is an ONNX sentence-transformer exported for transformers.js, or set search.embedding.provider to "bundled" in .mkrc',
      },
    })
  }
}

/** Text put before queries and documents, for models trained with instructions (e5: "query: " / "passage: "). */
export interface Prefixes {
  query?: string | undefined
  document?: string | undefined
}

/** Prefixes change every vector, so they are part of the model's identity. */
function modelIdWith(modelId: string, prefixes: Prefixes): string {
  const query = prefixes.query ?? ''
  const document = prefixes.document ?? ''
  if (query === '' && document === '') return modelId
  return `${modelId}+prefix:${createHash('sha256').update(query).update('\u0000').update(document).digest('hex').slice(0, 8)}`
}

/**
 * A sentence-transformer run by @huggingface/transformers (ONNX Runtime):
 * mean pooling over tokens, then L2 normalisation. The runtime is imported
 * and the model loaded on the first `embed` call, never before.
 */
export function createTransformersProvider(location: ModelLocation, dimensions: number, prefixes: Prefixes = {}): EmbeddingProvider {
  let extractor: Promise<FeatureExtractionPipeline> | undefined
  const load = (): Promise<FeatureExtractionPipeline> => {
    extractor ??= loadPipeline(location).catch((error: unknown) => {
      extractor = undefined
      throw error
    })
    return extractor
  }
  return {
    modelId: modelIdWith(location.modelId, prefixes),
    dimensions,
    async embed(texts, kind) {
      if (texts.length === 0) return []
      const run = await load()
      const prefix = prefixes[kind] ?? ''
      const vectors: Float32Array[] = []
      for (const batch of batches(prefix === '' ? texts : texts.map((text) => prefix + text), batchSize)) {
        const output = await run(batch, { pooling: 'mean', normalize: true })
        const width = output.dims[1]
        if (width !== dimensions) {
          throw new MkError(
            'PROVIDER_ERROR',
            `the embedding ${describe(location)} produced ${String(width)}-d vectors, but its config.json says ${dimensions}`,
            {
              retryable: false,
              details: { hint: 'fix hidden_size in config.json, or use another model' },
            },
          )
        }
        const data = output.data as Float32Array
        for (let row = 0; row < batch.length; row++) vectors.push(normalizeL2(data.slice(row * width, (row + 1) * width)))
      }
      return vectors
    },
    async close() {
      if (extractor === undefined) return
      const loaded = await extractor.catch(() => undefined)
      extractor = undefined
      await loaded?.dispose()
    },
  }
}

/** Reads the embedding size of a hub model from its config.json, downloading that one small file. */
export async function fetchHubDimensions(location: Extract<ModelLocation, { kind: 'hub' }>): Promise<number> {
  const { AutoConfig, env } = await importTransformers()
  try {
    env.allowRemoteModels = true
    env.cacheDir = location.cacheDir
    const config = (await AutoConfig.from_pretrained(location.id, { cache_dir: location.cacheDir })) as unknown as Record<string, unknown>
    const dimensions = [config.hidden_size, config.d_model, config.dim].find((value): value is number => typeof value === 'number' && value > 0)
    if (dimensions !== undefined) return dimensions
    throw new Error('its config.json has no hidden_size')
  } catch (error) {
    throw new MkError('PROVIDER_ERROR', `cannot download the embedding ${describe(location)}: ${(error as Error).message}`, {
      cause: error,
      details: { hint: 'check the model id and the network, or download the model folder yourself and point search.embedding.model at it' },
    })
  }
}
