import { z } from 'zod'
import { defineTool } from '../define.js'
import { workspaceIndex } from '../search-index.js'
import { indexRefreshSchema, refreshAll, summarise } from './schemas.js'

export const indexUpdate = defineTool({
  name: 'index_update',
  title: 'Update the search index',
  description: 'Read every memory and knowledge file again (picking up hand edits) and embed every document that has no vector yet.',
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
        embedded: 12,
        durationMs: 900,
      },
    },
  ],
  async run(_input, ctx) {
    const started = performance.now()
    const index = await workspaceIndex(ctx)
    const { embedded } = await refreshAll(index, ctx)
    const output = { ...summarise(index), embedded, durationMs: Math.round(performance.now() - started) }
    return { output, display: `Index up to date: ${output.documents} documents, ${embedded} embedded now (${output.searchMode}, ${output.durationMs} ms)` }
  },
})
