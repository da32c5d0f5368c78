import { createHash } from 'node:crypto'
import { readFile, readdir, mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pullModel } from '../../../src/models/hub-download.js'
import { installedModels } from '../../../src/models/installed.js'
import { inspectModelFolder, locateModel } from '../../../src/search/embedding/model-folder.js'
import { failure } from '../../helpers/errors.js'
import { writeTinyBert } from '../search/embedding/tiny-bert.js'

let dir: string
let server: Server
let hubUrl: string
const files = new Map<string, Buffer>()
const requests: { path: string; range: string | undefined }[] = []
/** How the hub misbehaves for the next request of the ONNX file. */
let onnxFault: 'none' | 'drop-half' | 'wrong-checksum' | 'no-length' = 'none'
/** No cap that matters for the tiny model. */
const maxBytes = 1_000_000_000

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex')

// A hub laid out like huggingface.co: /{owner}/{name}/resolve/{revision}/{file}; large files
// answer with a redirect carrying X-Linked-Etag (the LFS SHA-256), as the real hub does.
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mk-hub-'))
  const model = join(dir, 'source')
  await writeTinyBert(model)
  for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']) files.set(file, await readFile(join(model, file)))
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://hub')
    requests.push({ path: url.pathname, range: request.headers.range })
    const cdn = /^\/cdn\/(.+)$/.exec(url.pathname)
    const resolved = /^\/acme\/tiny-bert\/resolve\/main\/(.+)$/.exec(url.pathname)
    const file = cdn?.[1] ?? resolved?.[1] ?? ''
    const data = files.get(file)
    if (data === undefined) {
      response.writeHead(404).end('not found')
      return
    }
    if (resolved !== null && file.endsWith('.onnx')) {
      const published = onnxFault === 'wrong-checksum' ? sha256(Buffer.from('something else')) : sha256(data)
      response.writeHead(302, { location: `/cdn/${file}`, 'x-linked-etag': `"${published}"` }).end()
      return
    }
    const start = Number(/^bytes=(\d+)-$/.exec(request.headers.range ?? '')?.[1] ?? 0)
    const body = data.subarray(start)
    const length = file.endsWith('.onnx') && onnxFault === 'no-length' ? {} : { 'content-length': String(body.length) }
    response.writeHead(start > 0 ? 206 : 200, { ...length, etag: `"${file.length}-weak"` })
    if (file.endsWith('.onnx') && onnxFault === 'drop-half') {
      onnxFault = 'none'
      response.write(body.subarray(0, Math.floor(body.length / 2)), () => setTimeout(() => response.destroy(), 100))
      return
    }
    response.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  hubUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
  await rm(dir, { recursive: true, force: true })
})

