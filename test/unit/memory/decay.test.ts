import { describe, expect, it } from 'vitest'
import type { MemoryCounters } from '../../../src/memory/counters.js'
import { decayedTier, lastUsedMs } from '../../../src/memory/decay.js'

const day = 24 * 60 * 60 * 1000
const settings = { warmAfterDays: 30, coldAfterDays: 90, archiveAfterDays: 365, feedbackWeight: 0.5 }
const unused: MemoryCounters = {
  activations: 0,
  feedbackPositive: 0,
  feedbackNegative: 0,
  lastActivated: undefined,
  lastUseful: undefined,
  lastRehydrated: undefined,
}

describe('decay', () => {
  it('moves down by days since last use against the thresholds', () => {
    expect([10, 31, 91, 366].map((days) => decayedTier('hot', days * day, unused, settings))).toEqual(['hot', 'warm', 'cold', 'archive'])
  })

  it('never moves up: a lower memory waits for rehydration', () => {
    expect(decayedTier('archive', 0, unused, settings)).toBe('archive')
    expect(decayedTier('cold', 31 * day, unused, settings)).toBe('cold')
  })

  it('lets positive outcomes slow decay and negative ones speed it up, at most four times', () => {
    const helped = { ...unused, feedbackPositive: 2 }
    const hurt = { ...unused, feedbackNegative: 5 }
    expect(decayedTier('hot', 50 * day, helped, settings)).toBe('hot')
    expect(decayedTier('hot', 10 * day, hurt, settings)).toBe('warm')
    expect(decayedTier('hot', 23 * day, hurt, settings)).toBe('cold')
  })

  it('counts the last use that was not negative, a rehydration, or an edit', () => {
    const at = (days: number): string => new Date(Date.UTC(2026, 0, days)).toISOString()
    expect(lastUsedMs(Date.parse(at(1)), { ...unused, lastActivated: at(20), lastUseful: at(10), lastRehydrated: at(5) })).toBe(Date.parse(at(10)))
    expect(lastUsedMs(Date.parse(at(30)), { ...unused, lastUseful: at(10) })).toBe(Date.parse(at(30)))
  })
})
