/** MUST NOT counts as MUST, SHOULD NOT and NOT RECOMMENDED as SHOULD, OPTIONAL as MAY (RFC 2119 / BCP 14). */
export const directiveSeverities = ['MUST', 'SHOULD', 'MAY'] as const
export type DirectiveSeverity = (typeof directiveSeverities)[number]

/** Higher is stronger: MUST 3, SHOULD 2, MAY 1. */
export function severityRank(severity: DirectiveSeverity): number {
  return 3 - directiveSeverities.indexOf(severity)
}

/** One normative statement inside a knowledge item. */
export interface Directive {
  /** `<item id>#<section anchor>-<index within the section>`: stable across edits of other sections. */
  id: string
  itemId: string
  itemType: string
  itemTitle: string
  /** Knowledge layer of the item (company … project). */
  layer: string
  status: string
  /** Knowledge source name from `.mkrc`. */
  source: string
  /** Workspace-relative path of the item's file. */
  path: string
  /** The heading the statement sits under, as a GitHub-style anchor (`input-validation`); `top` before any heading. */
  section: string
  /** Heading path from the top down, e.g. ["Security baseline", "Input validation"]. */
  breadcrumb: string[]
  text: string
  severity: DirectiveSeverity
  /** The keyword that set the severity as written (`MUST NOT`), or undefined when the severity is the default for a rule list item. */
  keyword: string | undefined
  /** File line of the statement. */
  line: number
  tags: string[]
  topics: string[]
  appliesTo: string[]
  authoritativeFor: string[]
}
