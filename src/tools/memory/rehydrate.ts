import { z } from 'zod'
import { tierRank, type MemoryRecord } from '../../memory/model.js'
import { defineTool } from '../define.js'
import { byFolder, resolveMemoryIds } from './resolve-ids.js'
import { consumerFields, consumerOf, identityFields, identityOf, memoryIdSchema } from './schemas.js'

export const memoryRehydrate = defineTool({
  name: 'memory_rehydrate',
  title: 'Bring memories back up a tier',
  description:
    'Move memories that decay moved down (cold, archive) back to warm or hot, so default recall finds them again. Only memories below the target move; the move is recorded in each file (last_rehydrated_at/from/to/reason).',
  tier: 'workspace',
  idempotent: true,
  input: z.strictObject({
    ids: z.array(memoryIdSchema).min(1).max(200),
    target_tier: z.enum(['warm', 'hot']).default('warm').describe('Where to bring them (default warm)'),
    reason: z.string().max(500).optional(),
    ...identityFields,
    ...consumerFields,
  }),
  output: z.strictObject({
    requested: z.array(z.string()),
    resolved: z.array(z.string()).describe('Requested ids found here'),
    moved: z.array(z.string()).describe('Ids that were below the target and moved up'),
    noop: z.array(z.string()).describe('Ids already at or above the target'),
    missing: z.array(z.string()).describe('Ids that name no memory visible here'),
    commits: z.array(z.string()).describe('The $MK_HOME history commits of moved private memories'),
  }),
  examples: [
    {
      title: 'Rehydrate an archived memory',
      input: { ids: ['mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3'], target_tier: 'warm', reason: 'needed for the migration again' },
      output: {
        requested: ['mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3'],
        resolved: ['mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3'],
        moved: ['mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3'],
        noop: [],
        missing: [],
        commits: [],
      },
    },
  ],
  async run(input, ctx) {
    const { redactSecrets } = await import('../../memory/redact.js')
    // The reason reaches the files, the ledger and the commit message: redacted once, first.
    const reason = input.reason === undefined ? undefined : (await redactSecrets(input.reason)).text
    const { resolved, missing } = await resolveMemoryIds(ctx, identityOf(input, ctx), consumerOf(input, ctx), input.ids)
    const at = new Date().toISOString()
    const moved: string[] = []
    const commits: string[] = []
    for (const group of byFolder(resolved)) {
      const folder = group[0]?.folder
      if (folder === undefined) continue
      const records: MemoryRecord[] = group
        .filter(({ record }) => tierRank(record.tier ?? 'hot') > tierRank(input.target_tier))
        .map(({ record }) => ({
          ...record,
          tier: input.target_tier,
          lastRehydrated: { at, from: record.tier ?? 'hot', to: input.target_tier, reason },
        }))
      if (records.length === 0) continue
      // The ledger entry restarts the decay clock; the file says where the memory came from.
      await ctx.store.activations.append(
        folder,
        records.map((record) => ({ id: record.id, at, event: 'rehydrate' as const, ...(reason === undefined ? {} : { reason }) })),
      )
      const commit = await ctx.store.memories.rewrite(
        folder,
        records,
        `rehydrate ${records.length} to ${input.target_tier} (${folder.key})${reason === undefined ? '' : `\n\n${reason}\n`}`,
        { author: ctx.runtime.author, warn: ctx.warn },
      )
      if (commit !== undefined) commits.push(commit)
      moved.push(...records.map((record) => record.id))
    }
    const resolvedIds = resolved.map(({ record }) => record.id)
    const output = { requested: input.ids, resolved: resolvedIds, moved, noop: resolvedIds.filter((id) => !moved.includes(id)), missing, commits }
    const display = [
      `Moved ${moved.length} to ${input.target_tier}; ${output.noop.length} already there or above`,
      ...missing.map((id) => ctx.style.yellow(`not found here: ${id}`)),
    ].join('\n')
    return { output, display }
  },
})
