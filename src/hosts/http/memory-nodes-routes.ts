import { z } from 'zod'
import { MkError } from '../../errors.js'
import { isMemoryId } from '../../memory/ids.js'
import { contractRoute, placementFields, type ContractRoute } from './memory-contract.js'

/* Seed 002's nodes/activate and archive/rehydrate, answered by memory_activate and memory_rehydrate. */

const idsField = z.array(z.string().min(1)).min(1).max(200)

/** What both routes take besides their own fields: the nodes, and the task they were used for. */
const nodeFields = {
  ...placementFields,
  actor: z.string().max(200).optional().describe('Accepted; mk records the credential’s identity as the actor'),
  node_ids: idsField.optional().describe('Memory ids, 1-200'),
  client_ids: idsField.optional().describe('mk has no client ids: each is looked up as a memory id'),
  reason: z.string().max(500).optional(),
  input_text: z.string().min(1).max(100_000).optional(),
  input_sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'a SHA-256 in lower-case hex (64 characters)')
    .optional(),
}

/**
 * The ids a request names, once each: node_ids are memory ids; a client id that is not one names
 * nothing here (mk has no client ids) and is missing. Refuses a request without ids or without
 * the task (`input_text` or `input_sha256`).
 */
function requestedIds(request: {
  node_ids?: string[] | undefined
  client_ids?: string[] | undefined
  input_text?: string | undefined
  input_sha256?: string | undefined
}): { requested: string[]; lookup: string[]; unknown: string[] } {
  if (request.node_ids === undefined && request.client_ids === undefined) {
    throw new MkError('INVALID_INPUT', 'node_ids or client_ids: give at least one of them', {
      details: { field: 'node_ids', hint: 'pass node_ids with the ids of the memories (1-200)' },
    })
  }
  if (request.input_text === undefined && request.input_sha256 === undefined) {
    throw new MkError('INVALID_INPUT', 'input_text or input_sha256 is required: the task the nodes were used for', {
      details: { field: 'input_text', hint: 'pass input_text with the task, or input_sha256 with its SHA-256 in hex' },
    })
  }
  const requested = [...new Set([...(request.node_ids ?? []), ...(request.client_ids ?? [])])]
  const clientOnly = new Set((request.client_ids ?? []).filter((id) => !isMemoryId(id) && !(request.node_ids ?? []).includes(id)))
  return { requested, lookup: requested.filter((id) => !clientOnly.has(id)), unknown: [...clientOnly] }
}

const nodesActivate = contractRoute({
  path: '/v1/memory/nodes/activate',
  tool: 'memory_activate',
  request: z.strictObject({
    ...nodeFields,
    run_id: z.string().max(200).optional(),
    outcome: z.enum(['positive', 'negative', 'neutral']).default('neutral'),
    activate: z.boolean().default(true).describe('Accepted; mk records every use in the activation ledger'),
  }),
  response: z.object({
    tenant_id: z.string(),
    scope: z.string(),
    commit_id: z.string().nullable().describe('Always null: activations go to an append-only ledger, not a commit'),
    commit_hash: z.string().nullable(),
    activated: z.object({
      requested: z.number(),
      resolved: z.number(),
      found: z.number(),
      updated: z.number(),
      missing: z.number(),
      node_ids: z.array(z.string()).describe('The nodes updated'),
      missing_ids: z.array(z.string()),
    }),
  }),
  async answer(request, { call, place }) {
    const ids = requestedIds(request)
    const output =
      ids.lookup.length === 0
        ? { activated: [], missing: [] }
        : ((await call('memory_activate', {
            ids: ids.lookup,
            outcome: request.outcome,
            ...(request.reason === undefined ? {} : { reason: request.reason }),
            ...(request.run_id === undefined ? {} : { run_id: request.run_id }),
          })) as { activated: string[]; missing: string[] })
    const found = output.activated.length
    const missing = [...output.missing, ...ids.unknown]
    return {
      ...place,
      commit_id: null,
      commit_hash: null,
      activated: {
        requested: ids.requested.length,
        resolved: found,
        found,
        updated: found,
        missing: missing.length,
        node_ids: output.activated,
        missing_ids: missing,
      },
    }
  },
})

const archiveRehydrate = contractRoute({
  path: '/v1/memory/archive/rehydrate',
  tool: 'memory_rehydrate',
  request: z.strictObject({ ...nodeFields, target_tier: z.enum(['warm', 'hot']).default('warm') }),
  response: z.object({
    tenant_id: z.string(),
    scope: z.string(),
    target_tier: z.enum(['warm', 'hot']),
    commit_id: z.string().nullable().describe('The MK_HOME commit of moved private memories; null when none moved'),
    commit_hash: z.string().nullable(),
    rehydrated: z.object({
      requested: z.number(),
      resolved: z.number(),
      moved: z.number(),
      noop: z.number(),
      missing: z.number(),
      moved_ids: z.array(z.string()),
      noop_ids: z.array(z.string()),
      missing_ids: z.array(z.string()),
    }),
  }),
  async answer(request, { call, place }) {
    const ids = requestedIds(request)
    const rehydrated =
      ids.lookup.length === 0
        ? { resolved: [], moved: [], noop: [], missing: [], commits: [] }
        : ((await call('memory_rehydrate', {
            ids: ids.lookup,
            target_tier: request.target_tier,
            ...(request.reason === undefined ? {} : { reason: request.reason }),
          })) as { resolved: string[]; moved: string[]; noop: string[]; missing: string[]; commits: string[] })
    const output = { ...rehydrated, requested: ids.requested, missing: [...rehydrated.missing, ...ids.unknown] }
    const commit = output.commits[0] ?? null
    return {
      ...place,
      target_tier: request.target_tier,
      commit_id: commit,
      commit_hash: commit,
      rehydrated: {
        requested: output.requested.length,
        resolved: output.resolved.length,
        moved: output.moved.length,
        noop: output.noop.length,
        missing: output.missing.length,
        moved_ids: output.moved,
        noop_ids: output.noop,
        missing_ids: output.missing,
      },
    }
  },
})

export const nodesRoutes: readonly ContractRoute[] = [archiveRehydrate, nodesActivate]
