import type { RankedDirective } from './rank.js'
import { bringStressedRules } from './stressed-rules.js'
import { keepPlacesForTaskKind, servesTaskKind } from './task-kind-places.js'

/**
 * The order the block takes its rules in: the ranking, with each served section's stressed rule
 * brought in (stressed-rules.ts), then places kept for the section on the task's kind of work
 * (task-kind-places.ts). Whether the block serves that section is judged on the ranking before a
 * rule was brought in: a brought rule that pushed the section's one rule out of the block must not
 * take the section's places away.
 */
export function blockOrder(ranked: readonly RankedDirective[], maxItems: number, taskKindPlaces: number): RankedDirective[] {
  const served = servesTaskKind(ranked, maxItems)
  return keepPlacesForTaskKind(bringStressedRules(ranked, maxItems), maxItems, taskKindPlaces, served)
}
