import { z } from 'zod'
import type { SyncRun } from '../../sync/run.js'
import { defineTool } from '../define.js'
import { knowledgeLayerSchema, knowledgeTypeSchema, oneOrMany } from '../knowledge/schemas.js'
import { identityOf } from '../memory/schemas.js'
import { itemChangeSchema, sourceReportSchema, staleMemorySchema, syncFailureSchema } from './schemas.js'

/** Per HTTP request to a remote; the whole sync may take longer. */
const requestTimeoutMs = 30_000

export const syncNow = defineTool({
  name: 'sync_now',
  title: 'Sync knowledge sources',
  description:
    'Bring every knowledge source up to date: clone or fast-forward the git repositories configured in .mkrc (company, org, team layers) and rescan local folders, then re-process only the items whose content changed. Reports added/updated/deleted/unchanged counts and per-source failures (one failing source does not stop the others; the last good copy stays in use). Use sync_status to only look at the last result.',
  tier: 'system',
  idempotent: true,
  timeoutMs: 600_000,
  input: z.strictObject({
    force: z
      .boolean()
      .default(false)
      .describe('Re-process every item, accept a remote whose history was rewritten, and discard edits made inside local clones'),
    types: oneOrMany(knowledgeTypeSchema).optional().describe('Only process items of these types'),
    layers: oneOrMany(knowledgeLayerSchema).optional().describe('Only sync sources of these layers'),
  }),
  output: z.strictObject({
    success: z.boolean().describe('False when any source or item failed'),
    result: z.strictObject({
      added: z.number().int(),
      updated: z.number().int(),
      deleted: z.number().int(),
      unchanged: z.number().int(),
      reparsed: z.number().int().describe('Files read and parsed in this run (only changed ones unless force)'),
      failures: z.array(syncFailureSchema),
      changes: z.array(itemChangeSchema),
      reindexed: z.number().int().describe('Search index documents written or removed (0 when there is no index yet: the first search builds it)'),
      staleMemories: z.array(staleMemorySchema).describe('Memories whose refs name an item this sync superseded, deprecated or deleted'),
    }),
    sources: z.array(sourceReportSchema),
    durationMs: z.number().int(),
    message: z.string(),
  }),
  examples: [
    {
      title: 'Sync after a colleague added an ADR to the company repository',
      input: {},
      output: {
        success: true,
        result: {
          added: 1,
          updated: 0,
          deleted: 0,
          unchanged: 12,
          reparsed: 1,
          failures: [],
          changes: [{ source: 'company', path: 'adr/0042-database.md', id: 'adr-0042-database', change: 'added' }],
          reindexed: 1,
          staleMemories: [],
        },
        sources: [
          { name: 'project', layer: 'project', kind: 'path', action: 'scanned', added: 0, updated: 0, deleted: 0, unchanged: 4 },
          {
            name: 'company',
            layer: 'company',
            kind: 'git',
            action: 'updated',
            commit: '5d6e7f8a9b0c1d2e3f405162738495a6b7c8d9e0',
            previousCommit: '1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d',
            added: 1,
            updated: 0,
            deleted: 0,
            unchanged: 8,
          },
        ],
        durationMs: 412,
        message: 'Synced 2 sources: 1 added, 0 updated, 0 deleted, 12 unchanged.',
      },
    },
  ],
  async run(input, ctx) {
    const { runSync } = await import('../../sync/run.js')
    const { renderSyncReport, summarizeSync } = await import('./render.js')
    const { report, reindex, staleMemories } = await runSync(ctx.workspace, {
      force: input.force,
      types: input.types,
      layers: input.layers,
      env: ctx.env,
      timeoutMs: requestTimeoutMs,
      signal: ctx.signal,
      warn: (message) => ctx.warn(message),
      ...(ctx.progress === undefined ? {} : { progress: ctx.progress }),
      identity: identityOf({}, ctx),
      store: ctx.store,
    })
    const output = syncOutput({ report, reindex, staleMemories }, summarizeSync(report))
    return { output, display: renderSyncReport(report, staleMemories, ctx.style), ...(report.failures.length > 0 ? { exitCode: 2 as const } : {}) }
  },
})

/** The sync's report in sync_now's words. */
function syncOutput({ report, reindex, staleMemories }: SyncRun, message: string) {
  return {
    success: report.failures.length === 0,
    result: {
      added: report.added,
      updated: report.updated,
      deleted: report.deleted,
      unchanged: report.unchanged,
      reparsed: report.reparsed,
      failures: report.failures,
      changes: report.changes.map(({ source, path, id, change }) => ({ source, path, ...(id === undefined ? {} : { id }), change })),
      reindexed: reindex.upserted + reindex.removed,
      staleMemories,
    },
    sources: report.sources,
    durationMs: report.durationMs,
    message,
  }
}
