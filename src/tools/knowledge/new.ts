import { z } from 'zod'
import { defineTool } from '../define.js'
import { knowledgeTypeSchema } from './schemas.js'

export const knowledgeNew = defineTool({
  name: 'knowledge_new',
  title: 'Create a knowledge item',
  description:
    'Write a new knowledge file (ADR, policy, pattern, spec or rule) from a template with its frontmatter filled in. ADRs are numbered after the highest existing number and start as proposed. Never overwrites an existing file.',
  tier: 'workspace',
  idempotent: false,
  input: z.strictObject({
    type: knowledgeTypeSchema.describe('Kind of item to create'),
    title: z.string().trim().min(1).max(200).describe('Title of the new item'),
    source: z.string().optional().describe('Name of the local knowledge source to write into (default: the project source)'),
  }),
  output: z.strictObject({
    id: z.string(),
    path: z.string().describe('Workspace-relative path of the new file'),
    redactions: z
      .array(z.strictObject({ kind: z.string(), count: z.number().int() }))
      .describe('Secrets in the title replaced by [REDACTED:kind] before the file and its name were written'),
  }),
  examples: [
    {
      title: 'Propose a new ADR',
      input: { type: 'adr', title: 'Use Kafka for events' },
      output: { id: 'adr-0002-use-kafka-for-events', path: 'knowledge/adr/adr-0002-use-kafka-for-events.md', redactions: [] },
    },
  ],
  async run(input, ctx) {
    const { loadKnowledge } = await import('../../knowledge/load.js')
    const { planNewItem, writeNewItem } = await import('../../knowledge/create.js')
    const base = await loadKnowledge(ctx.workspace)
    for (const problem of base.problems.filter((candidate) => candidate.severity === 'error' && candidate.code !== 'missing-source')) {
      ctx.warn(`${problem.file}:${problem.line}: ${problem.message}`)
    }
    const { redactSecrets } = await import('../../memory/redact.js')
    // The title becomes the file name and the heading: a secret in it must reach neither.
    const { text: title, redactions } = await redactSecrets(input.title)
    const plan = planNewItem(base, ctx.workspace, { type: input.type, title, source: input.source, today: new Date().toISOString().slice(0, 10) })
    await writeNewItem(plan, base)
    return { output: { id: plan.id, path: plan.path, redactions } }
  },
  render(output, style) {
    const { redactions } = output
    const redacted = redactions.length === 0 ? '' : `; redacted ${redactions.map((entry) => `${entry.count} ${entry.kind}`).join(', ')} in the title`
    return `Created ${style.cyan(output.path)} (${output.id})${redacted}`
  },
})
