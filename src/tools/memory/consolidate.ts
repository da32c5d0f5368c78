import { z } from 'zod'
import type { Consolidation } from '../../recall/consolidate-memories.js'
import type { Style } from '../../style.js'
import { defineTool } from '../define.js'
import { consumerFields, consumerOf, identityFields, identityOf, memoryLayerSchema } from './schemas.js'

export const memoryConsolidate = defineTool({
  name: 'memory_consolidate',
  title: 'Merge memories that restate each other',
  description:
    'Find memories of one layer that say the same thing (close by meaning and sharing most of their words), keep the most used as canonical and mark the others alias_of it, so recall returns the fact once; aliases stay on disk and in history. Pairs that contradict each other ("we use X" / "we no longer use X", "always" / "never", different numbers) are never merged and are reported. A dry run unless apply is true.',
  tier: 'workspace',
  idempotent: true,
  timeoutMs: 600_000,
  input: z.strictObject({
    apply: z.boolean().default(false).describe('Write the aliases (default: only report them)'),
    layers: z.array(memoryLayerSchema).optional().describe('Only these layers (default every layer visible here)'),
    allow_contradictory: z.boolean().default(false).describe('Also merge pairs that look contradictory (the commit message says so)'),
    ...identityFields,
    ...consumerFields,
  }),
  output: z.strictObject({
    scanned: z.number().int(),
    clusters: z.array(z.strictObject({ layer: memoryLayerSchema, canonical: z.string(), aliases: z.array(z.string()) })),
    contradictory_candidates: z.array(z.strictObject({ layer: memoryLayerSchema, a: z.string(), b: z.string(), cosine: z.number(), reason: z.string() })),
    applied: z.boolean(),
    commits: z.array(z.string()).describe('The $MK_HOME history commits of private layers; shared-layer files are left for you to commit'),
  }),
  examples: [
    {
      title: 'See what would merge',
      input: {},
      output: {
        scanned: 40,
        clusters: [{ layer: 'project', canonical: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3', aliases: ['mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C4'] }],
        contradictory_candidates: [
          {
            layer: 'project',
            a: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C5',
            b: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C6',
            cosine: 0.9,
            reason: 'one negates what the other says',
          },
        ],
        applied: false,
        commits: [],
      },
    },
  ],
  async run(input, ctx) {
    const { consolidateMemories } = await import('../../recall/consolidate-memories.js')
    const output = await consolidateMemories(
      {
        apply: input.apply,
        layers: input.layers,
        allowContradictory: input.allow_contradictory,
        identity: identityOf(input, ctx),
        consumer: consumerOf(input, ctx),
      },
      { workspace: ctx.workspace, store: ctx.store, author: ctx.runtime.author, warn: ctx.warn, progress: ctx.progress, signal: ctx.signal },
    )
    return { output, display: consolidationText(output, input.allow_contradictory, ctx.style) }
  },
})

/** The display needs allow_contradictory, which the output does not carry: run renders it. */
function consolidationText(output: Consolidation, allowContradictory: boolean, style: Style): string {
  const aliasCount = output.clusters.reduce((sum, cluster) => sum + cluster.aliases.length, 0)
  const lines = [
    `${output.applied ? 'Merged' : 'Would merge'} ${aliasCount} memories into ${output.clusters.length} canonical ones (of ${output.scanned})${output.applied || aliasCount === 0 ? '' : '; --apply writes them'}`,
    ...output.clusters.map((cluster) => `${cluster.canonical} <- ${cluster.aliases.join(', ')}`),
    ...output.contradictory_candidates.map((pair) =>
      style.yellow(
        `contradictory_candidate: ${pair.a} / ${pair.b} (${pair.reason})${allowContradictory ? ', merged anyway (--allow-contradictory)' : ', not merged'}`,
      ),
    ),
  ]
  return lines.join('\n')
}
