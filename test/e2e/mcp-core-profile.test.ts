import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { coreToolNames } from '../../src/tools/catalog/profiles.js'
import { loadTokenCounter } from '../../src/token-count.js'
import { mkBin } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/* Issue 28: `mk mcp` with no flags offers the core tools an agent can afford (run npm run build first). */

let workspace: TempWorkspace
beforeAll(async () => {
  workspace = await makeWorkspace({
    'knowledge/adr/adr-0001.md': '---\ntitle: Use PostgreSQL\nstatus: accepted\n---\n# Use PostgreSQL\n\nServices MUST use PostgreSQL.\n',
  })
})
afterAll(async () => workspace.cleanup())

describe('mk mcp default profile', () => {
  it('lists only the core tools, within 5,000 tokens, and they answer with structured content', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [mkBin, 'mcp'],
      cwd: workspace.root,
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', MK_HOME: workspace.mkHome },
      stderr: 'pipe',
    })
    const client = new Client({ name: 'mk-core-profile-test', version: '1.0.0' })
    await client.connect(transport)
    try {
      const listed = await client.listTools()
      expect(listed.tools.map((tool) => tool.name).sort()).toEqual([...coreToolNames].sort())
      const countTokens = await loadTokenCounter()
      expect(countTokens(JSON.stringify(listed))).toBeLessThanOrEqual(5_000)
      const result = await client.callTool({ name: 'knowledge_list', arguments: {} })
      expect(result.isError).toBe(false)
      expect(result.structuredContent).toMatchObject({ items: [expect.objectContaining({ title: 'Use PostgreSQL' })] })
      // The resources read memories and knowledge through tools the profile does not list.
      expect((await client.listResources()).resources.map((resource) => resource.uri)).toContain('mk://knowledge/adr-0001')
    } finally {
      await client.close()
    }
  })

  it('finds a tool it does not list with tools_search, loads it, and the client re-lists and calls it', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [mkBin, 'mcp'],
      cwd: workspace.root,
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', MK_HOME: workspace.mkHome },
      stderr: 'pipe',
    })
    const client = new Client({ name: 'mk-core-profile-test', version: '1.0.0' })
    let listChanged = 0
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanged += 1
    })
    await client.connect(transport)
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('knowledge_lint')
      const found = await client.callTool({ name: 'tools_search', arguments: { query: 'lint the knowledge files', limit: 3 } })
      expect((found.structuredContent as { tools: { name: string }[] }).tools[0]?.name).toBe('knowledge_lint')
      const loaded = await client.callTool({ name: 'tools_search', arguments: { load: ['knowledge_lint'] } })
      expect(loaded.structuredContent).toMatchObject({ loaded: ['knowledge_lint'] })
      await expect.poll(() => listChanged).toBe(1)
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('knowledge_lint')
      const linted = await client.callTool({ name: 'knowledge_lint', arguments: {} })
      expect(linted.isError).toBe(false)
    } finally {
      await client.close()
    }
  })
})
