import { z } from 'zod'
import { defineTool } from '../define.js'
import { tiers } from '../define.js'
import { searchToolCatalog } from './search-catalog.js'

const maxLoad = 10

/**
 * Find mk's tools by words and load them into an MCP session that offers only the core tools. The
 * ranking is over the tools' names, titles and descriptions in memory (rank-tools.ts), not the
 * project's search index: about fifty fixed texts that ship with mk need no index, no model and no
 * store, and the answer must not depend on the workspace's index being built.
 */
export const toolsSearch = defineTool({
  name: 'tools_search',
  title: 'Find and load mk tools',
  description:
    "Find mk's tools by words (query), best first, and load the ones you need (load: their names) so they appear in your tool list: this session may offer only the core tools. Search first, then load the names you will call.",
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({
    query: z.string().min(1).max(500).optional().describe('Words for what you want to do, e.g. "sync knowledge sources"'),
    load: z.array(z.string().min(1).max(100)).max(maxLoad).optional().describe(`Tool names to add to this session's tools (at most ${maxLoad})`),
    limit: z.number().int().min(1).max(20).default(5).describe('Most tools found (1-20)'),
  }),
  output: z.strictObject({
    tools: z
      .array(
        z.strictObject({
          name: z.string(),
          title: z.string(),
          description: z.string(),
          tier: z.enum(tiers),
          offered: z.boolean().describe('Whether you can call it now'),
        }),
      )
      .describe('The tools found, best first'),
    loaded: z.array(z.string()).describe('The tools this call added to your tool list'),
  }),
  examples: [
    {
      title: 'Find how to update the knowledge from its git sources, and load the tool',
      input: { query: 'sync knowledge sources', load: ['sync_now'], limit: 1 },
      output: {
        tools: [
          {
            name: 'sync_now',
            title: 'Sync knowledge sources',
            description: 'Bring every knowledge source up to date: clone or fast-forward the git repositories configured in .mkrc ...',
            tier: 'system',
            offered: true,
          },
        ],
        loaded: ['sync_now'],
      },
    },
  ],
  async run(input, ctx) {
    const { tools, loaded } = searchToolCatalog(input, ctx.toolSession)
    const lines = [
      ...tools.map((tool) => `${tool.name}${tool.offered ? '' : ' (not loaded)'}: ${tool.title}`),
      ...(input.query !== undefined && tools.length === 0 ? [`no tool matches "${input.query}"`] : []),
      ...(loaded.length > 0 ? [`loaded: ${loaded.join(', ')}`] : []),
    ]
    return { output: { tools, loaded }, display: lines.join('\n') }
  },
})
