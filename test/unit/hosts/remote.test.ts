import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { callRemoteTool } from '../../../src/hosts/cli/remote-client.js'
import { remoteServerFrom } from '../../../src/hosts/cli/remote-server.js'

interface Seen {
  path: string
  apiKey: string | undefined
  tenant: string | undefined
  body: string
}

const servers: Server[] = []

/** A listener on 127.0.0.1 that records every request and answers as `answer` says. */
async function listen(answer: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = []
  const server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
    request.on('end', () => {
      seen.push({
        path: request.url ?? '',
        apiKey: request.headers['x-api-key'] as string | undefined,
        tenant: request.headers['x-tenant-id'] as string | undefined,
        body,
      })
      answer(request, response)
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

const outcome = JSON.stringify({ output: { ok: true }, display: 'done', exitCode: 0, warnings: [] })

afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve))
})

describe('MK_REMOTE', () => {
  it('never follows a redirect to another origin: the key, the tenant and the call stay with the server it names', async () => {
    const elsewhere = await listen((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(outcome))
    const named = await listen((request, response) => response.writeHead(307, { location: `${elsewhere.url}${request.url ?? ''}` }).end())
    const server = remoteServerFrom({ MK_REMOTE: named.url, MK_API_KEY: 'key-a', MK_TENANT: 'team-a' })
    if (server === undefined) throw new Error('MK_REMOTE was not read')
    const result = await callRemoteTool(server, 'memory_add', { content: 'a secret fact' })
    expect(result).toMatchObject({ ok: false, error: { errorCode: 'PROVIDER_ERROR', message: expect.stringContaining('redirected the call to') } })
    expect(named.seen).toHaveLength(1)
    expect(elsewhere.seen).toEqual([])
    // A 302 or 301 (which fetch would turn into a GET) is refused as well, even to the same origin.
    const moved = await listen((_request, response) => response.writeHead(302, { location: '/v1/tools/memory_add' }).end())
    expect(await callRemoteTool({ url: moved.url, apiKey: 'key-a', tenant: undefined }, 'memory_add', {})).toMatchObject({ ok: false })
    expect(moved.seen).toHaveLength(1)
  })

  it('follows a 307 within the same origin, with the key, the tenant and the body', async () => {
    const named = await listen((request, response) => {
      if (request.url?.startsWith('/v1/') === true) response.writeHead(307, { location: `/mk${request.url}` }).end()
      else response.writeHead(200, { 'content-type': 'application/json' }).end(outcome)
    })
    const result = await callRemoteTool({ url: named.url, apiKey: 'key-a', tenant: 'team-a' }, 'memory_add', { content: 'a fact' })
    expect(result).toMatchObject({ ok: true, display: 'done' })
    expect(named.seen.map((request) => request.path)).toEqual(['/v1/tools/memory_add', '/mk/v1/tools/memory_add'])
    expect(named.seen[1]).toMatchObject({ apiKey: 'key-a', tenant: 'team-a', body: JSON.stringify({ content: 'a fact' }) })
  })

  it("reads the server's artifacts, keeping only well-formed ones, and none from an older server", async () => {
    const artifacts = [{ kind: 'memory', action: 'created', id: 'mem_1' }, { kind: 'rocket', action: 'launched' }, 'junk']
    const named = await listen((_request, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...(JSON.parse(outcome) as object), artifacts })),
    )
    const result = await callRemoteTool({ url: named.url, apiKey: undefined, tenant: undefined }, 'memory_add', { content: 'a fact' })
    expect(result).toMatchObject({ ok: true, artifacts: [{ kind: 'memory', action: 'created', id: 'mem_1' }] })
    const older = await listen((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(outcome))
    expect(await callRemoteTool({ url: older.url, apiKey: undefined, tenant: undefined }, 'memory_add', {})).toMatchObject({ ok: true, artifacts: [] })
  })

  it('refuses plain http to another machine unless MK_REMOTE_ALLOW_HTTP=1', () => {
    expect(() => remoteServerFrom({ MK_REMOTE: 'http://mk.example.com', MK_API_KEY: 'key-a' })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining('plain http') }),
    )
    expect(() => remoteServerFrom({ MK_REMOTE: 'ftp://mk.example.com' })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }))
    expect(remoteServerFrom({ MK_REMOTE: 'http://mk.example.com/', MK_REMOTE_ALLOW_HTTP: '1' })?.url).toBe('http://mk.example.com')
    for (const url of ['https://mk.example.com', 'http://127.0.0.1:7700', 'http://localhost:7700', 'http://[::1]:7700'])
      expect(remoteServerFrom({ MK_REMOTE: url })?.url, url).toBe(url)
  })
})
