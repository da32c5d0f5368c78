import type { GitIdentity } from '../git/identity.js'
import { countersOf, type ActivationOutcome } from '../memory/counters.js'
import type { MemoryIdentity } from '../memory/locations.js'
import { tierRank, type MemoryRecord, type MemoryTier } from '../memory/model.js'
import type { MemoryConsumer } from '../memory/visibility.js'
import type { Store } from '../stores/store.js'
import { byFolder, resolveMemoryIds } from './resolve-memory-ids.js'

/** Who asks for memories by id: only memories this reader may see are found. */
export interface MemoryReader {
  identity: MemoryIdentity
  consumer: MemoryConsumer
}

export interface ActivationRequest {
  ids: readonly string[]
  outcome: ActivationOutcome
  reason: string | undefined
  runId: string | undefined
}

export interface Activation {
  activated: string[]
  missing: string[]
  counters: { memoryId: string; activations: number; feedback_positive: number; feedback_negative: number; last_activated?: string }[]
}

/** Record that memories were used (and whether they helped) in their folders' ledgers; returns their counts after it. */
export async function activateMemories(request: ActivationRequest, reader: MemoryReader, store: Store): Promise<Activation> {
  const { resolved, missing } = await resolveMemoryIds(store, reader.identity, reader.consumer, request.ids)
  const at = new Date().toISOString()
  const counters: Activation['counters'] = []
  for (const group of byFolder(resolved)) {
    const folder = group[0]?.folder
    if (folder === undefined) continue
    await store.activations.append(
      folder,
      group.map(({ record }) => ({
        id: record.id,
        at,
        event: 'activate' as const,
        outcome: request.outcome,
        ...(request.reason === undefined ? {} : { reason: request.reason }),
        ...(request.runId === undefined ? {} : { run_id: request.runId }),
      })),
    )
    const folderCounters = await store.activations.counters(folder)
    for (const { record } of group) {
      const counted = countersOf(folderCounters, record.id)
      counters.push({
        memoryId: record.id,
        activations: counted.activations,
        feedback_positive: counted.feedbackPositive,
        feedback_negative: counted.feedbackNegative,
        ...(counted.lastActivated === undefined ? {} : { last_activated: counted.lastActivated }),
      })
    }
  }
  return { activated: resolved.map(({ record }) => record.id), missing, counters }
}

export interface RehydrationRequest {
  ids: readonly string[]
  targetTier: MemoryTier
  reason: string | undefined
}

export interface Rehydration {
  requested: string[]
  resolved: string[]
  moved: string[]
  noop: string[]
  missing: string[]
  commits: string[]
}

/** Bring memories back up to a tier, restarting their decay clock; those already there or above are left alone. */
export async function rehydrateMemories(
  request: RehydrationRequest,
  reader: MemoryReader,
  place: { store: Store; author: GitIdentity | undefined; warn(message: string): void },
): Promise<Rehydration> {
  const { store } = place
  const { redactSecrets } = await import('../memory/redact.js')
  // The reason reaches the files, the ledger and the commit message: redacted once, first.
  const reason = request.reason === undefined ? undefined : (await redactSecrets(request.reason)).text
  const { resolved, missing } = await resolveMemoryIds(store, reader.identity, reader.consumer, request.ids)
  const at = new Date().toISOString()
  const moved: string[] = []
  const commits: string[] = []
  for (const group of byFolder(resolved)) {
    const folder = group[0]?.folder
    if (folder === undefined) continue
    const records: MemoryRecord[] = group
      .filter(({ record }) => tierRank(record.tier ?? 'hot') > tierRank(request.targetTier))
      .map(({ record }) => ({
        ...record,
        tier: request.targetTier,
        lastRehydrated: { at, from: record.tier ?? 'hot', to: request.targetTier, reason },
      }))
    if (records.length === 0) continue
    // The ledger entry restarts the decay clock; the file says where the memory came from.
    await store.activations.append(
      folder,
      records.map((record) => ({ id: record.id, at, event: 'rehydrate' as const, ...(reason === undefined ? {} : { reason }) })),
    )
    const commit = await store.memories.rewrite(
      folder,
      records,
      `rehydrate ${records.length} to ${request.targetTier} (${folder.key})${reason === undefined ? '' : `\n\n${reason}\n`}`,
      { author: place.author, warn: place.warn },
    )
    if (commit !== undefined) commits.push(commit)
    moved.push(...records.map((record) => record.id))
  }
  const resolvedIds = resolved.map(({ record }) => record.id)
  return { requested: [...request.ids], resolved: resolvedIds, moved, noop: resolvedIds.filter((id) => !moved.includes(id)), missing, commits }
}
