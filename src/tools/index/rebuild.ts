import { z } from 'zod'
import { defineTool } from '../define.js'
import { indexRefreshSchema, refillIndex, summarise } from './schemas.js'

export const indexRebuild = defineTool({
  name: 'index_rebuild',
  title: 'Rebuild the search index',
  description:
    'Build the search index again from the memory and knowledge files, embedding everything, in a new database file that replaces the old one when it is complete (so a corrupt index is always repaired). The files are never touched.',
  tier: 'workspace',
  idempotent: true,
  timeoutMs: 3_600_000,
  input: z.strictObject({}),
  output: indexRefreshSchema,
  examples: [
    {
      title: 'Rebuild',
      input: {},
      output: {
        documents: 180,
        memories: 100,
        knowledge: 20,
        directives: 60,
        pendingEmbeddings: 0,
        model: 'bundled:use-lite-512',
        searchMode: 'hybrid',
        read: 120,
        embedded: 120,
        durationMs: 4000,
      },
    },
  ],
  async run(_input, ctx) {
    const started = performance.now()
    const { read, embedded } = await refillIndex(ctx, 'rebuild')
    const index = await ctx.store.index.open(ctx.warn)
    const output = { ...(await summarise(index)), read, embedded, durationMs: Math.round(performance.now() - started) }
    return { output }
  },
  render: (output) =>
    `Rebuilt the index: ${output.documents} documents (${output.memories} memories, ${output.knowledge} knowledge, ${output.directives} directives), ${output.embedded} embedded in ${output.durationMs} ms`,
})
