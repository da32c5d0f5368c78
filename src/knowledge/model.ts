import type { KnowledgeLayer } from '../config/layers.js'
import type { PolicyRuleDefinition } from './policy-rule/model.js'

export const knowledgeTypes = ['adr', 'policy', 'pattern', 'spec', 'rule'] as const
export type KnowledgeType = (typeof knowledgeTypes)[number]

export { knowledgeStatuses, type KnowledgeStatus } from '../config/knowledge-statuses.js'

/** Statuses of items on their way to acceptance: `knowledge check` does not enforce their constraints yet, and says so. */
const pendingStatuses: ReadonlySet<string> = new Set(['proposed', 'draft'])

export function isPending(status: string): boolean {
  return pendingStatuses.has(status)
}

/**
 * How an agent's rules file says its rules come into play (Cursor's rule types): `always` for every
 * task in its scope, `auto` when a file the task touches matches its globs, `requested` when the
 * task is about what its description says, `manual` only when someone names it (never served by
 * `rules directives`). Knowledge items without one are served by relevance.
 */
export const ruleActivations = ['always', 'auto', 'requested', 'manual'] as const
export type RuleActivation = (typeof ruleActivations)[number]

export const severities = ['info', 'warn', 'block'] as const
export type Severity = (typeof severities)[number]

export const constraintTargets = ['dependency', 'import', 'code', 'file'] as const
export type ConstraintTarget = (typeof constraintTargets)[number]

export const constraintOperators = ['must_use', 'must_not_use', 'must_match', 'must_not_match', 'must_exist', 'must_not_exist'] as const
export type ConstraintOperator = (typeof constraintOperators)[number]

/** Which operators make sense for which target; any other pair is a lint error. */
export const operatorsByTarget: Readonly<Record<ConstraintTarget, readonly ConstraintOperator[]>> = {
  dependency: ['must_use', 'must_not_use'],
  import: ['must_use', 'must_not_use'],
  code: ['must_match', 'must_not_match'],
  file: ['must_exist', 'must_not_exist'],
}

export interface Constraint {
  /** Default `<item id>#<index>`. */
  id: string
  operator: ConstraintOperator
  target: ConstraintTarget
  pattern: string
  /** Globs relative to the workspace; empty means everything. */
  paths: string[]
  exclude: string[]
  severity: Severity
  message: string | undefined
  waivable: boolean
  /** Line of the constraint in its knowledge file. */
  line: number
}

/** The ADR dialect a file was written in: mk frontmatter, MADR-style status lines, or adr-tools numbered headings. */
export type KnowledgeFormat = 'mk' | 'madr' | 'adr-tools'

export interface Section {
  /** Heading texts from the top down, e.g. ["Decision", "Consequences"]. */
  headingPath: string[]
  line: number
  text: string
}

export interface KnowledgeItem {
  id: string
  type: KnowledgeType
  title: string
  /**
   * One of `knowledgeStatuses` when the written status maps to one (Approved -> accepted); otherwise
   * the written words in lower case (`on hold`). Only `accepted` items enforce constraints.
   */
  status: string
  /** The status as written in the file; undefined when the file writes none and the default applies. */
  statusRaw: string | undefined
  layer: KnowledgeLayer
  /** Default severity of its constraints. */
  severity: Severity | undefined
  tags: string[]
  /** Subjects its directives are about (`security`, `persistence`); optional frontmatter `topics`. */
  topics: string[]
  /** Architecture layers (`persistence`) or path globs (`src/api/**`) its directives apply to; empty means everywhere. */
  appliesTo: string[]
  /** Topics this item is the authority on: its directives rank first when a task touches them. */
  authoritativeFor: string[]
  /** When an agent rules file's rules apply (frontmatter `activation`: always, auto, requested, manual); undefined for ordinary items. */
  activation?: RuleActivation | undefined
  summary: string | undefined
  supersedes: string[]
  supersededBy: string[]
  constraints: Constraint[]
  /** A `type: rule` item whose frontmatter says `if` or `then` is a policy rule (src/policy-rules). */
  policy?: PolicyRuleDefinition
  date: string | undefined
  format: KnowledgeFormat
  /** Source name from `.mkrc`. */
  source: string
  /** Path relative to the workspace root (posix). */
  path: string
  /** Absolute path on disk. */
  absolutePath: string
  /** Markdown body without frontmatter. */
  body: string
  /** File line where the body starts; `outlineMarkdown(body, bodyStartLine)` gives its sections. */
  bodyStartLine: number
  /** Lines where the supersedes and superseded-by links are written, for lint messages. */
  relationLines: { supersedes: number; supersededBy: number }
}

export type ProblemSeverity = 'error' | 'warning' | 'info'

/** Something wrong in a knowledge file, located precisely enough to fix. */
export interface KnowledgeProblem {
  file: string
  line: number
  code: string
  message: string
  severity: ProblemSeverity
  /** The problem may hide a constraint (an unreadable file, a broken constraint), so `knowledge check` cannot pass. */
  hidesConstraints?: boolean
}
