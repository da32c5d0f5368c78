import { z } from 'zod'
import { defineTool } from '../define.js'
import { renderTable } from '../table.js'
import { oneOrMany } from '../knowledge/schemas.js'
import { consumerFields, consumerOf, identityFields, identityOf, memoryLayerSchema } from './schemas.js'

export const memoryList = defineTool({
  name: 'memory_list',
  title: 'List memories',
  description: 'List memories of the layers visible here, newest first, optionally only some layers or tags. Use memory_search to find memories by meaning.',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({
    layers: oneOrMany(memoryLayerSchema).optional().describe('Only these layers'),
    tags: z.array(z.string().min(1)).optional().describe('Only memories carrying all of these tags'),
    limit: z.number().int().min(1).max(1000).default(50).describe('Most memories to list (1-1000)'),
    includeExpired: z.boolean().default(false).describe('Also list expired memories'),
    ...identityFields,
    ...consumerFields,
  }),
  output: z.strictObject({
    memories: z.array(
      z.strictObject({
        memoryId: z.string(),
        layer: memoryLayerSchema,
        content: z.string(),
        tags: z.array(z.string()),
        updated: z.string(),
        expires: z.string().optional(),
      }),
    ),
    totalCount: z.number().int(),
  }),
  examples: [
    {
      title: 'Newest project memories',
      input: { layers: ['project'], limit: 5 },
      output: {
        memories: [
          {
            memoryId: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3',
            layer: 'project',
            content: 'We store everything in Postgres',
            tags: ['database'],
            updated: '2026-11-20T10:00:00.000Z',
          },
        ],
        totalCount: 1,
      },
    },
  ],
  async run(input, ctx) {
    const { listMemories } = await import('../../recall/list-memories.js')
    const memories = await listMemories(
      {
        layers: input.layers,
        tags: input.tags,
        includeExpired: input.includeExpired,
        limit: input.limit,
        identity: identityOf(input, ctx),
        consumer: consumerOf(input, ctx),
      },
      { workspace: ctx.workspace, store: ctx.store, warn: ctx.warn },
    )
    return { output: { memories, totalCount: memories.length } }
  },
  render(output, style) {
    if (output.memories.length === 0) return 'No memories found.'
    return renderTable(
      output.memories,
      [
        { header: 'ID', value: (memory) => memory.memoryId, decorate: (text) => style.cyan(text) },
        { header: 'LAYER', value: (memory) => memory.layer },
        { header: 'UPDATED', value: (memory) => memory.updated.slice(0, 10) },
        { header: 'CONTENT', value: (memory) => memory.content.replaceAll('\n', ' '), max: 70 },
      ],
      style.bold,
    )
  },
})
