import { MkError } from '../../errors.js'
import type { EmbeddingProvider } from './provider.js'
import { batches, normalizeL2 } from './vectors.js'

export interface OpenAiCompatibleSettings {
  /** The API root, e.g. `http://127.0.0.1:11434/v1` (Ollama) or `https://api.openai.com/v1`. */
  baseURL: string
  model: string
  dimensions: number
  /** The environment variable holding the API key; none for local servers. */
  apiKeyEnv: string | undefined
  timeoutMs: number
}

const batchSize = 64

interface EmbeddingsResponse {
  data: { embedding: number[]; index?: number }[]
}

function isEmbeddingsResponse(value: unknown): value is EmbeddingsResponse {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { data?: unknown }).data)) return false
  return (value as EmbeddingsResponse).data.every(
    (item) => typeof item === 'object' && item !== null && Array.isArray(item.embedding) && item.embedding.every((x) => typeof x === 'number'),
  )
}

/** Seconds from a Retry-After header: a number of seconds or an HTTP date. */
function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null) return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds))
  const date = Date.parse(header)
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000))
}

/**
 * Any `/embeddings` endpoint that speaks OpenAI's format: a local Ollama, LM Studio or vLLM, or a
 * hosted API. Upstream failures become mk's errors: 429 is RATE_LIMITED with the server's
 * Retry-After, a timeout TIMEOUT, an unreachable server or a 5xx a retryable PROVIDER_ERROR, a
 * refused key UNAUTHORIZED, and an answer that is not embeddings of the configured size a
 * PROVIDER_ERROR that is not retried.
 */
export function createOpenAiCompatibleProvider(settings: OpenAiCompatibleSettings): EmbeddingProvider {
  const url = `${settings.baseURL.replace(/\/+$/, '')}/embeddings`
  const where = { provider: 'openai-compatible', url, model: settings.model }

  function headers(): Record<string, string> {
    if (settings.apiKeyEnv === undefined) return { 'content-type': 'application/json' }
    const key = process.env[settings.apiKeyEnv]
    if (key === undefined || key === '') {
      throw new MkError('INVALID_INPUT', `the embedding API key is not set: ${settings.apiKeyEnv} is empty`, {
        details: { ...where, field: 'search.embedding.apiKeyEnv', hint: `export ${settings.apiKeyEnv}=<your key>, or remove apiKeyEnv for a local server` },
      })
    }
    return { 'content-type': 'application/json', authorization: `Bearer ${key}` }
  }

  async function request(texts: readonly string[]): Promise<Float32Array[]> {
    let response: Response
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: headers(),
        // An empty string is refused by some servers; a space embeds as nothing in particular.
        body: JSON.stringify({ model: settings.model, input: texts.map((text) => (text === '' ? ' ' : text)) }),
        signal: AbortSignal.timeout(settings.timeoutMs),
      })
    } catch (error) {
      if (error instanceof MkError) throw error
      if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
        throw new MkError('TIMEOUT', `the embedding server did not answer within ${settings.timeoutMs} ms (${url})`, { details: where })
      }
      throw new MkError('PROVIDER_ERROR', `cannot reach the embedding server ${url}: ${(error as Error).message}`, {
        details: { ...where, hint: 'is the server running? check search.embedding.baseURL in .mkrc' },
        retryable: true,
      })
    }
    if (response.status === 429) {
      const seconds = retryAfterSeconds(response.headers.get('retry-after'))
      throw new MkError('RATE_LIMITED', `the embedding server is throttling requests (429 from ${url})`, {
        details: { ...where, ...(seconds === undefined ? {} : { retryAfterSeconds: seconds }) },
      })
    }
    if (response.status === 401 || response.status === 403) {
      throw new MkError('UNAUTHORIZED', `the embedding server refused the API key (${response.status} from ${url})`, {
        details: { ...where, hint: settings.apiKeyEnv === undefined ? 'set search.embedding.apiKeyEnv' : `check ${settings.apiKeyEnv}` },
      })
    }
    if (!response.ok) {
      throw new MkError('PROVIDER_ERROR', `the embedding server answered ${response.status} (${url})`, {
        details: { ...where, status: response.status },
        retryable: response.status >= 500,
      })
    }
    let body: unknown
    try {
      body = await response.json()
    } catch {
      body = undefined
    }
    if (!isEmbeddingsResponse(body) || body.data.length !== texts.length) {
      throw new MkError('PROVIDER_ERROR', `the embedding server's answer is not ${texts.length} embeddings (${url})`, { details: where, retryable: false })
    }
    const ordered = [...body.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
    return ordered.map((item) => {
      if (item.embedding.length !== settings.dimensions) {
        throw new MkError('PROVIDER_ERROR', `the embedding server returned ${item.embedding.length} dimensions, the config says ${settings.dimensions}`, {
          details: { ...where, field: 'search.embedding.dimensions', hint: `set search.embedding.dimensions to ${item.embedding.length}` },
          retryable: false,
        })
      }
      return normalizeL2(Float32Array.from(item.embedding))
    })
  }

  return {
    modelId: `openai-compatible:${settings.baseURL.replace(/\/+$/, '')}#${settings.model}`,
    dimensions: settings.dimensions,
    async embed(texts) {
      const vectors: Float32Array[] = []
      for (const batch of batches(texts, batchSize)) vectors.push(...(await request(batch)))
      return vectors
    },
  }
}
