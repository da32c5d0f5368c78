import { z } from 'zod'
import { activationOutcomes } from '../../memory/counters.js'
import { defineTool } from '../define.js'
import { byFolder, resolveMemoryIds } from './resolve-ids.js'
import { consumerFields, consumerOf, identityFields, identityOf, memoryIdSchema } from './schemas.js'

const countersSchema = z.strictObject({
  memoryId: z.string(),
  activations: z.number().int(),
  feedback_positive: z.number().int(),
  feedback_negative: z.number().int(),
  last_activated: z.string().optional(),
})

export const memoryActivate = defineTool({
  name: 'memory_activate',
  title: 'Record that memories were used',
  description:
    'Record that memories were used, and whether that helped (positive, negative or neutral). Use keeps a memory in the hot tier; feedback speeds up or slows down its decay (mk memory maintain). Kept in an append-only ledger beside the memories, never in the memory files.',
  tier: 'workspace',
  idempotent: false,
  input: z.strictObject({
    ids: z.array(memoryIdSchema).min(1).max(200).describe('The memories that were used'),
    outcome: z.enum(activationOutcomes).default('neutral').describe('Did using them help?'),
    reason: z.string().max(500).optional().describe('Why, in a few words'),
    run_id: z.string().max(200).optional().describe('The agent run they were used in, to trace a decision back to what it was told'),
    ...identityFields,
    ...consumerFields,
  }),
  output: z.strictObject({
    activated: z.array(z.string()),
    missing: z.array(z.string()).describe('Ids that name no memory visible here'),
    counters: z.array(countersSchema).describe('Each activated memory after this use'),
  }),
  examples: [
    {
      title: 'A memory that helped',
      input: { ids: ['mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3'], outcome: 'positive', reason: 'picked the right database' },
      output: {
        activated: ['mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3'],
        missing: [],
        counters: [
          {
            memoryId: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3',
            activations: 3,
            feedback_positive: 2,
            feedback_negative: 0,
            last_activated: '2026-11-25T10:00:00.000Z',
          },
        ],
      },
    },
  ],
  async run(input, ctx) {
    const { countersOf } = await import('../../memory/counters.js')
    const { resolved, missing } = await resolveMemoryIds(ctx, identityOf(input, ctx), consumerOf(input, ctx), input.ids)
    const at = new Date().toISOString()
    const counters: z.output<typeof countersSchema>[] = []
    for (const group of byFolder(resolved)) {
      const folder = group[0]?.folder
      if (folder === undefined) continue
      await ctx.store.activations.append(
        folder,
        group.map(({ record }) => ({
          id: record.id,
          at,
          event: 'activate' as const,
          outcome: input.outcome,
          ...(input.reason === undefined ? {} : { reason: input.reason }),
          ...(input.run_id === undefined ? {} : { run_id: input.run_id }),
        })),
      )
      const folderCounters = await ctx.store.activations.counters(folder)
      for (const { record } of group) {
        const counted = countersOf(folderCounters, record.id)
        counters.push({
          memoryId: record.id,
          activations: counted.activations,
          feedback_positive: counted.feedbackPositive,
          feedback_negative: counted.feedbackNegative,
          ...(counted.lastActivated === undefined ? {} : { last_activated: counted.lastActivated }),
        })
      }
    }
    const output = { activated: resolved.map(({ record }) => record.id), missing, counters }
    const lines = [
      `Recorded ${input.outcome} use of ${output.activated.length} ${output.activated.length === 1 ? 'memory' : 'memories'}`,
      ...missing.map((id) => ctx.style.yellow(`not found here: ${id}`)),
    ]
    return { output, display: lines.join('\n') }
  },
})
