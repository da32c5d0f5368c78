import { z } from 'zod'
import { errorCodes } from '../../errors.js'
import { defineTool } from '../define.js'
import { renderSyncStatus } from './render-status.js'
import { knowledgeLayerSchema } from '../knowledge/schemas.js'
import { sourceKindSchema } from './schemas.js'

const probeTimeoutMs = 5_000

const errorSchema = z.strictObject({ errorCode: z.enum(errorCodes), message: z.string(), retryable: z.boolean(), hint: z.string().optional() })

export const syncStatusTool = defineTool({
  name: 'sync_status',
  title: 'Show knowledge sync status',
  description:
    'Report whether knowledge sources are in sync: when the last sync ran, which sources or items failed and why, sync statistics, and per source the synced commit. By default asks each git remote (one request each, read-only) whether it is reachable and has newer commits; set offline to skip that. Does not change anything: use sync_now to sync.',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({
    offline: z.boolean().default(false).describe('Do not contact git remotes; report only what the last sync recorded'),
  }),
  output: z.strictObject({
    healthy: z.boolean().describe('True when every source synced without error, no item failed, and every remote answered'),
    problems: z.array(z.string()).describe('Why it is not healthy'),
    lastSyncAt: z.string().nullable().describe('ISO time of the last sync in which no source failed'),
    timeSinceSync: z.string().describe('Human readable, e.g. "5 minutes ago" or "never"'),
    failedItems: z.array(z.strictObject({ source: z.string(), path: z.string(), message: z.string() })),
    stats: z.strictObject({ totalSyncs: z.number().int(), totalItemsSynced: z.number().int(), avgSyncDurationMs: z.number().int() }),
    sources: z.array(
      z.strictObject({
        name: z.string(),
        layer: knowledgeLayerSchema,
        kind: sourceKindSchema,
        commit: z.string().nullable().describe('Commit of the last successful sync (git sources)'),
        lastSyncAt: z.string().nullable(),
        error: errorSchema.nullable().describe("The last sync attempt's failure, if it failed"),
        remote: z
          .strictObject({
            reachable: z.boolean(),
            commit: z.string().nullable(),
            behind: z.boolean().describe('The remote has commits not synced yet: run sync_now'),
            error: errorSchema.nullable(),
          })
          .nullable()
          .describe('What the remote says now (git sources, unless offline)'),
      }),
    ),
  }),
  examples: [
    {
      title: 'A company repository that went away',
      input: {},
      output: {
        healthy: false,
        problems: ['source "company": cannot reach https://git.example.com/acme/knowledge.git (connection refused)'],
        lastSyncAt: '2026-03-02T09:14:00.000Z',
        timeSinceSync: '2 hours ago',
        failedItems: [],
        stats: { totalSyncs: 14, totalItemsSynced: 63, avgSyncDurationMs: 380 },
        sources: [
          { name: 'project', layer: 'project', kind: 'path', commit: null, lastSyncAt: '2026-03-02T09:14:00.000Z', error: null, remote: null },
          {
            name: 'company',
            layer: 'company',
            kind: 'git',
            commit: '5d6e7f8a9b0c1d2e3f405162738495a6b7c8d9e0',
            lastSyncAt: '2026-03-02T09:14:00.000Z',
            error: null,
            remote: {
              reachable: false,
              commit: null,
              behind: false,
              error: {
                errorCode: 'PROVIDER_ERROR',
                message: 'source "company": cannot reach https://git.example.com/acme/knowledge.git (connection refused)',
                retryable: true,
                hint: 'check the network or the url, then run mk sync again; the last synced copy stays in use',
              },
            },
          },
        ],
      },
    },
  ],
  async run(input, ctx) {
    const { syncStatus, timeSince } = await import('../../sync/status.js')
    const status = await syncStatus(ctx.workspace, { probe: !input.offline, env: ctx.env, timeoutMs: probeTimeoutMs, warn: (message) => ctx.warn(message) })
    const output = {
      healthy: status.healthy,
      problems: status.problems,
      lastSyncAt: status.lastSyncAt ?? null,
      timeSinceSync: timeSince(status.lastSyncAt, new Date()),
      failedItems: status.failedItems,
      stats: status.stats,
      sources: status.sources.map((source) => ({
        name: source.name,
        layer: source.layer,
        kind: source.kind,
        commit: source.commit ?? null,
        lastSyncAt: source.lastSyncAt ?? null,
        error: source.error ?? null,
        remote:
          source.remote === undefined
            ? null
            : { reachable: source.remote.reachable, commit: source.remote.commit ?? null, behind: source.remote.behind, error: source.remote.error ?? null },
      })),
    }
    return { output, ...(status.healthy ? {} : { exitCode: 1 as const }) }
  },
  render: renderSyncStatus,
})
