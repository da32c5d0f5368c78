import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { ElicitRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { loadWorkspace } from '../../../src/config/load.js'
import { runtimeEnvFrom } from '../../../src/config/workspace.js'
import { createMcpServer } from '../../../src/hosts/mcp/server.js'
import { Resources } from '../../../src/tools/context.js'
import { defineTool, type AnyTool } from '../../../src/tools/define.js'
import { memoryDelete } from '../../../src/tools/memory/delete.js'
import { tools } from '../../../src/tools/registry.js'
import { createToolHost } from '../../../src/hosts/mcp/tool-host.js'
import { ToolRateLimits } from '../../../src/tools/rate-limits.js'
import { plainStyle } from '../../../src/style.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

/*
 * The MCP server and mk's tool host, in one process over the SDK's in-memory
 * transport, with small tools defined here to reach the paths no registered tool
 * takes yet (an elevated tool, a long-lived resource).
 */

let opened = 0
const counter = defineTool({
  name: 'test_counter',
  title: 'Count resource creations',
  description: 'Returns how many times its long-lived resource was created in this process.',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({}),
  output: z.strictObject({ created: z.number().int() }),
  examples: [{ title: 'first call', input: {}, output: { created: 1 } }],
  async run(_input, ctx) {
    await ctx.resources.get('test-counter', async () => ++opened)
    return { output: { created: opened }, display: `created ${opened} time(s)` }
  },
})

const wipe = defineTool({
  name: 'test_wipe',
  title: 'Wipe a shared layer',
  description: 'An elevated tool: it must be approved by a person before it runs.',
  tier: 'elevated',
  idempotent: false,
  input: z.strictObject({ layer: z.string() }),
  output: z.strictObject({ wiped: z.string() }),
  examples: [{ title: 'wipe team', input: { layer: 'team' }, output: { wiped: 'team' } }],
  async run(input, ctx) {
    ctx.warn('nothing was really wiped')
    return { output: { wiped: input.layer }, display: `wiped ${input.layer}` }
  },
})

const slow = defineTool({
  name: 'test_slow',
  title: 'Report progress',
  description: 'Reports two progress steps before it answers.',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({}),
  output: z.strictObject({ done: z.boolean() }),
  examples: [{ title: 'run', input: {}, output: { done: true } }],
  async run(_input, ctx) {
    ctx.progress?.({ phase: 'embedding', done: 1, total: 2 })
    ctx.progress?.({ phase: 'embedding', done: 2, total: 2, message: 'all embedded' })
    return { output: { done: true }, display: 'done' }
  },
})

let workspace: TempWorkspace
const clients: Client[] = []

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
  await workspace?.cleanup()
})

let cancelled = false
const waiting = defineTool({
  name: 'test_wait',
  title: 'Wait for cancellation',
  description: 'Runs until its signal is aborted.',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({}),
  output: z.strictObject({ cancelled: z.boolean() }),
  examples: [{ title: 'run', input: {}, output: { cancelled: true } }],
  run(_input, ctx) {
    return new Promise((resolve) => {
      ctx.signal.addEventListener('abort', () => {
        cancelled = true
        resolve({ output: { cancelled: true }, display: 'cancelled' })
      })
    })
  },
})

async function connect(
  tools: readonly AnyTool[],
  options: { elicitation?: 'accept' | 'decline'; readOnly?: boolean } = {},
): Promise<{ client: Client; asked: string[]; received: JSONRPCMessage[] }> {
  workspace = await makeWorkspace()
  const host = createToolHost(tools, {
    workspace: await loadWorkspace({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } }),
    env: {},
    cwd: workspace.root,
    runtime: { ...runtimeEnvFrom({}), readOnly: options.readOnly === true },
    style: plainStyle,
    resources: new Resources(),
  })
  const server = await createMcpServer(host, { name: 'mk', version: '0.0.0-test', instructions: 'test' })
  const client = new Client({ name: 'test', version: '1.0.0' }, options.elicitation === undefined ? {} : { capabilities: { elicitation: {} } })
  const asked: string[] = []
  if (options.elicitation !== undefined) {
    const action = options.elicitation
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message)
      return action === 'accept' ? { action, content: { approve: true } } : { action }
    })
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await Promise.all([server.connect(serverSide), client.connect(clientSide)])
  // Every message the server sends, as the client receives it.
  const received: JSONRPCMessage[] = []
  const deliver = clientSide.onmessage
  clientSide.onmessage = (message, extra) => {
    received.push(message)
    deliver?.(message, extra)
  }
  clients.push(client)
  return { client, asked, received }
}

