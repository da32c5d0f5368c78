/** What a folder's activation ledger records and what is counted from it, whichever store keeps the ledger. */
export const activationOutcomes = ['positive', 'negative', 'neutral'] as const
export type ActivationOutcome = (typeof activationOutcomes)[number]

/** One line of a folder's ledger: a use of a memory and how it went, or a move back up a tier. */
export type LedgerEntry =
  | { id: string; at: string; event: 'activate'; outcome: ActivationOutcome; reason?: string; run_id?: string }
  | { id: string; at: string; event: 'rehydrate'; reason?: string }

/** What the ledger says of one memory. */
export interface MemoryCounters {
  activations: number
  feedbackPositive: number
  feedbackNegative: number
  /** ISO time of the last activation. */
  lastActivated: string | undefined
  /** ISO time of the last activation that was not negative: a use that did not help does not keep a memory hot. */
  lastUseful: string | undefined
  /** ISO time of the last rehydration. */
  lastRehydrated: string | undefined
}

export const emptyCounters = (): MemoryCounters => ({
  activations: 0,
  feedbackPositive: 0,
  feedbackNegative: 0,
  lastActivated: undefined,
  lastUseful: undefined,
  lastRehydrated: undefined,
})

export function countersOf(counters: ReadonlyMap<string, MemoryCounters>, id: string): MemoryCounters {
  return counters.get(id) ?? emptyCounters()
}
