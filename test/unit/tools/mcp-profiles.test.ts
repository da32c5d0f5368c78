import { describe, expect, it } from 'vitest'
import { toMcpToolSpec } from '../../../src/hosts/mcp/tool-host.js'
import { coreToolNames, listsOutputSchemas, toolsForProfile, type McpProfile } from '../../../src/tools/catalog/profiles.js'
import { registeredTools } from '../../../src/tools/catalog/registered.js'
import { loadTokenCounter } from '../../../src/token-count.js'

/** Tokens (o200k, the project's counter) of the tools/list result a client reads for a profile. */
async function listTokens(profile: McpProfile): Promise<{ tools: number; tokens: number }> {
  const countTokens = await loadTokenCounter()
  const tools = toolsForProfile(await registeredTools(), profile)
  const list = { tools: tools.map((tool) => toMcpToolSpec(tool, listsOutputSchemas(profile))) }
  return { tools: tools.length, tokens: countTokens(JSON.stringify(list)) }
}

describe('MCP profiles', () => {
  it('core offers at most 10 tools in at most 5,000 tokens of tools/list', async () => {
    const core = await listTokens('core')
    expect(core.tools).toBe(coreToolNames.length)
    expect(core.tools).toBeLessThanOrEqual(10)
    expect(core.tokens).toBeLessThanOrEqual(5_000)
  })

  it('every core tool is registered, and main still offers every tool with its output schema', async () => {
    const registered = await registeredTools()
    expect(toolsForProfile(registered, 'core').map((tool) => tool.name)).toEqual(expect.arrayContaining([...coreToolNames]))
    const main = await listTokens('main')
    expect(main.tools).toBe(registered.length)
    expect(main.tokens).toBeGreaterThan(5_000)
  })
})
