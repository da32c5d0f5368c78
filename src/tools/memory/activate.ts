import { z } from 'zod'
import { activationOutcomes } from '../../memory/counters.js'
import { defineTool } from '../define.js'
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
    const { activateMemories } = await import('../../recall/use-memories.js')
    const output = await activateMemories(
      { ids: input.ids, outcome: input.outcome, reason: input.reason, runId: input.run_id },
      { identity: identityOf(input, ctx), consumer: consumerOf(input, ctx) },
      ctx.store,
    )
    const lines = [
      `Recorded ${input.outcome} use of ${output.activated.length} ${output.activated.length === 1 ? 'memory' : 'memories'}`,
      ...output.missing.map((id) => ctx.style.yellow(`not found here: ${id}`)),
    ]
    return { output, display: lines.join('\n') }
  },
})
