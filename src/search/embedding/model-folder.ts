import { createHash } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { basename, isAbsolute, join, resolve } from 'node:path'
import { MkError } from '../../errors.js'

/** Where a transformers model comes from: a folder on disk, or a hub id still to be downloaded. */
export type ModelLocation =
  { kind: 'folder'; folder: string; modelId: string; dtype: 'fp32' | 'q8'; dimensions: number } | { kind: 'hub'; id: string; modelId: string; cacheDir: string }

export interface LocateOptions {
  workspaceRoot: string
  /** Where downloaded models are kept (and looked for first). */
  cacheDir: string
  /** Where `mk model pull` puts models (`$MK_HOME/models`), looked for before cacheDir. */
  pulledDir?: string | undefined
  allowDownload: boolean
}

const onnxFiles = [
  { file: 'onnx/model.onnx', dtype: 'fp32' },
  { file: 'onnx/model_quantized.onnx', dtype: 'q8' },
] as const

const hubId = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/

const exportHint =
  'point search.embedding.model at a transformers.js model folder (config.json, tokenizer.json, onnx/model.onnx), e.g. a copy of Xenova/all-MiniLM-L6-v2, ' +
  'or export one with `optimum-cli export onnx --model sentence-transformers/all-MiniLM-L6-v2 DIR` and move model.onnx into DIR/onnx/'

function wrongFolder(folder: string, problem: string, hint = exportHint): MkError {
  return new MkError('INVALID_INPUT', `embedding model folder ${folder} ${problem}`, { details: { field: 'search.embedding.model', folder, hint } })
}

function readModelConfig(folder: string): { text: string; dimensions: number } {
  const path = join(folder, 'config.json')
  if (!existsSync(path)) throw wrongFolder(folder, 'has no config.json, so it is not a sentence-transformer model folder')
  const text = readFileSync(path, 'utf8')
  let config: unknown
  try {
    config = JSON.parse(text)
  } catch (error) {
    throw wrongFolder(folder, `has a config.json that is not valid JSON (${(error as Error).message})`)
  }
  const record = typeof config === 'object' && config !== null ? (config as Record<string, unknown>) : {}
  const dimensions = [record.hidden_size, record.d_model, record.dim].find((value): value is number => typeof value === 'number' && value > 0)
  if (dimensions === undefined) throw wrongFolder(folder, 'has a config.json without hidden_size, so the embedding size is unknown')
  return { text, dimensions }
}

/** Checks that a folder holds everything transformers.js needs, and names what is missing. */
export function inspectModelFolder(folder: string, modelId?: string): Extract<ModelLocation, { kind: 'folder' }> {
  if (!existsSync(folder)) {
    throw wrongFolder(folder, 'does not exist', `create it, or fix search.embedding.model in .mkrc (a path relative to the workspace); ${exportHint}`)
  }
  if (!statSync(folder).isDirectory()) throw wrongFolder(folder, 'is a file, not a folder')
  const { text, dimensions } = readModelConfig(folder)
  if (!existsSync(join(folder, 'tokenizer.json'))) throw wrongFolder(folder, 'has no tokenizer.json')
  const onnx = onnxFiles.find(({ file }) => existsSync(join(folder, file)))
  if (onnx === undefined) {
    const atRoot = existsSync(join(folder, 'model.onnx'))
    throw wrongFolder(
      folder,
      atRoot ? 'has model.onnx at its top level; transformers.js reads it from the onnx/ sub-folder' : 'has no onnx/model.onnx (nor onnx/model_quantized.onnx)',
      atRoot ? `move ${join(folder, 'model.onnx')} to ${join(folder, 'onnx', 'model.onnx')}` : exportHint,
    )
  }
  // The fingerprint changes when another model is copied into the same folder, so old vectors are never mixed with new ones.
  const fingerprint = createHash('sha256')
    .update(text)
    .update(String(statSync(join(folder, onnx.file)).size))
    .digest('hex')
    .slice(0, 12)
  return { kind: 'folder', folder, dtype: onnx.dtype, dimensions, modelId: modelId ?? `transformers:${basename(folder)}@${fingerprint}` }
}

function isCompleteModelFolder(folder: string): boolean {
  return existsSync(join(folder, 'config.json')) && existsSync(join(folder, 'tokenizer.json')) && onnxFiles.some(({ file }) => existsSync(join(folder, file)))
}

/**
 * Resolves `search.embedding.model`: a folder (relative to the workspace or
 * absolute), else a hub id (`owner/name`) already downloaded into the cache,
 * else a hub id to download — only when downloads are allowed.
 */
export function locateModel(model: string | undefined, options: LocateOptions): ModelLocation {
  if (model === undefined) {
    throw new MkError('INVALID_INPUT', 'search.embedding.model is not set, and the transformers provider needs a model', {
      details: { field: 'search.embedding.model', hint: `set search.embedding.model in .mkrc to a model folder or a hub id; ${exportHint}` },
    })
  }
  const folder = resolve(options.workspaceRoot, model)
  const looksLikePath = isAbsolute(model) || model.startsWith('.') || model.startsWith('~') || model.includes('\\')
  if (looksLikePath || existsSync(folder) || !hubId.test(model)) return inspectModelFolder(folder)
  const modelId = `transformers:${model}`
  for (const dir of [options.pulledDir, options.cacheDir]) {
    const cached = dir === undefined ? undefined : join(dir, model)
    if (cached !== undefined && isCompleteModelFolder(cached)) return inspectModelFolder(cached, modelId)
  }
  if (!options.allowDownload) {
    throw new MkError('INVALID_INPUT', `embedding model ${model} is neither a folder in ${options.workspaceRoot} nor downloaded into ${options.cacheDir}`, {
      details: {
        field: 'search.embedding.model',
        hint: `run mk model pull ${model} (or set search.embedding.allowDownload: true to download it on first use), or point search.embedding.model at a local model folder`,
      },
    })
  }
  return { kind: 'hub', id: model, modelId, cacheDir: options.cacheDir }
}
