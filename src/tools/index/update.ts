import { z } from 'zod'
import { defineTool } from '../define.js'
import { indexRefreshSchema, refillIndex, summarise } from './schemas.js'

export const indexUpdate = defineTool({
  name: 'index_update',
  title: 'Update the search index',
  description:
    'Bring the index up to date with the files: read the memory files that are new or whose stat data (size, times, inode) changed, so hand edits are picked up, reload changed knowledge, and embed every document that has no vector yet, committing as it goes (an interrupted update resumes where it stopped).',
  tier: 'workspace',
  idempotent: true,
  timeoutMs: 3_600_000,
  input: z.strictObject({}),
  output: indexRefreshSchema,
  examples: [
    {
      title: 'Embed new memories',
      input: {},
      output: {
        documents: 180,
        memories: 100,
        knowledge: 20,
        directives: 60,
        pendingEmbeddings: 0,
        model: 'bundled:use-lite-512',
        searchMode: 'hybrid',
        read: 12,
        embedded: 12,
        durationMs: 900,
      },
    },
  ],
  async run(_input, ctx) {
    const started = performance.now()
    const { read, embedded } = await refillIndex(ctx, 'update')
    const index = await ctx.store.index.open(ctx.warn)
    const output = { ...(await summarise(index)), read, embedded, durationMs: Math.round(performance.now() - started) }
    return { output }
  },
  render: (output) =>
    `Index up to date: ${output.documents} documents, ${output.read} read, ${output.embedded} embedded now (${output.searchMode}, ${output.durationMs} ms)`,
})
