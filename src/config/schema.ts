import { z } from 'zod'
import { knowledgeStatuses } from './knowledge-statuses.js'
import { knowledgeLayers, memoryLayers } from './layers.js'

const sourceName = z.string().regex(/^[a-z0-9][a-z0-9._-]*$/i, 'a name of letters, digits, ".", "_" or "-"')

const pathSource = z.strictObject({
  name: sourceName,
  layer: z.enum(knowledgeLayers),
  path: z.string().min(1),
})

const gitSource = z.strictObject({
  name: sourceName,
  layer: z.enum(knowledgeLayers),
  url: z.string().min(1),
  ref: z.string().min(1).optional(),
  dir: z.string().min(1).optional(),
  tokenEnv: z
    .string()
    .regex(/^[A-Z_][A-Z0-9_]*$/i, 'an environment variable name')
    .optional(),
})

export const knowledgeSourceSchema = z.union([pathSource, gitSource])

export const dependencyFields = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const

/** What `check.failOn` and the failOn of knowledge_check accept. */
export const failOnSeverities = ['block', 'warn'] as const

const quotaRateSchema = z.strictObject({
  rps: z.number().positive().describe('Calls per second, refilled continuously'),
  burst: z.number().int().positive().describe('Calls allowed at once after a quiet spell'),
})
/** `mk serve` token buckets per tenant and class (recall: read-only tools, write: the others, debug: the debug channel); a class without an entry is not limited. */
export const quotasSchema = z.strictObject({ recall: quotaRateSchema.optional(), write: quotaRateSchema.optional(), debug: quotaRateSchema.optional() })

export const configSchema = z.strictObject({
  knowledge: z
    .strictObject({
      sources: z
        .array(knowledgeSourceSchema)
        .min(1)
        .default([{ name: 'project', layer: 'project', path: 'knowledge' }]),
      /** An organisation's own status words (any case) and the canonical status each means. */
      statusMap: z.record(z.string().min(1), z.enum(knowledgeStatuses)).optional(),
    })
    .prefault({}),
  memory: z
    .strictObject({
      dir: z.string().min(1).default('knowledge/memory'),
      /** The layer the knowledge-graph tools (create_entities, read_graph, ...) keep their entities and relations in. */
      graphLayer: z.enum(memoryLayers).default('user'),
      /** Append what every memory_recall returned, and to which agent, to `<memory.dir>/.receipts.jsonl`. */
      receipts: z.boolean().default(false),
      /**
       * mk memory maintain: a memory not used for this many days moves to warm, cold, archive.
       * Feedback stretches or shrinks the days: each positive outcome more than negative ones
       * multiplies them by 1 + feedbackWeight (at most four times faster decay for bad memories).
       */
      decay: z
        .strictObject({
          warmAfterDays: z.number().positive().default(30),
          coldAfterDays: z.number().positive().default(90),
          archiveAfterDays: z.number().positive().default(365),
          feedbackWeight: z.number().min(0).max(10).default(0.5),
        })
        .refine((decay) => decay.warmAfterDays < decay.coldAfterDays && decay.coldAfterDays < decay.archiveAfterDays, {
          message: 'warmAfterDays < coldAfterDays < archiveAfterDays',
        })
        .prefault({}),
    })
    .prefault({}),
  check: z
    .strictObject({
      ignore: z.array(z.string()).default([]),
      dependencyFields: z
        .array(z.enum(dependencyFields))
        .min(1)
        .default([...dependencyFields]),
      failOn: z.enum(failOnSeverities).default('block'),
      waivers: z.string().min(1).default('knowledge/waivers.yaml'),
      baseline: z.string().min(1).default('.mk-baseline.json'),
    })
    .prefault({}),
  search: z
    .strictObject({
      embedding: z
        .strictObject({
          provider: z.enum(['bundled', 'transformers', 'openai-compatible', 'none']).default('bundled'),
          model: z.string().min(1).optional(),
          /** openai-compatible: the API root (`http://127.0.0.1:11434/v1`), the vector size, the variable holding the key, the request timeout. */
          baseURL: z.url({ protocol: /^https?$/ }).optional(),
          dimensions: z.number().int().min(1).max(8192).optional(),
          apiKeyEnv: z
            .string()
            .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
            .optional(),
          timeoutMs: z.number().int().min(100).max(600_000).default(30_000),
          allowDownload: z.boolean().default(false),
          /** Where mk model pull downloads from: the Hugging Face hub or a mirror laid out like it. */
          hubUrl: z.url({ protocol: /^https?$/ }).default('https://huggingface.co'),
          /** Text put before every query or document, for asymmetric models (e5: "query: " / "passage: "). transformers only. */
          queryPrefix: z.string().optional(),
          documentPrefix: z.string().optional(),
        })
        .prefault({}),
      textWeight: z.number().min(0).max(1).default(0.8),
      /** The same weight for memory searches: short memories lean more on meaning (issue 29, fit on team-dev and LoCoMo dev). */
      memoryTextWeight: z.number().min(0).max(1).default(0.7),
    })
    .prefault({}),
  rules: z
    .strictObject({
      /** Items whose directives make the block when nothing in the knowledge matches a task. */
      coreItems: z.array(z.string().min(1)).default([]),
      /** Topic and architecture-layer vocabulary beyond the shipped one: a name and its keywords or path globs. */
      topics: z.record(z.string().min(1), z.array(z.string().min(1))).default({}),
      layers: z.record(z.string().min(1), z.array(z.string().min(1))).default({}),
    })
    .prefault({}),
  serve: z.strictObject({ quotas: quotasSchema.optional() }).prefault({}),
})

export type Config = z.output<typeof configSchema>
export type KnowledgeSourceConfig = z.output<typeof knowledgeSourceSchema>
