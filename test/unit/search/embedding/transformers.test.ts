import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmbeddingProvider, type EmbeddingSettings } from '../../../../src/search/embedding/create.js'
import type { EmbeddingProvider } from '../../../../src/search/embedding/provider.js'
import { makeWorkspace, type TempWorkspace } from '../../../helpers/workspace.js'
import { expectedVector, tinyHiddenSize, tokenId, writeTinyBert } from './tiny-bert.js'
import { failure } from '../../../helpers/errors.js'

const transformers = (model: string | undefined, allowDownload = false): EmbeddingSettings => ({
  provider: 'transformers',
  model,
  allowDownload,
  timeoutMs: 30_000,
  hubUrl: 'https://huggingface.co',
})

describe('transformers embedding provider on a tiny generated BERT model', () => {
  let workspace: TempWorkspace
  let provider: EmbeddingProvider | undefined

  beforeAll(async () => {
    workspace = await makeWorkspace()
    await writeTinyBert(join(workspace.root, 'models', 'tiny-bert'))
    provider = await createEmbeddingProvider(transformers('./models/tiny-bert'), { workspaceRoot: workspace.root })
  })

  afterAll(async () => {
    await provider?.close?.()
    await workspace.cleanup()
  })

  it('reads the size and a stable model id from the folder, without loading the model', () => {
    expect(provider?.dimensions).toBe(tinyHiddenSize)
    expect(provider?.modelId).toMatch(/^transformers:tiny-bert@[0-9a-f]{12}$/)
  })

  it('mean-pools the token vectors over the attention mask and normalises them', async () => {
    const [short, long] = (await provider?.embed(['We use Postgres', 'what database do'], 'document')) ?? []
    const cls = tokenId('[CLS]')
    const sep = tokenId('[SEP]')
    // "We use Postgres" is padded to the longer text's length; padding must not count.
    expect(Array.from(short ?? [])).toEqual(
      expectedVector([cls, tokenId('we'), tokenId('use'), tokenId('postgres'), sep]).map((value) => expect.closeTo(value, 5)),
    )
    expect(Array.from(long ?? [])).toEqual(
      expectedVector([cls, tokenId('what'), tokenId('database'), tokenId('do'), sep]).map((value) => expect.closeTo(value, 5)),
    )
    expect(Math.hypot(...(short ?? []))).toBeCloseTo(1, 5)
  })

  it('truncates texts longer than the model reads, and maps unknown words to [UNK]', async () => {
    const [vector, unknown] = (await provider?.embed(['we store everything in postgres cats cats', 'zebra'], 'query')) ?? []
    // transformers.js cuts the encoded sequence at model_max_length, [SEP] included.
    const kept = [tokenId('[CLS]'), tokenId('we'), tokenId('store'), tokenId('everything'), tokenId('in'), tokenId('postgres')]
    expect(Array.from(vector ?? [])).toEqual(expectedVector(kept).map((value) => expect.closeTo(value, 5)))
    expect(Array.from(unknown ?? [])).toEqual(expectedVector([tokenId('[CLS]'), tokenId('[UNK]'), tokenId('[SEP]')]).map((value) => expect.closeTo(value, 5)))
  })

  it('puts the configured prefix before queries or documents, and records it in the model id', async () => {
    const settings = { ...transformers('./models/tiny-bert'), queryPrefix: 'cats ' }
    const prefixed = await createEmbeddingProvider(settings, { workspaceRoot: workspace.root })
    expect(prefixed?.modelId).toMatch(/^transformers:tiny-bert@[0-9a-f]{12}\+prefix:[0-9a-f]{8}$/)
    const [query] = (await prefixed?.embed(['we'], 'query')) ?? []
    const [document] = (await prefixed?.embed(['we'], 'document')) ?? []
    await prefixed?.close?.()
    const [cls, sep] = [tokenId('[CLS]'), tokenId('[SEP]')]
    expect(Array.from(query ?? [])).toEqual(expectedVector([cls, tokenId('cats'), tokenId('we'), sep]).map((value) => expect.closeTo(value, 5)))
    expect(Array.from(document ?? [])).toEqual(expectedVector([cls, tokenId('we'), sep]).map((value) => expect.closeTo(value, 5)))
  })

  it('changes its model id when another model is copied into the same folder', async () => {
    const folder = join(workspace.root, 'models', 'tiny-bert')
    await writeFile(join(folder, 'config.json'), JSON.stringify({ model_type: 'bert', hidden_size: tinyHiddenSize, layers: 2 }))
    const other = await createEmbeddingProvider(transformers('./models/tiny-bert'), { workspaceRoot: workspace.root })
    expect(other?.modelId).not.toBe(provider?.modelId)
  })
})