function errorOf(result: Awaited<ReturnType<Client['callTool']>>): { errorCode: string; message: string } {
  const [first] = result.content as { type: string; text: string }[]
  return JSON.parse(first?.text ?? '{}') as { errorCode: string; message: string }
}

describe('the MCP tool host', () => {
  it('lets a call still running when the client leaves finish before it closes the resources', async () => {
    workspace = await makeWorkspace()
    const events: string[] = []
    let release = (): void => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const writer = defineTool({
      ...counter,
      render: undefined,
      name: 'test_writer',
      async run(_input, ctx) {
        await ctx.resources.get(
          'test-store',
          async () => 'store',
          () => {
            events.push('store closed')
          },
        )
        await held
        events.push('write finished')
        return { output: { created: 1 }, display: 'written' }
      },
    })
    const host = createToolHost([writer as unknown as AnyTool], {
      workspace: await loadWorkspace({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } }),
      env: {},
      cwd: workspace.root,
      runtime: runtimeEnvFrom({}),
      style: plainStyle,
      resources: new Resources(),
    })
    const call = host.call('test_writer', {}, {})
    await new Promise((resolve) => setTimeout(resolve, 20))
    const closed = host.close().then(() => events.push('host closed'))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(events).toEqual([])
    release()
    await Promise.all([call, closed])
    expect(events).toEqual(['write finished', 'store closed', 'host closed'])
  })

  it("refuses a call over the tool's rate limit with RATE_LIMITED", async () => {
    workspace = await makeWorkspace()
    const host = createToolHost(
      [counter],
      {
        workspace: await loadWorkspace({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } }),
        env: {},
        cwd: workspace.root,
        runtime: runtimeEnvFrom({}),
        style: plainStyle,
        resources: new Resources(),
      },
      {
        rateLimits: new ToolRateLimits(
          () => 0,
          () => 2,
        ),
      },
    )
    expect((await host.call('test_counter', {}, {})).isError).not.toBe(true)
    expect((await host.call('test_counter', {}, {})).isError).not.toBe(true)
    const refused = await host.call('test_counter', {}, {})
    expect(refused.isError).toBe(true)
    expect(JSON.parse(refused.texts[0] ?? '{}')).toMatchObject({ errorCode: 'RATE_LIMITED', details: { reason: 'tool_rate_limited', tool: 'test_counter' } })
    await host.close()
  })

  it('sends what a call produced as the result _meta.artifacts (seed 001)', async () => {
    const { client } = await connect(tools.filter((tool) => tool.name === 'memory_add'))
    const result = await client.callTool({ name: 'memory_add', arguments: { content: 'Orders live in Postgres', layer: 'user' } })
    const memoryId = (result.structuredContent as { memoryId: string }).memoryId
    expect(result._meta).toEqual({ artifacts: [{ kind: 'memory', action: 'created', id: memoryId }] })
  })

  it('keeps long-lived resources between calls', async () => {
    const { client } = await connect([counter])
    const before = opened
    await client.callTool({ name: 'test_counter', arguments: {} })
    const second = await client.callTool({ name: 'test_counter', arguments: {} })
    expect(second.structuredContent).toEqual({ created: before + 1 })
  })

  it('derives the annotations from the tier', async () => {
    const { client } = await connect([counter, wipe])
    const { tools } = await client.listTools()
    expect(tools.find((tool) => tool.name === 'test_counter')?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true })
    expect(tools.find((tool) => tool.name === 'test_wipe')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false })
  })

  it('marks a tool destructive when it says so, whatever its tier', async () => {
    const { client } = await connect([memoryDelete as unknown as AnyTool])
    const { tools } = await client.listTools()
    expect(tools.find((tool) => tool.name === 'memory_delete')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true })
  })

  it("aborts a running tool's signal when the client cancels the request", async () => {
    const { client } = await connect([waiting as unknown as AnyTool])
    const controller = new AbortController()
    const call = client.callTool({ name: 'test_wait', arguments: {} }, undefined, { signal: controller.signal })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(cancelled).toBe(false)
    controller.abort('the user moved on')
    await expect(call).rejects.toThrow()
    for (let waited = 0; !cancelled && waited < 2000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(cancelled).toBe(true)
  })

  it('sends no response for a cancelled call, as the MCP spec asks, and keeps serving (issue 11.16)', async () => {
    const { client, received } = await connect([waiting as unknown as AnyTool, counter])
    const controller = new AbortController()
    const call = client.callTool({ name: 'test_wait', arguments: {} }, undefined, { signal: controller.signal })
    await new Promise((resolve) => setTimeout(resolve, 50))
    const pending = received.length
    controller.abort('the user moved on')
    await expect(call).rejects.toThrow('the user moved on')
    expect((await client.callTool({ name: 'test_counter', arguments: {} })).isError).toBe(false)
    // The only message after the cancel is the answer to test_counter: nothing came for the cancelled call.
    expect(received.slice(pending).filter((message) => 'result' in message || 'error' in message)).toHaveLength(1)
  })

  it('asks the person through elicitation and runs an approved elevated tool, with its warnings as text', async () => {
    const { client, asked } = await connect([wipe], { elicitation: 'accept' })
    const result = await client.callTool({ name: 'test_wipe', arguments: { layer: 'team' } })
    expect(asked).toEqual(['Allow Wipe a shared layer (test_wipe)?'])
    expect(result.isError).toBe(false)
    expect(result.structuredContent).toEqual({ wiped: 'team' })
    expect(result.content).toEqual([
      { type: 'text', text: 'wiped team' },
      { type: 'text', text: 'warning: nothing was really wiped' },
    ])
  })

  it('refuses an elevated tool the person declined', async () => {
    const { client, asked } = await connect([wipe], { elicitation: 'decline' })
    const result = await client.callTool({ name: 'test_wipe', arguments: { layer: 'team' } })
    expect(asked).toHaveLength(1)
    expect(result.isError).toBe(true)
    expect(errorOf(result)).toMatchObject({ errorCode: 'FORBIDDEN', message: 'test_wipe was not approved' })
  })

  it('refuses an elevated tool with FORBIDDEN when the client cannot ask anyone', async () => {
    const { client } = await connect([wipe])
    const result = await client.callTool({ name: 'test_wipe', arguments: { layer: 'team' } })
    expect(result.isError).toBe(true)
    expect(errorOf(result).errorCode).toBe('FORBIDDEN')
  })

  it('refuses every tool above read_only in read-only mode, before asking anyone', async () => {
    const { client, asked } = await connect([wipe, counter], { elicitation: 'accept', readOnly: true })
    expect(errorOf(await client.callTool({ name: 'test_wipe', arguments: { layer: 'team' } }))).toMatchObject({ errorCode: 'FORBIDDEN' })
    expect(asked).toEqual([])
    expect((await client.callTool({ name: 'test_counter', arguments: {} })).isError).toBe(false)
  })

  it('forwards progress as MCP progress notifications when the client asks for them', async () => {
    const { client } = await connect([slow])
    const seen: unknown[] = []
    await client.callTool({ name: 'test_slow', arguments: {} }, undefined, { onprogress: (progress) => seen.push(progress) })
    expect(seen).toEqual([
      { progress: 1, total: 2, message: 'embedding' },
      { progress: 2, total: 2, message: 'all embedded' },
    ])
  })

  it('answers an unknown tool with NOT_FOUND naming the tools offered', async () => {
    const { client } = await connect([counter])
    const error = errorOf(await client.callTool({ name: 'memory_add', arguments: {} }))
    expect(error).toMatchObject({ errorCode: 'NOT_FOUND', details: { hint: 'tools offered: test_counter' } })
  })
})
