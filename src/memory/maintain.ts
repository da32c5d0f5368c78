import { countersOf, type MemoryCounters } from './counters.js'
import { decayedTier, lastUsedMs, type DecaySettings } from './decay.js'
import type { MemoryTier } from './model.js'

export interface TieredMemory {
  id: string
  folderKey: string
  tier: MemoryTier
  /** When its text last changed (ms). */
  updatedMs: number
}

export interface TierMove {
  memoryId: string
  folderKey: string
  from: MemoryTier
  to: MemoryTier
  /** Days since last use, before feedback weighs in. */
  idleDays: number
}

/** The moves decay makes now: pure, so a dry run and --apply plan the same thing. */
export function planDecay(
  memories: readonly TieredMemory[],
  countersByFolder: ReadonlyMap<string, ReadonlyMap<string, MemoryCounters>>,
  nowMs: number,
  settings: DecaySettings,
): TierMove[] {
  const moves: TierMove[] = []
  for (const memory of memories) {
    const counters = countersOf(countersByFolder.get(memory.folderKey) ?? new Map(), memory.id)
    const idleMs = Math.max(0, nowMs - lastUsedMs(memory.updatedMs, counters))
    const to = decayedTier(memory.tier, idleMs, counters, settings)
    if (to !== memory.tier) moves.push({ memoryId: memory.id, folderKey: memory.folderKey, from: memory.tier, to, idleDays: Math.floor(idleMs / 86_400_000) })
  }
  return moves
}