describe('mk model pull from a hub', () => {
  it('downloads a usable model, checking the ONNX file against the checksum the hub publishes', async () => {
    const modelsDir = join(dir, 'home-1', 'models')
    const pulled = await pullModel({ id: 'acme/tiny-bert', revision: 'main', hubUrl, modelsDir, maxBytes })
    expect(pulled.folder).toBe(join(modelsDir, 'acme', 'tiny-bert'))
    expect(pulled.files.find((file) => file.path === 'onnx/model.onnx')).toMatchObject({
      verified: true,
      sha256: sha256(files.get('onnx/model.onnx') ?? Buffer.alloc(0)),
    })
    expect(inspectModelFolder(pulled.folder).dimensions).toBe(4)
    expect((await installedModels(join(dir, 'home-1'))).map((model) => model.id)).toEqual(['acme/tiny-bert'])
    expect(await readdir(join(modelsDir, '.partial', 'acme'))).toEqual([])
    // search.embedding.model: acme/tiny-bert now resolves to the pulled folder, with no download.
    const located = locateModel('acme/tiny-bert', { workspaceRoot: dir, cacheDir: join(dir, 'elsewhere'), pulledDir: modelsDir, allowDownload: false })
    expect(located).toMatchObject({ kind: 'folder', folder: pulled.folder, modelId: 'transformers:acme/tiny-bert' })
  })

  it('resumes a download that broke off, asking only for the rest', async () => {
    const modelsDir = join(dir, 'home-2', 'models')
    onnxFault = 'drop-half'
    expect(await failure(pullModel({ id: 'acme/tiny-bert', revision: 'main', hubUrl, modelsDir, maxBytes }))).toMatchObject({
      code: 'PROVIDER_ERROR',
      retryable: true,
    })
    requests.length = 0
    const pulled = await pullModel({ id: 'acme/tiny-bert', revision: 'main', hubUrl, modelsDir, maxBytes })
    const onnx = pulled.files.find((file) => file.path === 'onnx/model.onnx')
    expect(onnx?.resumedBytes).toBeGreaterThan(0)
    expect(onnx?.verified).toBe(true)
    expect(requests.find((request) => request.path === '/cdn/onnx/model.onnx')?.range).toBe(`bytes=${onnx?.resumedBytes}-`)
    expect(inspectModelFolder(pulled.folder).dimensions).toBe(4)
  })

  it('refuses a file that does not match its checksum and leaves no model behind', async () => {
    const modelsDir = join(dir, 'home-3', 'models')
    onnxFault = 'wrong-checksum'
    const error = await failure(pullModel({ id: 'acme/tiny-bert', revision: 'main', hubUrl, modelsDir, maxBytes }))
    onnxFault = 'none'
    expect(error.code).toBe('PROVIDER_ERROR')
    expect(error.message).toContain('does not match the checksum')
    expect(await installedModels(join(dir, 'home-3'))).toEqual([])
  })

  it('says NOT_FOUND for an id the hub does not have, and names an unreachable hub', async () => {
    const modelsDir = join(dir, 'home-4', 'models')
    expect(await failure(pullModel({ id: 'acme/nothing', revision: 'main', hubUrl, modelsDir, maxBytes }))).toMatchObject({ code: 'NOT_FOUND' })
    const unreachable = await failure(pullModel({ id: 'acme/tiny-bert', revision: 'main', hubUrl: 'http://127.0.0.1:9', modelsDir, maxBytes }))
    expect(unreachable).toMatchObject({ code: 'PROVIDER_ERROR', retryable: true })
    expect(unreachable.message).toContain('cannot reach the model hub')
  })

  it('refuses a model larger than the cap, before its download when the hub gives the length, and keeps none of it', async () => {
    const onnx = files.get('onnx/model.onnx')?.length ?? 0
    const small = [...files.entries()].filter(([file]) => !file.endsWith('.onnx')).reduce((sum, [, data]) => sum + data.length, 0)
    for (const [home, fault] of [
      ['home-6', 'none'],
      ['home-7', 'no-length'],
    ] as const) {
      const modelsDir = join(dir, home, 'models')
      onnxFault = fault
      requests.length = 0
      const error = await failure(pullModel({ id: 'acme/tiny-bert', revision: 'main', hubUrl, modelsDir, maxBytes: small + Math.floor(onnx / 2) }))
      onnxFault = 'none'
      expect(error, fault).toMatchObject({ code: 'INVALID_INPUT', details: { reason: 'model_too_large', maxBytes: small + Math.floor(onnx / 2) } })
      expect(error.message).toContain('onnx/model.onnx')
      expect(await installedModels(join(dir, home))).toEqual([])
      expect(await readdir(join(modelsDir, '.partial', 'acme'))).toEqual([])
    }
  })

  it('lists only complete models, never a folder that is not one', async () => {
    const home = join(dir, 'home-5')
    await mkdir(join(home, 'models', 'acme', 'broken'), { recursive: true })
    await writeFile(join(home, 'models', 'acme', 'broken', 'config.json'), '{}')
    expect(await installedModels(home)).toEqual([])
  })
})
