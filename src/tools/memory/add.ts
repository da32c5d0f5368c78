import { z } from 'zod'
import { defineTool } from '../define.js'
import { plural } from '../../text.js'
import { MkError } from '../../errors.js'
import { memoryLanes } from '../../memory/model.js'
import { identityFields, identityOf, maxContentLength, memoryLayerSchema } from './schemas.js'

/** Cosine similarity above which another memory is reported as a near duplicate. */
const similarThreshold = 0.85

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
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .default({})
      .describe('Extra key-value pairs kept with the memory'),
    refs: z
      .array(z.string().min(1))
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
  output: z.strictObject({
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
    const [{ folderForLayer }, { redactFields }, { newMemoryId }, { unownedPrivateProblem }] = await Promise.all([
      import('../../memory/locations.js'),
      import('../../memory/redact.js'),
      import('../../memory/ids.js'),
      import('../../memory/visibility.js'),
    ])
    const identity = identityOf(input, ctx)
    const folder = folderForLayer(ctx.workspace, identity, input.layer)
    const ownership = {
      lane: input.lane ?? (folder.private ? ('private' as const) : ('shared' as const)),
      ownerAgentId: input.owner_agent_id,
      ownerTeamId: input.owner_team_id,
    }
    if (unownedPrivateProblem(ownership, folder) !== undefined) {
      throw new MkError('INVALID_INPUT', `a private memory in the ${input.layer} layer needs owner_agent_id or owner_team_id: otherwise nobody could see it`, {
        details: { field: 'lane', hint: 'pass --owner-agent ID or --owner-team ID, or --lane shared' },
      })
    }
    // Every field that is written goes through the one redaction pass, not only the content.
    const { value: written, redactions } = await redactFields({ content: input.content, tags: input.tags, metadata: input.metadata, refs: input.refs })
    const { content } = written
    const index = await ctx.store.index.open(ctx.warn)
    if (written.refs.length > 0) {
      const { unresolvedRefs } = await import('../../sync/stale.js')
      for (const { ref, missing } of unresolvedRefs(written.refs, await ctx.store.index.knowledgeStatus(identity, ctx.warn), ctx.workspace.root)) {
        ctx.warn(`ref ${ref} names no ${missing}${missing === 'file' ? ' in the workspace' : ' here'}; searches show this memory as stale until it exists`)
      }
    }
    const now = new Date().toISOString()
    const outcome = await ctx.store.memories.add(
      folder,
      {
        id: newMemoryId(),
        layer: input.layer,
        content,
        tags: [...new Set(written.tags)],
        created: now,
        updated: now,
        source: identity.agentId !== undefined ? `agent:${identity.agentId}` : identity.sessionId !== undefined ? `session:${identity.sessionId}` : 'cli',
        refs: written.refs,
        supersedes: [],
        expires: input.expires === undefined ? undefined : new Date(input.expires).toISOString(),
        ...ownership,
        owner: folder.owner,
        producerAgentId: identity.agentId,
        metadata: written.metadata,
      },
      { identity, author: ctx.runtime.author, warn: ctx.warn },
    )
    const memoryId = outcome.deduplicated ? outcome.id : outcome.stored.record.id
    const filters = { kind: 'memory' as const, sources: [folder.key], consumer: { agentId: identity.agentId, teamId: ctx.runtime.teamId } }
    // Words find restatements without a model; only a process that already has the model loaded (the MCP server) adds meaning: the write path never loads it.
    const [byWords, byMeaning] = await Promise.all([
      index.search({ text: content, mode: 'fulltext', limit: 10, filters }),
      index.embedderWarm ? index.nearDuplicates(content, filters, similarThreshold) : Promise.resolve([]),
    ])
    const cosineOf = new Map(byMeaning.map((hit) => [hit.id, hit.score]))
    const neighbours = index
      .getMany([...new Set([...byMeaning, ...byWords].map((hit) => hit.id))].filter((id) => id !== memoryId))
      .map((doc) => ({ memoryId: doc.id, content: doc.content, cosine: cosineOf.get(doc.id) }))
    const { classifyNeighbours } = await import('../../memory/neighbours.js')
    const found = classifyNeighbours(content, neighbours, similarThreshold)
    const similar = found.similar.map((entry) => ({ memoryId: entry.memoryId, content: entry.content, score: entry.score }))
    const contradicts = found.contradicts.map((entry) => ({ memoryId: entry.memoryId, content: entry.content, reason: entry.reason }))
    const message = outcome.deduplicated
      ? `The same content is already stored as ${memoryId} in the ${input.layer} layer; nothing was written`
      : `Added ${memoryId} to the ${input.layer} layer`
    const lines = [outcome.deduplicated ? ctx.style.yellow(message) : ctx.style.green(message)]
    if (redactions.length > 0) lines.push(`Redacted ${redactions.map((entry) => `${plural(entry.count, entry.kind)}`).join(', ')} before writing`)
    for (const entry of similar) lines.push(ctx.style.dim(`similar: ${entry.memoryId} ${entry.content.slice(0, 80)}`))
    for (const entry of contradicts) lines.push(ctx.style.yellow(`contradicts ${entry.memoryId} (${entry.reason}): ${entry.content.slice(0, 80)}`))
    const commit = outcome.deduplicated ? undefined : outcome.commit
    return {
      output: {
        success: true as const,
        memoryId,
        message,
        deduplicated: outcome.deduplicated,
        redactions,
        similar,
        contradicts,
        ...(commit === undefined ? {} : { commit }),
      },
      display: lines.join('\n'),
    }
  },
})
