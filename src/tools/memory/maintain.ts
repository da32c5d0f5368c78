import { z } from 'zod'
import { memoryTiers } from '../../memory/model.js'
import { defineTool } from '../define.js'
import { consumerFields, consumerOf, identityFields, identityOf, memoryLayerSchema } from './schemas.js'

const moveSchema = z.strictObject({
  memoryId: z.string(),
  layer: memoryLayerSchema,
  from: z.enum(memoryTiers),
  to: z.enum(memoryTiers),
  idleDays: z.number().int().describe('Days since it was last used, activated, rehydrated or edited'),
})

export const memoryMaintain = defineTool({
  name: 'memory_maintain',
  title: 'Decay unused memories to lower tiers',
  description:
    'Move memories nobody has used for a while down the tiers (hot, warm, cold, archive) by the decay rule in .mkrc memory.decay, weighted by feedback from memory_activate. A dry run unless apply is true. Nothing is ever deleted: cold and archived memories are found with --tier and brought back with memory_rehydrate.',
  tier: 'workspace',
  idempotent: true,
  timeoutMs: 600_000,
  input: z.strictObject({
    apply: z.boolean().default(false).describe('Write the moves (default: only report them)'),
    layers: z.array(memoryLayerSchema).optional().describe('Only these layers (default every layer visible here)'),
    ...identityFields,
    ...consumerFields,
  }),
  output: z.strictObject({
    scanned: z.number().int(),
    moves: z.array(moveSchema),
    applied: z.boolean(),
    commits: z.array(z.string()).describe('The $MK_HOME history commits of moved private memories; shared-layer files are left for you to commit'),
  }),
  examples: [
    {
      title: 'See what would decay',
      input: {},
      output: {
        scanned: 120,
        moves: [{ memoryId: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3', layer: 'project', from: 'hot', to: 'warm', idleDays: 41 }],
        applied: false,
        commits: [],
      },
    },
  ],
  async run(input, ctx) {
    const { maintainMemories } = await import('../../recall/maintain-memories.js')
    const output = await maintainMemories(
      { apply: input.apply, layers: input.layers, identity: identityOf(input, ctx), consumer: consumerOf(input, ctx) },
      { workspace: ctx.workspace, store: ctx.store, author: ctx.runtime.author, warn: ctx.warn },
    )
    return { output }
  },
  render(output) {
    const lines = [
      `${output.applied ? 'Moved' : 'Would move'} ${output.moves.length} of ${output.scanned} memories down a tier${output.applied || output.moves.length === 0 ? '' : ' (dry run: --apply writes them)'}`,
      ...output.moves.map((move) => `${move.memoryId} ${move.layer}: ${move.from} -> ${move.to} (unused ${move.idleDays} days)`),
    ]
    return lines.join('\n')
  },
})
