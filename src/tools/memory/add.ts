import { z } from 'zod'
import { defineTool } from '../define.js'
import { lazy } from '../../lazy.js'
import { plural } from '../../text.js'
import { memoryLanes } from '../../memory/model.js'
import { identityFields, identityOf, maxContentLength, memoryExtraLimits, memoryLayerSchema } from './schemas.js'

/** Built when asked for: the CLI without --json never checks its output against it. */
const memoryAddOutput = lazy(() =>
  z.strictObject({
    success: z.literal(true),
    memoryId: z.string(),
    message: z.string(),
    deduplicated: z.boolean().describe('True when the same content was already stored in this layer; nothing was written'),
    redactions: z.array(z.strictObject({ kind: z.string(), count: z.number().int() })).describe('Secrets replaced by [REDACTED:kind]'),
    similar: z
      .array(z.strictObject({ memoryId: z.string(), content: z.string(), score: z.number() }))
      .describe('Existing memories of the layer that restate this one (mk memory consolidate can merge them)'),
    contradicts: z
      .array(z.strictObject({ memoryId: z.string(), content: z.string(), reason: z.string() }))
      .describe('Existing memories that look like this one but disagree with it: never merged; review which is true'),
    commit: z
      .string()
      .optional()
      .describe(
        'The $MK_HOME history commit of a private memory; a project (or wider) memory is a file in the repository, left for you to commit with your change',
      ),
  }),
)

export const memoryAdd = defineTool({
  name: 'memory_add',
  title: 'Add a memory',
  description:
    'Store a short fact to recall later ("the staging DB is read-only on Fridays"). Layers: agent, session, user (private, default), project (shared with the team through git), team, org, company. Secrets are redacted before anything is written; the same content added twice to a layer returns the existing id.',
  tier: 'workspace',
  idempotent: false,
  input: z.strictObject({
    content: z
      .string()
      .max(maxContentLength, `at most ${maxContentLength} characters`)
      .refine((value) => value.trim() !== '', 'non-empty text')
      .describe('The fact to remember, in plain language'),
    layer: memoryLayerSchema.default('user').describe('Where to keep it (default user)'),
    tags: z.array(z.string().trim().min(1).max(64)).max(32).default([]).describe('Labels to filter by'),
    metadata: z
      .record(z.string(), z.union([z.string().max(memoryExtraLimits.metadataValueLength), z.number(), z.boolean()]))
      .refine(
        (metadata) =>
          Object.keys(metadata).length <= memoryExtraLimits.metadataKeys &&
          Object.keys(metadata).every((key) => key.length <= memoryExtraLimits.metadataKeyLength),
        `at most ${memoryExtraLimits.metadataKeys} keys of at most ${memoryExtraLimits.metadataKeyLength} characters`,
      )
      .default({})
      .describe('Extra key-value pairs kept with the memory'),
    refs: z
      .array(z.string().min(1).max(memoryExtraLimits.refLength))
      .max(memoryExtraLimits.refs)
      .default([])
      .describe(
        'Ids of knowledge items (or workspace file paths) this memory relates to; one that names nothing yet is stored with a warning, and the memory shows as stale until it exists',
      ),
    expires: z
      .string()
      .refine((value) => !Number.isNaN(Date.parse(value)), 'an ISO date or date-time such as 2026-12-31')
      .refine(
        (value) => Number.isNaN(Date.parse(value)) || Date.parse(value) > Date.now(),
        'a date in the future: a memory that has already expired is never returned',
      )
      .optional()
      .describe('After this date searches no longer return the memory; must be in the future'),
    lane: z
      .enum(memoryLanes)
      .optional()
      .describe(
        'private: only its owners see it; shared: everyone who reads the layer. Default private for agent, session and user, shared for project and wider; private there needs owner_agent_id or owner_team_id',
      ),
    owner_agent_id: z.string().min(1).optional().describe('The agent a private memory of a shared layer belongs to'),
    owner_team_id: z.string().min(1).optional().describe('The team a private memory of a shared layer belongs to (its agents see it)'),
    ...identityFields,
  }),
  get output() {
    return memoryAddOutput()
  },
  examples: [
    {
      title: 'Remember a project fact',
      input: { content: 'We store everything in Postgres', layer: 'project', tags: ['database'] },
      output: {
        success: true,
        memoryId: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3',
        message: 'Added mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3 to the project layer',
        deduplicated: false,
        redactions: [],
        similar: [],
        contradicts: [],
      },
    },
  ],
  async run(input, ctx) {
    const { addMemory } = await import('../../recall/add-memory.js')
    const added = await addMemory(
      {
        content: input.content,
        layer: input.layer,
        tags: input.tags,
        metadata: input.metadata,
        refs: input.refs,
        expires: input.expires,
        lane: input.lane,
        ownerAgentId: input.owner_agent_id,
        ownerTeamId: input.owner_team_id,
        identity: identityOf(input, ctx),
        teamId: ctx.runtime.teamId,
      },
      { workspace: ctx.workspace, store: ctx.store, author: ctx.runtime.author, warn: ctx.warn },
    )
    const { memoryId, deduplicated, redactions, similar, contradicts, commit } = added
    const message = deduplicated
      ? `The same content is already stored as ${memoryId} in the ${input.layer} layer; nothing was written`
      : `Added ${memoryId} to the ${input.layer} layer`
    return {
      output: { success: true as const, memoryId, message, deduplicated, redactions, similar, contradicts, ...(commit === undefined ? {} : { commit }) },
    }
  },
  render(output, style) {
    const lines = [output.deduplicated ? style.yellow(output.message) : style.green(output.message)]
    if (output.redactions.length > 0) lines.push(`Redacted ${output.redactions.map((entry) => plural(entry.count, entry.kind)).join(', ')} before writing`)
    for (const entry of output.similar) lines.push(style.dim(`similar: ${entry.memoryId} ${entry.content.slice(0, 80)}`))
    for (const entry of output.contradicts) lines.push(style.yellow(`contradicts ${entry.memoryId} (${entry.reason}): ${entry.content.slice(0, 80)}`))
    return lines.join('\n')
  },
})
