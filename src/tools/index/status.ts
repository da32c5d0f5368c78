import { z } from 'zod'
import { defineTool } from '../define.js'
import { indexSummarySchema, summarise } from './schemas.js'

export const indexStatus = defineTool({
  name: 'index_status',
  title: 'Show the search index',
  description: 'How many memories and knowledge items the search index holds, the embedding model, its size on disk, and how fresh it is.',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({}),
  output: indexSummarySchema.extend({
    path: z.string().describe('Relative to the workspace'),
    sizeBytes: z.number().int(),
    schemaVersion: z.number().int(),
    refreshedAt: z.string().optional().describe('When a search or update last brought it up to date with the files'),
  }),
  examples: [
    {
      title: 'Index status',
      input: {},
      output: {
        documents: 180,
        memories: 100,
        knowledge: 20,
        directives: 60,
        pendingEmbeddings: 0,
        model: 'bundled:use-lite-512',
        searchMode: 'hybrid',
        path: '.mk/index.db',
        sizeBytes: 1_048_576,
        schemaVersion: 4,
        refreshedAt: '2026-11-20T10:00:00.000Z',
      },
    },
  ],
  async run(_input, ctx) {
    const index = await ctx.store.index.open(ctx.warn)
    const stats = await index.stats()
    const refreshedAt = await index.state('refreshed_at')
    const output = {
      ...(await summarise(index)),
      path: ctx.store.index.where(),
      sizeBytes: stats.sizeBytes,
      schemaVersion: stats.schemaVersion,
      ...(refreshedAt === undefined ? {} : { refreshedAt }),
    }
    return { output }
  },
  render(output, style) {
    const rows: [string, string][] = [
      ['index', `${output.path} (${(output.sizeBytes / 1024).toFixed(0)} KiB, schema ${output.schemaVersion})`],
      ['documents', `${output.documents} (${output.memories} memories, ${output.knowledge} knowledge items, ${output.directives} directives)`],
      ['search', output.searchMode],
      ['model', output.model ?? 'none'],
      ['pending', `${output.pendingEmbeddings} documents waiting for an embedding`],
      ['refreshed', output.refreshedAt ?? 'never'],
    ]
    return rows.map(([name, value]) => `${style.dim(name.padEnd(10))}${value}`).join('\n')
  },
})
