import { z } from 'zod'
import { defineTool } from '../define.js'
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
    const { rehydrateMemories } = await import('../../recall/use-memories.js')
    const output = await rehydrateMemories(
      { ids: input.ids, targetTier: input.target_tier, reason: input.reason },
      { identity: identityOf(input, ctx), consumer: consumerOf(input, ctx) },
      { store: ctx.store, author: ctx.runtime.author, warn: ctx.warn },
    )
    const display = [
      `Moved ${output.moved.length} to ${input.target_tier}; ${output.noop.length} already there or above`,
      ...output.missing.map((id) => ctx.style.yellow(`not found here: ${id}`)),
    ].join('\n')
    return { output, display }
  },
})
