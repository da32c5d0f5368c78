import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoryWorkspace } from '../../../scripts/bench/mcp-search.js'
import { runtimeEnvFrom } from '../../../src/config/workspace.js'
import { defaultScope, defaultTenant } from '../../../src/hosts/http/tenants.js'
import { threadRunner, type CallRunner } from '../../../src/hosts/http/tool-threads.js'
import type { ToolCall } from '../../../src/hosts/http/tool-call.js'

// `mk serve`'s warm-up brings the index up to date through a search: at 10,000 new memories that
// embeds for minutes, past any call's deadline, and the server answered /readyz 504 for good.
// The warm-up's call is the server's own and runs without one; every other call keeps its deadline.

let root: string
let runner: CallRunner | undefined
const search = (unbounded: boolean): ToolCall => ({
  tool: 'memory_search',
  tenantId: defaultTenant,
  scope: defaultScope,
  input: { query: 'which database is read-only', limit: 1 },
  runtime: runtimeEnvFrom({}),
  ...(unbounded ? { unbounded: true } : {}),
})

beforeAll(async () => {
  // Opening the index, loading the model and embedding 40 memories takes far longer than the 50 ms deadline below.
  root = await memoryWorkspace(40, 'bundled')
  const env = { MK_HOME: join(root, '.mk-home') }
  // The compiled thread (npm run build): the same file `mk serve` starts.
  runner = threadRunner(1, { layout: { cwd: root, env }, env }, { timeoutMsOf: () => 50, graceMs: 0 })
}, 60_000)

afterAll(async () => {
  await runner?.close()
  await rm(root, { recursive: true, force: true })
})

describe("the server's own unbounded call", () => {
  it("runs past the deadline that stops a caller's call", async () => {
    expect(runner).toBeDefined()
    if (runner === undefined) return
    expect(await runner.run(search(false), 0)).toMatchObject({ ok: false, error: { errorCode: 'TIMEOUT' } })
    const warmUp = await runner.run(search(true), 0)
    expect(warmUp, JSON.stringify(warmUp)).toMatchObject({ ok: true })
  }, 120_000)
})
