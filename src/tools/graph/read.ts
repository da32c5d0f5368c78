import { z } from 'zod'
import { defineTool } from '../define.js'
import { graphPlace, json } from './graph-context.js'
import { exampleGraph, graphSchema } from './schemas.js'

export const readGraph = defineTool({
  name: 'read_graph',
  title: 'Read Graph',
  description: 'Read the entire knowledge graph (drop-in for the reference MCP memory server; entities are mk memories of the memory.graphLayer layer)',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({}),
  output: graphSchema,
  examples: [{ title: 'The whole graph', input: {}, output: exampleGraph }],
  async run(_input, ctx) {
    const { loadGraph } = await import('../../recall/knowledge-graph.js')
    return { output: (await loadGraph(graphPlace(ctx))).graph }
  },
  render: json,
})

export const searchNodes = defineTool({
  name: 'search_nodes',
  title: 'Search Nodes',
  description:
    'Search for nodes in the knowledge graph based on a query (a case-insensitive substring of a name, type or observation; relations touching a match come along)',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({ query: z.string().describe('The search query to match against entity names, types, and observation content') }),
  output: graphSchema,
  examples: [{ title: 'Nodes about billing', input: { query: 'billing' }, output: exampleGraph }],
  async run(input, ctx) {
    const [{ loadGraph }, { searchGraph }] = await Promise.all([import('../../recall/knowledge-graph.js'), import('../../memory/graph.js')])
    return { output: searchGraph((await loadGraph(graphPlace(ctx))).graph, input.query) }
  },
  render: json,
})

export const openNodes = defineTool({
  name: 'open_nodes',
  title: 'Open Nodes',
  description: 'Open specific nodes in the knowledge graph by their names, with the relations touching them',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({ names: z.array(z.string()).describe('An array of entity names to retrieve') }),
  output: graphSchema,
  examples: [{ title: 'Open Alice', input: { names: ['Alice'] }, output: exampleGraph }],
  async run(input, ctx) {
    const [{ loadGraph }, { openGraphNodes }] = await Promise.all([import('../../recall/knowledge-graph.js'), import('../../memory/graph.js')])
    return { output: openGraphNodes((await loadGraph(graphPlace(ctx))).graph, input.names) }
  },
  render: json,
})
