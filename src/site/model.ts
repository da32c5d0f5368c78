import type { KnowledgeItem } from '../knowledge/model.js'
import type { FileVersion } from '../git/history.js'
import type { BaselinePoint } from './baseline-history.js'
import type { SiteMemoryFolder } from './memories.js'

export interface SiteViolation {
  constraintId: string
  severity: string
  file: string
  line: number
  message: string
}

export interface SiteItem {
  item: KnowledgeItem
  /** File name of its page under items/, unique on the site. */
  page: string
  /** Ids of items this one names in its text (besides supersedes), and those that name it. */
  relatesTo: string[]
  /** Undefined when the file is not in a git repository git can read. */
  history: FileVersion[] | undefined
  violations: SiteViolation[]
}

/** How the rules fared in agent sessions, as `mk rules adherence` reports it. */
export interface SiteAdherence {
  transcripts: number
  toolCalls: number
  constraints: { constraintId: string; knowledgeItemId: string; attempts: number; denied: number; inTree: number }[]
  directives: { directiveId: string; itemId: string; served: number }[]
}

export interface SiteData {
  title: string
  items: SiteItem[]
  /** When the check ran, ISO. */
  builtAt: string
  /** The check could not run (knowledge that does not load): why, shown on the site instead of violations. */
  checkProblem: string | undefined
  /** Violations whose constraint belongs to no item on the site, counted on the constraint map. */
  totalViolations: number
  /** The baseline's count at each commit that changed it, oldest first; undefined without a committed baseline. */
  baselineHistory: BaselinePoint[] | undefined
  /** The memory folders the builder may read (mk site build --memories); undefined when not asked for. */
  memories?: SiteMemoryFolder[] | undefined
  /** From the Claude Code transcripts of the project, when a local build found any; undefined otherwise. */
  adherence?: SiteAdherence | undefined
}
