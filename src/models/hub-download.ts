import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, rename, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import { isNodeError, MkError } from '../errors.js'

export interface PulledFile {
  path: string
  bytes: number
  sha256: string
  /** True when the hub published a checksum (LFS files) and the download matched it. */
  verified: boolean
  /** Bytes a previous, interrupted pull had already fetched. */
  resumedBytes: number
}

export interface PullRequest {
  id: string
  revision: string
  hubUrl: string
  /** `$MK_HOME/models`: the model lands in `<modelsDir>/<id>`. */
  modelsDir: string
  /** The most bytes the whole model may take; a file that would pass it is refused, or its download stopped. */
  maxBytes: number
  onProgress?: (file: string, done: number, total: number | undefined) => void
  signal?: AbortSignal
}

/** What a sentence-transformer needs for transformers.js; the ONNX file is the first of these the hub has. */
const requiredFiles = ['config.json', 'tokenizer.json']
const optionalFiles = ['tokenizer_config.json', 'special_tokens_map.json']
const onnxFiles = ['onnx/model.onnx', 'onnx/model_quantized.onnx']

const checksumOf = (header: string | null): string | undefined => {
  const value = header?.replace(/^W\//, '').replaceAll('"', '').toLowerCase()
  return value !== undefined && /^[0-9a-f]{64}$/.test(value) ? value : undefined
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size
  } catch (error) {
    if (isNodeError(error) && error.code === 'ENOENT') return 0
    throw error
  }
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256')
  await pipeline(createReadStream(path), hash)
  return hash.digest('hex')
}

function unreachable(url: string, error: unknown): MkError {
  return new MkError('PROVIDER_ERROR', `cannot reach the model hub at ${url}: ${(error as Error).message}`, {
    details: { url, hint: 'check the network, or set search.embedding.hubUrl (or pass --hub-url) to a reachable hub or mirror' },
    retryable: true,
  })
}

function tooLarge(request: PullRequest, file: string): MkError {
  return new MkError('INVALID_INPUT', `${request.id} is larger than the ${request.maxBytes} bytes one model pull may download (stopped at ${file})`, {
    details: {
      id: request.id,
      reason: 'model_too_large',
      maxBytes: request.maxBytes,
      hint: 'pull a smaller model, or raise MK_MODEL_MAX_BYTES where mk runs (the operator, on a server)',
    },
  })
}

/**
 * Fetches one file into `<part>`, resuming with an HTTP range from what an earlier attempt left.
 * The hub answers a resolve URL of a large (LFS) file with a redirect carrying the file's SHA-256
 * in `X-Linked-Etag`; redirects are followed by hand so that header is not lost.
 */
async function fetchFile(
  url: string,
  part: string,
  request: PullRequest,
  file: string,
  budget: number,
): Promise<{ missing: true } | { missing: false; expected: string | undefined; resumed: number }> {
  let resumed = await sizeOf(part)
  let location = url
  let expected: string | undefined
  for (let hop = 0; ; hop++) {
    let response: Response
    try {
      response = await fetch(location, {
        redirect: 'manual',
        headers: resumed > 0 ? { range: `bytes=${resumed}-` } : {},
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      })
    } catch (error) {
      throw unreachable(location, error)
    }
    expected ??= checksumOf(response.headers.get('x-linked-etag'))
    if (response.status >= 300 && response.status < 400 && response.headers.get('location') !== null && hop < 5) {
      location = new URL(response.headers.get('location') ?? '', location).toString()
      await response.body?.cancel()
      continue
    }
    if (response.status === 404) {
      await response.body?.cancel()
      return { missing: true }
    }
    if (response.status === 416 && resumed > 0) {
      // The part is already whole: nothing was left to send.
      await response.body?.cancel()
      return { missing: false, expected: expected ?? checksumOf(response.headers.get('etag')), resumed }
    }
    if (!response.ok || response.body === null) {
      await response.body?.cancel()
      throw new MkError('PROVIDER_ERROR', `the model hub answered ${response.status} for ${location}`, {
        details: { url: location, status: response.status },
        retryable: response.status >= 500 || response.status === 429,
      })
    }
    expected ??= checksumOf(response.headers.get('etag'))
    // A server that ignores the range sends the whole file again.
    if (response.status === 200) resumed = 0
    const length = Number(response.headers.get('content-length'))
    const total = Number.isFinite(length) && length > 0 ? resumed + length : undefined
    if (total !== undefined && total > budget) {
      await response.body.cancel()
      throw tooLarge(request, file)
    }
    let done = resumed
    const body = Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>)
    const counted = async function* (source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
      for await (const chunk of source) {
        done += chunk.length
        // A hub that sends no length, or more than it announced, is stopped at the cap all the same.
        if (done > budget) throw tooLarge(request, file)
        request.onProgress?.(file, done, total)
        yield chunk
      }
    }
    await mkdir(dirname(part), { recursive: true })
    try {
      await pipeline(body, counted, createWriteStream(part, { flags: resumed > 0 ? 'a' : 'w' }))
    } catch (error) {
      if (error instanceof MkError || (error instanceof Error && error.name === 'AbortError')) throw error
      throw new MkError('PROVIDER_ERROR', `the download of ${file} from ${location} broke off after ${done} bytes: ${(error as Error).message}`, {
        details: { url: location, hint: 'run mk model pull again: it resumes where it stopped' },
        retryable: true,
      })
    }
    return { missing: false, expected, resumed }
  }
}

