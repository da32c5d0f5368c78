import { z } from 'zod'
import { memoryLayers } from '../../config/layers.js'
import type { MemoryIdentity } from '../../memory/locations.js'
import type { MemoryConsumer } from '../../memory/visibility.js'
import type { ToolContext } from '../context.js'

export const memoryLayerSchema = z.enum(memoryLayers)

/** Longest memory accepted: a memory is a fact, not a document. */
export const maxContentLength = 10_000

/**
 * What a memory carries beside its content, bounded like it: without a bound a memory of ten characters
 * could carry megabytes of metadata or refs, written to disk and read back by every later search.
 */
export const memoryExtraLimits = { metadataKeys: 32, metadataKeyLength: 64, metadataValueLength: 1000, refs: 64, refLength: 512 } as const

/** The question of memory_search and memory_recall. */
export const memoryQuerySchema = z
  .string()
  .max(2000)
  .refine((value) => value.trim() !== '', 'non-empty text')

export const memoryIdSchema = z.string().min(1).describe('A memory id, e.g. mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3')

/** Agent and session memories are partitioned by these ids; they default to MK_AGENT_ID and MK_SESSION_ID. */
export const identityFields = {
  agent: z.string().min(1).optional().describe('Agent id for the agent layer (default: MK_AGENT_ID)'),
  session: z.string().min(1).optional().describe('Session id for the session layer (default: MK_SESSION_ID)'),
}

/** Who is reading: private memories of shared layers are found only by their owner agent or team. */
export const consumerFields = {
  consumer_agent_id: z.string().min(1).optional().describe('The agent reading, for private memories it owns (default: MK_AGENT_ID)'),
  consumer_team_id: z.string().min(1).optional().describe("The reading agent's team, for private memories the team owns (default: MK_TEAM_ID)"),
}

export function consumerOf(
  input: { consumer_agent_id?: string | undefined; consumer_team_id?: string | undefined; agent?: string | undefined },
  ctx: ToolContext,
): MemoryConsumer {
  return { agentId: input.consumer_agent_id ?? input.agent ?? ctx.runtime.agentId, teamId: input.consumer_team_id ?? ctx.runtime.teamId }
}

export const scoresSchema = z.strictObject({
  text: z
    .number()
    .optional()
    .describe("Full-text evidence, 0-1: the share of the query's words (weighted by how rare they are) the text holds, with their BM25"),
  vector: z.number().optional().describe("Meaning evidence, 0-1: how far the embedding similarity stands above the query's similarity to memories in general"),
})

/** Whose private memory folders a call sees: on a team server (a credential's caller) the user and session layers are per agent. */
export function identityOf(input: { agent?: string | undefined; session?: string | undefined }, ctx: Pick<ToolContext, 'runtime'>): MemoryIdentity {
  return {
    agentId: input.agent ?? ctx.runtime.agentId,
    sessionId: input.session ?? ctx.runtime.sessionId,
    ...(ctx.runtime.credential === undefined ? {} : { perAgent: true }),
  }
}