describe('transformers provider: a missing or wrong model', () => {
  let workspace: TempWorkspace

  beforeAll(async () => {
    workspace = await makeWorkspace()
  })

  afterAll(async () => {
    await workspace.cleanup()
  })

  const create = (settings: EmbeddingSettings): Promise<EmbeddingProvider | undefined> =>
    createEmbeddingProvider(settings, { workspaceRoot: workspace.root, modelCacheDir: join(workspace.root, 'cache') })

  it('needs a model', async () => {
    const error = await failure(create(transformers(undefined)))
    expect(error.code).toBe('INVALID_INPUT')
    expect(error.message).toContain('search.embedding.model')
  })

  it('names a folder that does not exist and how to fix it', async () => {
    const error = await failure(create(transformers('./models/absent')))
    expect(error.code).toBe('INVALID_INPUT')
    expect(error.message).toBe(`embedding model folder ${join(workspace.root, 'models', 'absent')} does not exist`)
    expect(String(error.details?.hint)).toContain('search.embedding.model')
  })

  it('names what a folder lacks', async () => {
    await mkdir(join(workspace.root, 'models', 'empty'), { recursive: true })
    expect((await failure(create(transformers('models/empty')))).message).toContain('has no config.json')

    await writeTinyBert(join(workspace.root, 'models', 'no-onnx'))
    await rm(join(workspace.root, 'models', 'no-onnx', 'onnx'), { recursive: true })
    expect((await failure(create(transformers('./models/no-onnx')))).message).toContain('has no onnx/model.onnx')

    await writeTinyBert(join(workspace.root, 'models', 'flat'))
    await rm(join(workspace.root, 'models', 'flat', 'onnx'), { recursive: true })
    await writeFile(join(workspace.root, 'models', 'flat', 'model.onnx'), 'x')
    const flat = await failure(create(transformers('./models/flat')))
    expect(flat.message).toContain('onnx/ sub-folder')
    expect(String(flat.details?.hint)).toContain(join('flat', 'onnx', 'model.onnx'))

    await writeTinyBert(join(workspace.root, 'models', 'bad-config'))
    await writeFile(join(workspace.root, 'models', 'bad-config', 'config.json'), '{ not json')
    expect((await failure(create(transformers('./models/bad-config')))).message).toContain('not valid JSON')
  })

  it('refuses to download a hub model unless allowDownload is set', async () => {
    const error = await failure(create(transformers('Xenova/all-MiniLM-L6-v2')))
    expect(error.code).toBe('INVALID_INPUT')
    expect(error.message).toContain('Xenova/all-MiniLM-L6-v2')
    expect(String(error.details?.hint)).toContain('allowDownload')
  })

  it('uses a hub model already in the cache without any download', async () => {
    await writeTinyBert(join(workspace.root, 'cache', 'acme', 'tiny'))
    const provider = await create(transformers('acme/tiny'))
    expect(provider?.modelId).toBe('transformers:acme/tiny')
    const [vector] = (await provider?.embed(['cats'], 'query')) ?? []
    expect(Array.from(vector ?? [])).toEqual(expectedVector([tokenId('[CLS]'), tokenId('cats'), tokenId('[SEP]')]).map((value) => expect.closeTo(value, 5)))
    await provider?.close?.()
  })

  it('reports a model file ONNX Runtime cannot read as PROVIDER_ERROR naming the folder', async () => {
    const folder = join(workspace.root, 'models', 'corrupt')
    await writeTinyBert(folder)
    await writeFile(join(folder, 'onnx', 'model.onnx'), 'this is not an onnx model')
    const provider = await create(transformers('./models/corrupt'))
    const error = await failure(provider?.embed(['we'], 'document') ?? Promise.resolve())
    expect(error.code).toBe('PROVIDER_ERROR')
    expect(error.message).toContain(folder)
  })
})
