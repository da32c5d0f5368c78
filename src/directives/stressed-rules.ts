import type { RankedDirective } from './rank.js'
import { insistingLabel } from './statement-kind.js'

/** The section a rule sits in: its item and the headings above it. */
const sectionOf = (entry: RankedDirective): string => `${entry.directive.itemId}\u0000${entry.directive.breadcrumb.join('\u0000')}`

/** A short label before a colon that opens a rule ("Main branch: NEVER commit directly"). */
const openingLabel = /^([^:.!?`]{1,40}):\s/

/**
 * A rule its author stressed: written in bold as a whole, or after a bold label that insists
 * ("MANDATORY: Only ever upgrade ..."), not a bold term naming what the item is about ("Core: Create ...").
 */
function isStressed(entry: RankedDirective): boolean {
  if (entry.directive.emphasis !== true) return false
  const label = openingLabel.exec(entry.directive.text)?.[1]
  return label === undefined || insistingLabel.test(label)
}

/**
 * The ranking with the rules an author stressed (in bold, "**MANDATORY**: ...") brought
 * into the first `maxItems` when their section is served there: the best ranked of each section
 * follows right after the first rule of its section in the block, and the rules after it move
 * down. One a section, so a file written all in bold does not fill the block.
 */
export function bringStressedRules(ranked: readonly RankedDirective[], maxItems: number): RankedDirective[] {
  const head = ranked.slice(0, maxItems)
  const served = new Set(head.map(sectionOf))
  const stressed = ranked.slice(maxItems).filter((entry) => isStressed(entry) && served.has(sectionOf(entry)))
  if (stressed.length === 0) return [...ranked]
  const ordered: RankedDirective[] = []
  const placed = new Set<string>()
  const moved = new Set<RankedDirective>()
  for (const entry of head) {
    ordered.push(entry)
    const section = sectionOf(entry)
    if (placed.has(section)) continue
    placed.add(section)
    const first = stressed.find((candidate) => sectionOf(candidate) === section)
    if (first !== undefined) {
      ordered.push(first)
      moved.add(first)
    }
  }
  return [...ordered, ...ranked.slice(maxItems).filter((entry) => !moved.has(entry))]
}
