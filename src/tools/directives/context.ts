import { z } from 'zod'
import { aliased } from '../aliases.js'
import { defineTool } from '../define.js'
import { identityOf } from '../memory/schemas.js'
import { directiveSet } from './directive-set.js'
import { modeSlugSchema, taskTextSchema } from './schemas.js'

export const rulesDetectContext = defineTool({
  name: 'rules_detect_context',
  title: 'Detect what a task is about',
  description:
    "Which architecture layer (presentation, application, domain, persistence, infrastructure) and which topics (security, persistence, api, testing, ...) a task text is about, and its most specific technical words: the detection rules_query_directives ranks with, by the shipped vocabulary, .mkrc rules.topics/rules.layers and the knowledge's own topics and tags.",
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({
    text: taskTextSchema.describe('The task, in plain language'),
    modeSlug: modeSlugSchema,
    returnKeywords: z.boolean().optional().describe('Also return the most specific technical words (default true)'),
    options: z
      .strictObject({ modeSlug: modeSlugSchema, returnKeywords: z.boolean().optional() })
      .optional()
      .describe('The specification’s form of modeSlug and returnKeywords'),
  }),
  output: z.strictObject({
    detectedLayer: z.string().optional().describe('The architecture layer the words point to most; absent when none does'),
    layers: z.array(z.string()).describe('Every layer with at least half the evidence of the first'),
    topics: z.array(z.string()).describe('Most evidence first'),
    keywords: z.array(z.string()).optional(),
    confidence: z.number().describe('0-1: how much vocabulary evidence the detection rests on'),
  }),
  examples: [
    {
      title: 'A persistence task',
      input: { text: 'add a new endpoint that stores customer addresses in Postgres' },
      output: {
        detectedLayer: 'persistence',
        layers: ['persistence', 'application'],
        topics: ['persistence', 'privacy', 'api'],
        keywords: ['addresses', 'customer', 'endpoint', 'postgres', 'stores'],
        confidence: 0.97,
      },
    },
  ],
  async run(input, ctx) {
    const { detectTaskContext } = await import('../../directives/detect-task-context.js')
    const modeSlug = aliased('modeSlug', 'options.modeSlug', input.modeSlug, input.options?.modeSlug)
    const returnKeywords = aliased('returnKeywords', 'options.returnKeywords', input.returnKeywords, input.options?.returnKeywords) ?? true
    const detected = await detectTaskContext(input.text, modeSlug, {
      index: ctx.store.index,
      identity: identityOf({}, ctx),
      directiveSet: (index, statuses) => directiveSet(index, ctx, statuses),
      warn: ctx.warn,
    })
    const output = {
      ...(detected.detectedLayer === undefined ? {} : { detectedLayer: detected.detectedLayer }),
      layers: detected.layers,
      topics: detected.topics,
      ...(returnKeywords ? { keywords: detected.keywords } : {}),
      confidence: detected.confidence,
    }
    const display = [
      `layer: ${detected.detectedLayer ?? '(none detected)'}${detected.layers.length > 1 ? ` (also ${detected.layers.slice(1).join(', ')})` : ''}`,
      `topics: ${detected.topics.join(', ') || '(none detected)'}`,
      ...(returnKeywords ? [`keywords: ${detected.keywords.join(', ')}`] : []),
      `confidence: ${detected.confidence}`,
    ].join('\n')
    return { output, display }
  },
})
