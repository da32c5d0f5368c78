import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startServe, type RunningServe } from '../helpers/serve.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/*
 * The tool contracts through the built `mk serve` with API keys: a tool's manifest rate limit
 * holds a credential's caller across scopes (429 tool_rate_limited), a path out of a tool's
 * allowed_paths is refused naming the field, and the outcome envelope carries the artifacts.
 */

let workspace: TempWorkspace | undefined
let server: RunningServe | undefined
afterEach(async () => {
  await server?.stop()
  await workspace?.cleanup()
  server = undefined
  workspace = undefined
})

const keys = {
  'key-admin': { tenant_id: 'acme', agent_id: 'ops', role: 'admin' },
  'key-writer': { tenant_id: 'acme', agent_id: 'planner-1' },
}

async function start(): Promise<RunningServe> {
  workspace = await makeWorkspace()
  server = await startServe({
    cwd: workspace.root,
    args: ['--data', join(workspace.root, 'data')],
    env: { MK_HOME: workspace.mkHome, MK_AUTH_MODE: 'api_key', MK_API_KEYS_JSON: JSON.stringify(keys) },
  })
  return server
}

describe('the tool contracts over mk serve', () => {
  it("holds an admin to a system tool's 30 calls a minute in every scope, then 429 tool_rate_limited with retry-after", async () => {
    const served = await start()
    // sync_now is system tier: 30 calls a minute.
    const system: number[] = []
    for (let call = 0; call < 30; call++) {
      const answer = await served.post('/v1/tools/sync_now', { scope: call % 2 === 0 ? 'default' : `trial-${call}` }, { 'x-api-key': 'key-admin' })
      system.push(answer.status)
    }
    expect(system.filter((status) => status === 429)).toEqual([])
    const refused = await served.post('/v1/tools/sync_now', { scope: 'yet-another' }, { 'x-api-key': 'key-admin' })
    expect(refused.status).toBe(429)
    expect(refused.body).toMatchObject({ errorCode: 'RATE_LIMITED', details: { reason: 'tool_rate_limited', tool: 'sync_now', requests_per_minute: 30 } })
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    // Another caller of the same tenant is not stalled.
    const writer = await served.post('/v1/tools/memory_list', {}, { 'x-api-key': 'key-writer' })
    expect(writer.status).toBe(200)
  }, 120_000)

  it('refuses a path out of allowed_paths naming the field, and answers artifacts in the outcome envelope', async () => {
    const served = await start()
    const escaped = await served.post('/v1/tools/rules_export_write', { format: 'agents-md', out: '../../elsewhere' }, { 'x-api-key': 'key-writer' })
    expect(escaped.status).toBe(400)
    expect(escaped.body).toMatchObject({ errorCode: 'INVALID_INPUT', message: expect.stringContaining('rules_export_write input out (allowed_paths)') })
    const response = await fetch(`${served.url}/v1/tools/memory_add`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'key-writer', accept: 'application/vnd.mk.outcome+json' },
      body: JSON.stringify({ content: 'Orders live in Postgres', layer: 'project', lane: 'shared' }),
    })
    const envelope = (await response.json()) as { output: { memoryId: string }; artifacts: unknown }
    expect(response.status, JSON.stringify(envelope)).toBe(200)
    expect(envelope.artifacts).toEqual([{ kind: 'memory', action: 'created', id: envelope.output.memoryId }])
  }, 120_000)
})
