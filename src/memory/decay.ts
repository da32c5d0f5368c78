import { memoryTiers, tierRank, type MemoryTier } from './model.js'
import type { MemoryCounters } from './counters.js'

export interface DecaySettings {
  warmAfterDays: number
  coldAfterDays: number
  archiveAfterDays: number
  feedbackWeight: number
}

const dayMs = 24 * 60 * 60 * 1000

/** When a memory was last of use: its last activation that was not negative, its rehydration or its edit, whichever is latest. */
export function lastUsedMs(updatedMs: number, counters: MemoryCounters): number {
  const times = [updatedMs, Date.parse(counters.lastUseful ?? ''), Date.parse(counters.lastRehydrated ?? '')].filter((time) => !Number.isNaN(time))
  return Math.max(...times)
}

/**
 * The tier a memory decays to: its days since last use, divided by 1 + feedbackWeight × (positive −
 * negative outcomes) (at least a quarter), against the warm, cold and archive thresholds. Decay
 * only moves down: a memory already lower stays where it is until it is rehydrated.
 */
export function decayedTier(current: MemoryTier, idleMs: number, counters: MemoryCounters, settings: DecaySettings): MemoryTier {
  const feedback = 1 + settings.feedbackWeight * (counters.feedbackPositive - counters.feedbackNegative)
  const days = idleMs / dayMs / Math.max(0.25, feedback)
  const target: MemoryTier =
    days >= settings.archiveAfterDays ? 'archive' : days >= settings.coldAfterDays ? 'cold' : days >= settings.warmAfterDays ? 'warm' : 'hot'
  return tierRank(target) > tierRank(current) ? target : current
}

export function isMemoryTier(value: string | undefined): value is MemoryTier {
  return (memoryTiers as readonly (string | undefined)[]).includes(value)
}
