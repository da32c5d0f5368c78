import { z } from 'zod'
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
    const [{ visibleFoldersOfLayers }, { countersOf }, { planConsolidation }, { MkError }] = await Promise.all([
      import('../../memory/locations.js'),
      import('../../memory/counters.js'),
      import('../../memory/consolidate.js'),
      import('../../errors.js'),
    ])
    const identity = identityOf(input, ctx)
    const consumer = consumerOf(input, ctx)
    const folders = visibleFoldersOfLayers(ctx.workspace, identity, input.layers)
    const index = await ctx.store.index.open(ctx.warn)
    await ctx.store.index.refresh({ identity, folders, knowledge: false, warn: ctx.warn })
    const { searchMode } = await ctx.store.index.embedPending({
      warn: ctx.warn,
      progress: (done, total) => ctx.progress?.({ phase: 'embedding new memories', done, total }),
      signal: ctx.signal,
    })
    if (searchMode !== 'hybrid') {
      throw new MkError('INVALID_INPUT', 'consolidation compares memories by meaning, and no embedding model is available here', {
        details: { hint: 'set search.embedding.provider in .mkrc to bundled (the default) or another model' },
      })
    }
    const output: {
      scanned: number
      clusters: { layer: (typeof folders)[number]['layer']; canonical: string; aliases: string[] }[]
      contradictory_candidates: { layer: (typeof folders)[number]['layer']; a: string; b: string; cosine: number; reason: string }[]
      applied: boolean
      commits: string[]
    } = { scanned: 0, clusters: [], contradictory_candidates: [], applied: input.apply, commits: [] }
    for (const folder of folders) {
      // Aliases are not candidates again; a fact is consolidated within its own layer.
      const filters = { kind: 'memory' as const, sources: [folder.key], consumer, statuses: ['hot', 'warm', 'cold', 'archive'], includeExpired: true }
      const docs = new Map((await index.list({ ...filters, order: 'any' })).map((doc) => [doc.id, doc]))
      const counters = await ctx.store.activations.counters(folder)
      const candidates = (await index.documentVectors(filters)).flatMap(({ id, vector }) => {
        const doc = docs.get(id)
        return doc === undefined
          ? []
          : [{ id, content: doc.content, vector, activations: countersOf(counters, id).activations, created: new Date(doc.updatedAt).toISOString() }]
      })
      output.scanned += candidates.length
      const plan = planConsolidation(candidates, { allowContradictory: input.allow_contradictory })
      output.clusters.push(...plan.clusters.map((cluster) => ({ layer: folder.layer, ...cluster })))
      output.contradictory_candidates.push(...plan.contradictory.map((pair) => ({ layer: folder.layer, ...pair })))
      if (!input.apply || plan.clusters.length === 0) continue
      const records = []
      for (const cluster of plan.clusters) {
        const canonical = (await ctx.store.memories.find(identity, cluster.canonical)).record
        records.push({ ...canonical, mergedFrom: [...new Set([...(canonical.mergedFrom ?? []), ...cluster.aliases])] })
        for (const alias of cluster.aliases) records.push({ ...(await ctx.store.memories.find(identity, alias)).record, aliasOf: cluster.canonical })
      }
      const forced =
        input.allow_contradictory && plan.contradictory.length > 0
          ? `\n\n--allow-contradictory: merged ${plan.contradictory.length} pairs that look contradictory\n`
          : ''
      const commit = await ctx.store.memories.rewrite(folder, records, `consolidate ${plan.clusters.length} clusters (${folder.key})${forced}`, {
        author: ctx.runtime.author,
        warn: ctx.warn,
      })
      if (commit !== undefined) output.commits.push(commit)
    }
    const aliasCount = output.clusters.reduce((sum, cluster) => sum + cluster.aliases.length, 0)
    const lines = [
      `${input.apply ? 'Merged' : 'Would merge'} ${aliasCount} memories into ${output.clusters.length} canonical ones (of ${output.scanned})${input.apply || aliasCount === 0 ? '' : '; --apply writes them'}`,
      ...output.clusters.map((cluster) => `${cluster.canonical} <- ${cluster.aliases.join(', ')}`),
      ...output.contradictory_candidates.map((pair) =>
        ctx.style.yellow(
          `contradictory_candidate: ${pair.a} / ${pair.b} (${pair.reason})${input.allow_contradictory ? ', merged anyway (--allow-contradictory)' : ', not merged'}`,
        ),
      ),
    ]
    return { output, display: lines.join('\n') }
  },
})
