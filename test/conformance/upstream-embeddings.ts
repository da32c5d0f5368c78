import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { wordEmbedder } from '../helpers/word-embedder.js'

/** How the stand-in embedding API answers its next requests. */
export type UpstreamMode = 'ok' | 'throttled' | 'unavailable' | 'malformed'

export interface UpstreamEmbeddings {
  /** The API root to put in `.mkrc` (search.embedding.baseURL). */
  baseURL: string
  dimensions: number
  mode: UpstreamMode
  /** The vector the server's model gives a query, for `query_embedding`. */
  embedQuery(text: string): Promise<number[]>
  close(): Promise<void>
}

/**
 * An OpenAI-compatible `/embeddings` endpoint on 127.0.0.1 with the deterministic word embedder:
 * the remote provider of the spec's `recall_text`, switchable to fail as a real one does.
 */
export async function startUpstreamEmbeddings(dimensions = 64): Promise<UpstreamEmbeddings> {
  const embedder = wordEmbedder({ dimensions })
  const state: { mode: UpstreamMode } = { mode: 'ok' }
  const server: Server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
    request.on('end', () => {
      if (state.mode === 'throttled') {
        response.writeHead(429, { 'retry-after': '7', 'content-type': 'application/json' }).end('{"error":"slow down"}')
        return
      }
      if (state.mode === 'unavailable') {
        response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"down"}')
        return
      }
      if (state.mode === 'malformed') {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[{"embedding":"not a vector"}]}')
        return
      }
      const { input } = JSON.parse(body) as { input: string[] }
      void embedder.embed(input, 'document').then((vectors) => {
        const data = vectors.map((vector, index) => ({ index, embedding: [...vector] }))
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }))
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    dimensions,
    get mode() {
      return state.mode
    },
    set mode(mode: UpstreamMode) {
      state.mode = mode
    },
    async embedQuery(text) {
      const [vector] = await embedder.embed([text], 'query')
      return [...(vector ?? [])]
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
