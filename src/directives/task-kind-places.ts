import type { RankedDirective } from './rank.js'

/** Whether the first `maxItems` of a ranking hold a rule of the section on the task's kind of work. */
export const servesTaskKind = (ranked: readonly RankedDirective[], maxItems: number): boolean =>
  ranked.slice(0, maxItems).some((entry) => entry.onTaskKind === true)

/**
 * The ranking with places kept in the first `maxItems` for the best rules of the section on the
 * task's kind of work ("Testing Standards" for "Write a test that ..."), once the block holds one
 * of them: when fewer than `places` rank that high, the best of the others move up into the last
 * places, in their order, and the rules they displace follow right after. Rules sharing the task's
 * subject words keep the first places; the section on how that work is done is not crowded out by
 * MUST rules of other sections or by command lists that share its words (issue 29, ADR 0034).
 * A block that holds none of them is left alone: the ranking did not find that section relevant
 * ("Add a v2 app-server request" is not about a "Client->server request payloads" section).
 */
export function keepPlacesForTaskKind(
  ranked: readonly RankedDirective[],
  maxItems: number,
  places: number,
  served = servesTaskKind(ranked, maxItems),
): RankedDirective[] {
  if (!served) return [...ranked]
  const wanted = Math.min(places, maxItems, ranked.filter((entry) => entry.onTaskKind === true).length)
  const head: RankedDirective[] = []
  const displaced: RankedDirective[] = []
  let onKind = 0
  let next = 0
  while (head.length < maxItems && next < ranked.length) {
    const entry = ranked[next++] as RankedDirective
    const isOnKind = entry.onTaskKind === true
    if (!isOnKind && maxItems - head.length <= wanted - onKind) {
      displaced.push(entry)
      continue
    }
    head.push(entry)
    if (isOnKind) onKind++
  }
  return [...head, ...displaced, ...ranked.slice(next)]
}
