import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOpenAiCompatibleProvider } from '../../../../src/search/embedding/openai-compatible.js'
import { failure } from '../../../helpers/errors.js'

type Behaviour = 'ok' | 'throttle' | 'unavailable' | 'garbage' | 'never' | 'wrong-size' | 'unauthorized'

let server: Server
let baseURL: string
const seen: { path: string; authorization: string | undefined; body: { model: string; input: string[] } }[] = []

/** A local stand-in for an OpenAI-style /embeddings endpoint; the model name picks how it behaves. */
function answer(request: IncomingMessage, response: ServerResponse): void {
  let raw = ''
  request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')))
  request.on('end', () => {
    const body = JSON.parse(raw) as { model: Behaviour; input: string[] }
    seen.push({ path: request.url ?? '', authorization: request.headers.authorization, body })
    const send = (status: number, payload: string, headers: Record<string, string> = {}): void => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers })
      response.end(payload)
    }
    switch (body.model) {
      case 'throttle':
        return send(429, '{"error":"slow down"}', { 'retry-after': '7' })
      case 'unavailable':
        return send(503, '{"error":"down"}')
      case 'unauthorized':
        return send(401, '{"error":"bad key"}')
      case 'garbage':
        return send(200, '<html>not json</html>')
      case 'never':
        return
      case 'wrong-size':
        return send(200, JSON.stringify({ data: body.input.map((_, index) => ({ index, embedding: [1, 0] })) }))
      case 'ok':
        // Out of order on purpose: the provider must sort by index.
        return send(200, JSON.stringify({ data: body.input.map((text, index) => ({ index, embedding: [text.length, 1, 0] })).reverse() }))
    }
  })
}

beforeAll(async () => {
  server = createServer(answer)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const provider = (model: Behaviour, extra: { apiKeyEnv?: string; timeoutMs?: number; dimensions?: number } = {}) =>
  createOpenAiCompatibleProvider({ baseURL, model, dimensions: extra.dimensions ?? 3, apiKeyEnv: extra.apiKeyEnv, timeoutMs: extra.timeoutMs ?? 5000 })

describe('openai-compatible embedding provider', () => {
  it('posts the texts to /embeddings, orders the answer by index and normalises it', async () => {
    process.env.MK_TEST_EMBEDDING_KEY = 'secret-key'
    const vectors = await provider('ok', { apiKeyEnv: 'MK_TEST_EMBEDDING_KEY' }).embed(['ab', '', 'abcd'], 'document')
    expect(vectors.map((vector) => vector[0]?.toFixed(3))).toEqual([
      (2 / Math.sqrt(5)).toFixed(3),
      (1 / Math.sqrt(2)).toFixed(3),
      (4 / Math.sqrt(17)).toFixed(3),
    ])
    const last = seen.at(-1)
    expect(last).toMatchObject({ path: '/v1/embeddings', authorization: 'Bearer secret-key', body: { model: 'ok', input: ['ab', ' ', 'abcd'] } })
    expect(provider('ok').modelId).toBe(`openai-compatible:${baseURL.replace(/\/$/, '')}#ok`)
  })

  it('maps throttling to RATE_LIMITED with the retry-after, and a 503 to a retryable PROVIDER_ERROR', async () => {
    const throttled = await failure(provider('throttle').embed(['x'], 'query'))
    expect(throttled).toMatchObject({ code: 'RATE_LIMITED', retryable: true, details: expect.objectContaining({ retryAfterSeconds: 7 }) })
    expect(await failure(provider('unavailable').embed(['x'], 'query'))).toMatchObject({ code: 'PROVIDER_ERROR', retryable: true })
  })

  it('calls a malformed or wrong-sized answer a PROVIDER_ERROR that is not retried', async () => {
    expect(await failure(provider('garbage').embed(['x'], 'query'))).toMatchObject({ code: 'PROVIDER_ERROR', retryable: false })
    const wrongSize = await failure(provider('wrong-size').embed(['x'], 'query'))
    expect(wrongSize).toMatchObject({ code: 'PROVIDER_ERROR', retryable: false })
    expect(wrongSize.message).toContain('returned 2 dimensions, the config says 3')
  })

  it('gives up on a server that never answers with a retryable TIMEOUT, and on an unreachable one with a retryable PROVIDER_ERROR', async () => {
    expect(await failure(provider('never', { timeoutMs: 300 }).embed(['x'], 'query'))).toMatchObject({ code: 'TIMEOUT', retryable: true })
    const unreachable = createOpenAiCompatibleProvider({ baseURL: 'http://127.0.0.1:9/v1', model: 'ok', dimensions: 3, apiKeyEnv: undefined, timeoutMs: 2000 })
    expect(await failure(unreachable.embed(['x'], 'query'))).toMatchObject({ code: 'PROVIDER_ERROR', retryable: true })
  })

  it('says which variable is missing when the key is not set, and UNAUTHORIZED when the server refuses it', async () => {
    delete process.env.MK_TEST_MISSING_KEY
    const missing = await failure(provider('ok', { apiKeyEnv: 'MK_TEST_MISSING_KEY' }).embed(['x'], 'query'))
    expect(missing).toMatchObject({ code: 'INVALID_INPUT' })
    expect(missing.message).toContain('MK_TEST_MISSING_KEY')
    expect(await failure(provider('unauthorized').embed(['x'], 'query'))).toMatchObject({ code: 'UNAUTHORIZED', retryable: false })
  })
})

describe('openai-compatible settings', () => {
  it('names the settings .mkrc is missing', async () => {
    const { createEmbeddingProvider } = await import('../../../../src/search/embedding/create.js')
    const error = await failure(
      createEmbeddingProvider(
        { provider: 'openai-compatible', model: 'nomic-embed-text', allowDownload: false, timeoutMs: 1000, hubUrl: 'https://huggingface.co' },
        { workspaceRoot: '/x' },
      ),
    )
    expect(error).toMatchObject({ code: 'INVALID_INPUT', details: expect.objectContaining({ field: 'search.embedding.baseURL' }) })
    expect(error.message).toContain('search.embedding.baseURL, search.embedding.dimensions')
  })
})