/**
 * Downloads a sentence-transformer laid out like the Hugging Face hub (`{hub}/{id}/resolve/{revision}/{file}`)
 * into `<modelsDir>/.partial/<id>`, resuming interrupted files and checking each published SHA-256,
 * then moves it whole to `<modelsDir>/<id>`: a failed pull never leaves a half model where mk looks.
 */
export async function pullModel(request: PullRequest): Promise<{ folder: string; files: PulledFile[] }> {
  const base = `${request.hubUrl.replace(/\/+$/, '')}/${request.id}/resolve/${encodeURIComponent(request.revision)}/`
  const staging = join(request.modelsDir, '.partial', request.id)
  const files: PulledFile[] = []

  async function pull(file: string): Promise<boolean> {
    const part = join(staging, `${file}.part`)
    const kept = files.reduce((sum, pulled) => sum + pulled.bytes, 0)
    let fetched: Awaited<ReturnType<typeof fetchFile>>
    try {
      fetched = await fetchFile(base + file, part, request, file, request.maxBytes - kept)
    } catch (error) {
      // Nothing of a model over the cap is kept: its files would only fill the disk.
      if (error instanceof MkError && error.details?.reason === 'model_too_large') await rm(staging, { recursive: true, force: true })
      throw error
    }
    if (fetched.missing) return false
    const sha256 = await sha256Of(part)
    if (fetched.expected !== undefined && fetched.expected !== sha256) {
      await rm(part, { force: true })
      throw new MkError(
        'PROVIDER_ERROR',
        `${file} of ${request.id} does not match the checksum the hub published (got ${sha256.slice(0, 12)}…, expected ${fetched.expected.slice(0, 12)}…)`,
        {
          details: { file, expected: fetched.expected, actual: sha256, hint: 'the partial file was removed; run mk model pull again' },
          retryable: true,
        },
      )
    }
    const bytes = await sizeOf(part)
    await rename(part, join(staging, file))
    files.push({ path: file, bytes, sha256, verified: fetched.expected !== undefined, resumedBytes: fetched.resumed })
    return true
  }

  for (const file of requiredFiles) {
    if (!(await pull(file))) {
      throw new MkError('NOT_FOUND', `the model hub has no ${file} for ${request.id} at revision ${request.revision} (${base}${file})`, {
        details: {
          id: request.id,
          hint: 'check the model id (owner/name) and that it is a sentence-transformer exported for transformers.js, such as Xenova/all-MiniLM-L6-v2',
        },
      })
    }
  }
  for (const file of optionalFiles) await pull(file)
  let onnx = false
  for (const file of onnxFiles) if (!onnx) onnx = await pull(file)
  if (!onnx) {
    throw new MkError('NOT_FOUND', `${request.id} has no ONNX weights (${onnxFiles.join(' or ')}) on the hub`, {
      details: { id: request.id, hint: 'use a model exported for transformers.js (the Xenova/* copies on the Hugging Face hub have them)' },
    })
  }
  const folder = join(request.modelsDir, request.id)
  await rm(folder, { recursive: true, force: true })
  await mkdir(dirname(folder), { recursive: true })
  await rename(staging, folder)
  return { folder, files }
}
