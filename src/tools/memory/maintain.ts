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
    const [{ visibleFoldersOfLayers }, { planDecay }, { isMemoryTier }] = await Promise.all([
      import('../../memory/locations.js'),
      import('../../memory/maintain.js'),
      import('../../memory/decay.js'),
    ])
    const identity = identityOf(input, ctx)
    const folders = visibleFoldersOfLayers(ctx.workspace, identity, input.layers)
    const index = await ctx.store.index.open(ctx.warn)
    await ctx.store.index.refresh({ identity, folders, knowledge: false, warn: ctx.warn })
    // The index already holds every memory's tier and age: no file is read unless it moves.
    const documents = await index.list({
      kind: 'memory',
      sources: folders.map((folder) => folder.key),
      consumer: consumerOf(input, ctx),
      includeExpired: true,
      order: 'any',
    })
    const counters = new Map(await Promise.all(folders.map(async (folder) => [folder.key, await ctx.store.activations.counters(folder)] as const)))
    const memories = documents.map((doc) => ({
      id: doc.id,
      folderKey: doc.source ?? '',
      tier: isMemoryTier(doc.status) ? doc.status : 'hot',
      updatedMs: doc.updatedAt,
    }))
    const moves = planDecay(memories, counters, Date.now(), ctx.workspace.config.memory.decay)
    const commits: string[] = []
    if (input.apply) {
      for (const folder of folders) {
        const here = moves.filter((move) => move.folderKey === folder.key).map((move) => ({ id: move.memoryId, tier: move.to }))
        if (here.length === 0) continue
        const commit = await ctx.store.memories.retier(folder, here, `decay ${here.length} memories (${folder.key})`, {
          author: ctx.runtime.author,
          warn: ctx.warn,
        })
        if (commit !== undefined) commits.push(commit)
      }
    }
    const layerOf = new Map(folders.map((folder) => [folder.key, folder.layer]))
    const output = {
      scanned: documents.length,
      moves: moves.map((move) => ({
        memoryId: move.memoryId,
        layer: layerOf.get(move.folderKey) ?? 'project',
        from: move.from,
        to: move.to,
        idleDays: move.idleDays,
      })),
      applied: input.apply,
      commits,
    }
    const verb = input.apply ? 'Moved' : 'Would move'
    const lines = [
      `${verb} ${moves.length} of ${documents.length} memories down a tier${input.apply || moves.length === 0 ? '' : ' (dry run: --apply writes them)'}`,
      ...output.moves.map((move) => `${move.memoryId} ${move.layer}: ${move.from} -> ${move.to} (unused ${move.idleDays} days)`),
    ]
    return { output, display: lines.join('\n') }
  },
})
