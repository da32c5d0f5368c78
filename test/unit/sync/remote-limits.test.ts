import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import type { Workspace } from '../../../src/config/workspace.js'
import { MkError } from '../../../src/errors.js'
import { mirrorGitSource, type GitSourceConfig } from '../../../src/sync/mirror-source.js'
import { syncKnowledge } from '../../../src/sync/sync.js'
import { startGitServer, type GitServer } from '../../helpers/git-server.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

/* issue 11.16: a remote that limits requests is RATE_LIMITED with its Retry-After; one that stays silent is TIMEOUT. */

type Answer = (method: string, url: string, respond: (status: number, headers?: Record<string, string>) => void, forward: () => void) => void

let gitServer: GitServer
let remoteUrl: string
let front: Server | undefined
let temp: TempWorkspace | undefined

beforeAll(async () => {
  gitServer = await startGitServer()
  remoteUrl = (await gitServer.createRepo('limited', { 'adr/a.md': '---\ntitle: A\n---\n# A\n' })).url
})
afterAll(() => gitServer.close())
afterEach(async () => {
  front?.closeAllConnections()
  await new Promise((resolve) => front?.close(resolve))
  front = undefined
  await temp?.cleanup()
})

/** A server on 127.0.0.1 in front of the real git server: each request is answered by `answer` or passed through. */
async function frontServer(answer: Answer): Promise<string> {
  const target = new URL(remoteUrl)
  front = createServer((request, response) => {
    const forward = (): void => {
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, path: request.url, method: request.method, headers: request.headers },
        (reply) => {
          response.writeHead(reply.statusCode ?? 502, reply.headers)
          reply.pipe(response)
        },
      )
      request.pipe(upstream)
    }
    const respond = (status: number, headers: Record<string, string> = {}): void => {
      request.resume()
      response.writeHead(status, headers).end()
    }
    answer(request.method ?? 'GET', request.url ?? '/', respond, forward)
  })
  await new Promise<void>((resolve) => front?.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(front.address() as AddressInfo).port}${target.pathname}`
}

async function workspaceFor(url: string): Promise<{ workspace: Workspace; source: GitSourceConfig }> {
  temp = await makeWorkspace({ '.mkrc': `knowledge:\n  sources:\n    - {name: company, layer: company, url: "${url}"}\n` })
  const workspace = await loadWorkspace({ cwd: temp.root, env: { MK_HOME: temp.mkHome } })
  return { workspace, source: workspace.config.knowledge.sources[0] as GitSourceConfig }
}

async function mirrorError(url: string, timeoutMs = 10_000): Promise<MkError> {
  const { workspace, source } = await workspaceFor(url)
  const thrown = await mirrorGitSource(workspace, source, { force: false, env: {}, timeoutMs, warn: () => undefined }).then(
    () => undefined,
    (error: unknown) => error,
  )
  expect(thrown).toBeInstanceOf(MkError)
  return thrown as MkError
}

describe('a remote that refuses or stalls', () => {
  test('HTTP 429 on the first request is RATE_LIMITED, retryable, with the seconds of Retry-After', async () => {
    const url = await frontServer((_method, _url, respond) => respond(429, { 'Retry-After': '120' }))
    const error = await mirrorError(url)
    expect(error).toMatchObject({ code: 'RATE_LIMITED', retryable: true, details: { source: 'company', status: 429, retryAfterSeconds: 120 } })
    expect(error.message).toContain('HTTP 429')
  })

  test('HTTP 429 while cloning (after the refs were read) is RATE_LIMITED with Retry-After as a date turned into seconds', async () => {
    const at = new Date(Date.now() + 90_000).toUTCString()
    const url = await frontServer((method, _url, respond, forward) => (method === 'POST' ? respond(429, { 'Retry-After': at }) : forward()))
    const error = await mirrorError(url)
    expect(error).toMatchObject({ code: 'RATE_LIMITED', retryable: true, details: { status: 429 } })
    const seconds = error.details?.retryAfterSeconds as number
    expect(seconds).toBeGreaterThan(0)
    expect(seconds).toBeLessThanOrEqual(90)
  })

  test('a remote that accepts the connection and never answers is TIMEOUT', async () => {
    const url = await frontServer(() => undefined)
    const error = await mirrorError(url, 300)
    expect(error).toMatchObject({ code: 'TIMEOUT', retryable: true, details: { source: 'company' } })
  })

  test('a remote that stalls while cloning is TIMEOUT', async () => {
    const url = await frontServer((method, _url, _respond, forward) => (method === 'POST' ? undefined : forward()))
    const error = await mirrorError(url, 1_000)
    expect(error).toMatchObject({ code: 'TIMEOUT', retryable: true })
  })

  test('mk sync reports the source RATE_LIMITED and keeps going', async () => {
    const url = await frontServer((_method, _url, respond) => respond(429, { 'Retry-After': '30' }))
    const { workspace } = await workspaceFor(url)
    const report = await syncKnowledge(workspace, { force: false, types: undefined, layers: undefined, env: {}, timeoutMs: 10_000, warn: () => undefined })
    expect(report.failures).toEqual([
      expect.objectContaining({ source: 'company', errorCode: 'RATE_LIMITED', retryable: true, hint: 'run mk sync again in 30 s' }),
    ])
  })
})
