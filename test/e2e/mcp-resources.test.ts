import { afterEach, describe, expect, it } from 'vitest'
import { connectMcp, type McpConnection } from '../contract/paths.js'
import { parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/* issue 12: mk mcp offers knowledge and memories as resources, and a task_start prompt; a real SDK client over stdio against the built mk. */

const adr = `---
type: adr
title: Use PostgreSQL for relational data
status: accepted
tags: [database]
---
# Use PostgreSQL for relational data

New services store relational data in PostgreSQL.
`

let workspace: TempWorkspace
let connection: McpConnection | undefined

afterEach(async () => {
  await connection?.close()
  connection = undefined
  await workspace?.cleanup()
})

async function setUp(): Promise<string> {
  workspace = await makeWorkspace({ 'knowledge/adr/adr-0001-use-postgresql.md': adr })
  const added = await runMk(['memory', 'add', 'The staging database refuses writes on Fridays', '--layer', 'project', '--json'], {
    cwd: workspace.root,
    env: { MK_HOME: workspace.mkHome },
  })
  expect(added.exitCode, added.stderr).toBe(0)
  connection = await connectMcp(workspace)
  return parseJson<{ memoryId: string }>(added).memoryId
}

describe('mk mcp resources and prompts', () => {
  it('lists knowledge items and memories as resources, with templates, and reads them by URI', { timeout: 60_000 }, async () => {
    const memoryId = await setUp()
    const client = connection!.client
    expect(client.getServerCapabilities()).toMatchObject({ resources: {}, prompts: {} })

    const { resources } = await client.listResources()
    expect(resources).toEqual([
      expect.objectContaining({ uri: 'mk://knowledge/adr-0001-use-postgresql', name: 'adr-0001-use-postgresql', title: 'Use PostgreSQL for relational data', mimeType: 'text/markdown' }),
      expect.objectContaining({ uri: `mk://memory/${memoryId}`, name: memoryId, title: 'The staging database refuses writes on Fridays' }),
    ])
    const { resourceTemplates } = await client.listResourceTemplates()
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['mk://knowledge/{id}', 'mk://memory/{memoryId}'])

    const item = await client.readResource({ uri: 'mk://knowledge/adr-0001-use-postgresql' })
    expect(item.contents).toHaveLength(1)
    expect(item.contents[0]).toMatchObject({ uri: 'mk://knowledge/adr-0001-use-postgresql', mimeType: 'text/markdown' })
    expect((item.contents[0] as { text: string }).text).toContain('New services store relational data in PostgreSQL.')

    const memory = await client.readResource({ uri: `mk://memory/${memoryId}` })
    expect((memory.contents[0] as { text: string }).text).toContain('The staging database refuses writes on Fridays')
  })

  it('answers a URI that names nothing with the spec\'s resource-not-found error, and keeps serving', { timeout: 60_000 }, async () => {
    await setUp()
    const client = connection!.client
    await expect(client.readResource({ uri: 'mk://knowledge/adr-9999-nothing' })).rejects.toMatchObject({ code: -32002 })
    await expect(client.readResource({ uri: 'https://example.com/x' })).rejects.toMatchObject({ code: -32002 })
    expect((await client.listResources()).resources.length).toBe(2)
  })

  it('offers task_start, which gathers the knowledge and memories relevant to a task', { timeout: 120_000 }, async () => {
    const memoryId = await setUp()
    const client = connection!.client
    const { prompts } = await client.listPrompts()
    expect(prompts).toEqual([expect.objectContaining({ name: 'task_start', arguments: [expect.objectContaining({ name: 'task', required: true })] })])

    const prompt = await client.getPrompt({ name: 'task_start', arguments: { task: 'add a staging database migration for the orders service' } })
    expect(prompt.messages).toHaveLength(1)
    const text = (prompt.messages[0]?.content as { text: string }).text
    expect(text).toContain('Task: add a staging database migration for the orders service')
    expect(text).toContain('adr-0001-use-postgresql: Use PostgreSQL for relational data')
    expect(text).toContain(memoryId)

    await expect(client.getPrompt({ name: 'task_start', arguments: { task: ' ' } })).rejects.toMatchObject({ code: -32602 })
  })
})
