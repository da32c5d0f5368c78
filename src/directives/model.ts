import type { RuleActivation } from '../knowledge/model.js'
import { plainHeading } from '../knowledge/parse/title.js'

/** MUST NOT counts as MUST, SHOULD NOT and NOT RECOMMENDED as SHOULD, OPTIONAL as MAY (RFC 2119 / BCP 14). */
export const directiveSeverities = ['MUST', 'SHOULD', 'MAY'] as const
export type DirectiveSeverity = (typeof directiveSeverities)[number]

/** Higher is stronger: MUST 3, SHOULD 2, MAY 1. */
export function severityRank(severity: DirectiveSeverity): number {
  return 3 - directiveSeverities.indexOf(severity)
}

/** Changes whenever extraction reads a file differently, so an index built by an older mk reads the knowledge again. */
export const directiveExtraction = 5

/**
 * The headings under an item's title: the title ("Codex Guidelines for `worker`", read as "Codex
 * Guidelines for worker") names the whole file, not the rules under it.
 */
export function headingsBelowTitle(headingPath: readonly string[], title: string): string[] {
  const first = headingPath[0]
  return first !== undefined && (first === title || plainHeading(first) === title) ? headingPath.slice(1) : [...headingPath]
}

/** The headings a directive sits under, and the bold label captioning its list: where a reader finds it. */
export function directiveHeadings(directive: Pick<Directive, 'breadcrumb' | 'caption'>): string[] {
  return directive.caption === undefined ? directive.breadcrumb : [...directive.breadcrumb, directive.caption]
}

export function activationOf(item: { activation?: RuleActivation | undefined }): RuleActivation | undefined {
  return item.activation
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
  /** The code block written with the rule (fenced markdown), if any. */
  code?: string | undefined
  /** The item's activation, when it came from a rules file that states one. */
  activation?: RuleActivation | undefined
  /** Written in bold, or under a bold label that insists (CRITICAL, IMPORTANT, MANDATORY): the author wants it read first. */
  emphasis?: boolean
  /** A step of a numbered procedure: ranks after rules that stand alone. */
  step?: boolean
  /** For a rule the agent requests by its description (Cursor): that description, which relevance matches too. */
  requestedWhen?: string
  /** What its section says around the rules about where they apply ("snapshot tests, especially in `codex-rs/tui`"): the paths named there are the rule's too. */
  context?: string
  /** The bold label above the list it is an item of ("Response Schemas (API responses)"): a small heading, shown and searched with its headings. */
  caption?: string
}
