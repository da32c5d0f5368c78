import { readFile, readdir } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startServe, type RunningServe } from '../helpers/serve.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'
import { writeTinyBert } from '../unit/search/embedding/tiny-bert.js'

/* model_pull through mk serve fetches only from the hubs the operator lists, and no more than the cap. */

let workspace: TempWorkspace | undefined
let server: RunningServe | undefined
let hub: Server | undefined

afterEach(async () => {
  await server?.stop()
  server = undefined
  await workspace?.cleanup()
  workspace = undefined
  hub?.closeAllConnections()
  if (hub !== undefined) await new Promise((resolve) => hub?.close(resolve))
  hub = undefined
})

describe('model_pull in mk serve', () => {
  it('downloads only from the hubs MK_MODEL_HUB_URLS lists, never from a hub the request names, and stops at the size cap', async () => {
    const requests: string[] = []
    workspace = await makeWorkspace()
    const model = join(workspace.root, 'hub', 'tiny-bert')
    await writeTinyBert(model)
    // acme/tiny-bert is a real (tiny) model; acme/huge has files far over the cap.
    hub = createServer((request, response) => {
      requests.push(request.url ?? '')
      const tiny = /^\/acme\/tiny-bert\/resolve\/main\/(.+)$/.exec(request.url ?? '')?.[1]
      if (tiny !== undefined) {
        readFile(join(model, tiny)).then(
          (body) => response.writeHead(200, { 'content-length': String(body.length) }).end(body),
          () => response.writeHead(404).end(),
        )
        return
      }
      const body = request.url?.endsWith('/config.json') === true ? '{"hidden_size": 4}' : 'x'.repeat(4_000_000)
      response.writeHead(200, { 'content-length': String(body.length) }).end(body)
    })
    await new Promise<void>((resolve) => hub?.listen(0, '127.0.0.1', resolve))
    const hubUrl = `http://127.0.0.1:${(hub.address() as AddressInfo).port}`

    server = await startServe({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    const named = await server.post('/v1/tools/model_pull', { id: 'acme/tiny-bert', hubUrl })
    expect(named.status).toBe(403)
    expect(named.body).toMatchObject({ errorCode: 'FORBIDDEN', details: { reason: 'hub_not_allowed' } })
    expect(requests).toEqual([])
    await server.stop()

    server = await startServe({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome, MK_MODEL_HUB_URLS: hubUrl, MK_MODEL_MAX_BYTES: '1000000' } })
    const elsewhere = await server.post('/v1/tools/model_pull', { id: 'acme/tiny-bert', hubUrl: 'http://127.0.0.2:9' })
    expect(elsewhere.status).toBe(403)
    expect(requests).toEqual([])
    const capped = await server.post('/v1/tools/model_pull', { id: 'acme/huge' })
    expect(capped.status).toBe(400)
    expect(capped.body).toMatchObject({ errorCode: 'INVALID_INPUT', details: { reason: 'model_too_large', maxBytes: 1_000_000 } })
    expect(requests).toEqual(['/acme/huge/resolve/main/config.json', '/acme/huge/resolve/main/tokenizer.json'])
    expect(await readdir(join(workspace.mkHome, 'models', '.partial', 'acme'))).toEqual([])

    // A model within the cap from the listed hub is pulled; the tenant is told where it is in its own terms.
    const pulled = await server.post('/v1/tools/model_pull', { id: 'acme/tiny-bert' })
    expect(pulled.status).toBe(200)
    expect(pulled.body).toMatchObject({ id: 'acme/tiny-bert', folder: '$MK_HOME/models/acme/tiny-bert', dimensions: 4 })
    const listed = await server.post('/v1/tools/model_list', {})
    expect(listed.body).toMatchObject({ installed: [{ id: 'acme/tiny-bert', folder: '$MK_HOME/models/acme/tiny-bert' }] })
    expect(JSON.stringify(listed.body)).not.toContain(workspace.mkHome)
  }, 60_000)
})
