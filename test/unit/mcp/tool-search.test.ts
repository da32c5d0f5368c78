import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { runtimeEnvFrom } from '../../../src/config/workspace.js'
import { createMcpServer } from '../../../src/hosts/mcp/server.js'
import { createToolHost } from '../../../src/hosts/mcp/tool-host.js'
import { plainStyle } from '../../../src/style.js'
import { listsOutputSchemas, toolsForProfile, type McpProfile } from '../../../src/tools/catalog/profiles.js'
import { registeredTools } from '../../../src/tools/catalog/registered.js'
import { Resources } from '../../../src/tools/context.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

/* Issue 28: the core profile starts with a few tools; tools_search finds the others and loads them into the session. */

let workspace: TempWorkspace | undefined
const clients: Client[] = []
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
  await workspace?.cleanup()
  workspace = undefined
})

/** A server of one profile as `mk mcp` builds it, and an SDK client that counts tools/list_changed notifications. */
async function connect(profile: McpProfile): Promise<{ client: Client; listChanged: () => number }> {
  workspace = await makeWorkspace({ 'knowledge/adr/adr-0001.md': '---\ntitle: Use PostgreSQL\nstatus: accepted\n---\n# Use PostgreSQL\n' })
  const registered = await registeredTools()
  const tools = toolsForProfile(registered, profile)
  const host = createToolHost(
    tools,
    {
      workspace: await loadWorkspace({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } }),
      env: { MK_HOME: workspace.mkHome },
      cwd: workspace.root,
      runtime: runtimeEnvFrom({}),
      style: plainStyle,
      resources: new Resources(),
    },
    { outputSchemas: listsOutputSchemas(profile), loadable: profile === 'core' ? registered : tools },
  )
  const server = await createMcpServer(host, { name: 'mk', version: '0.0.0-test', instructions: 'test' })
  const client = new Client({ name: 'test', version: '1.0.0' })
  let changes = 0
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes += 1
  })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await Promise.all([server.connect(serverSide), client.connect(clientSide)])
  clients.push(client)
  return { client, listChanged: () => changes }
}

const names = async (client: Client): Promise<string[]> => (await client.listTools()).tools.map((tool) => tool.name)

function errorOf(result: Awaited<ReturnType<Client['callTool']>>): { errorCode: string; message: string; details?: { hint?: string } } {
  const [first] = result.content as { text: string }[]
  return JSON.parse(first?.text ?? '{}') as { errorCode: string; message: string; details?: { hint?: string } }
}

describe('tools_search in an MCP session', () => {
  it('finds a tool the core profile does not offer, loads it, tells the client, which then lists and calls it', async () => {
    const { client, listChanged } = await connect('core')
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true)
    expect(await names(client)).not.toContain('sync_status')
    const notYet = await client.callTool({ name: 'sync_status', arguments: {} })
    expect(errorOf(notYet)).toMatchObject({ errorCode: 'NOT_FOUND', details: { hint: expect.stringContaining('tools_search finds and loads the others') } })

    const found = await client.callTool({ name: 'tools_search', arguments: { query: 'status of the last sync' } })
    expect(found.isError).toBe(false)
    const output = found.structuredContent as { tools: { name: string; offered: boolean }[]; loaded: string[] }
    expect(output.tools[0]).toMatchObject({ name: 'sync_status', offered: false })
    expect(output.loaded).toEqual([])
    expect(listChanged()).toBe(0)

    const loaded = await client.callTool({ name: 'tools_search', arguments: { load: ['sync_status'] } })
    expect(loaded.structuredContent).toEqual({ tools: [], loaded: ['sync_status'] })
    await expect.poll(listChanged).toBe(1)
    expect(await names(client)).toContain('sync_status')
    const called = await client.callTool({ name: 'sync_status', arguments: {} })
    expect(called.isError).toBe(false)

    // Loading it again changes nothing and tells nobody.
    const again = await client.callTool({ name: 'tools_search', arguments: { query: 'sync status', load: ['sync_status'] } })
    const againOutput = again.structuredContent as typeof output
    expect(againOutput.loaded).toEqual([])
    expect(againOutput.tools[0]).toMatchObject({ name: 'sync_status', offered: true })
    expect(listChanged()).toBe(1)
  })

  it('refuses a name no tool has, and a call with neither words nor names', async () => {
    const { client } = await connect('core')
    const unknown = await client.callTool({ name: 'tools_search', arguments: { load: ['no_such_tool'] } })
    expect(unknown.isError).toBe(true)
    expect(errorOf(unknown)).toMatchObject({ errorCode: 'NOT_FOUND' })
    expect(errorOf(unknown).message).toContain('no_such_tool')
    const empty = await client.callTool({ name: 'tools_search', arguments: {} })
    expect(errorOf(empty)).toMatchObject({ errorCode: 'INVALID_INPUT' })
  })

  it('loads nothing a profile does not allow: a worker cannot load a tool that changes state', async () => {
    const { client, listChanged } = await connect('worker')
    const refused = await client.callTool({ name: 'tools_search', arguments: { load: ['memory_add'] } })
    expect(errorOf(refused)).toMatchObject({ errorCode: 'FORBIDDEN' })
    expect(await names(client)).not.toContain('memory_add')
    expect(listChanged()).toBe(0)
  })
})
