/** Policy rules: `type: rule` knowledge items with `if`/`then` frontmatter (issue 15). */

export const ruleStates = ['active', 'shadow', 'draft'] as const
export type RuleState = (typeof ruleStates)[number]

export const ruleScopes = ['global', 'team', 'agent'] as const
export type RuleScope = (typeof ruleScopes)[number]

export const ruleLanes = ['private', 'shared'] as const
export type RuleLane = (typeof ruleLanes)[number]

export const outcomes = ['positive', 'negative', 'neutral'] as const
export type Outcome = (typeof outcomes)[number]

export const outputFormats = ['json', 'text', 'markdown'] as const
export type OutputFormat = (typeof outputFormats)[number]

/** A JSON Logic expression (jsonlogic.com): a JSON value of whatever shape. */
export type Condition = unknown

/** What a matching rule asks of the planner: the strict schema of `then`. */
export interface PolicyPatch {
  output?: { format?: OutputFormat; strict?: boolean }
  tool?: { allow?: string[]; deny?: string[]; prefer?: string[] }
  /** Namespace -> settings of a caller's own (`acme: {reviewers: 2}`), merged key by key. */
  extensions?: Record<string, Record<string, unknown>>
}

/** A field of a rule that is written wrongly, so the rule is never applied (reported by lint, skipped by evaluation). */
export interface RuleDefect {
  field: string
  message: string
  /** The value as written, for the caller to see what was skipped. */
  sample: unknown
}

/** A policy rule as written in its file, checked. */
export interface PolicyRuleDefinition {
  state: RuleState
  condition: Condition | undefined
  exceptions: Condition[]
  /** The `then` as written. */
  then: unknown
  /** The checked patch; undefined when `then` is invalid (see defects). */
  patch: PolicyPatch | undefined
  scope: RuleScope
  targetTeamId: string | undefined
  targetAgentId: string | undefined
  /** -100..100. */
  priority: number
  /** 0..2. */
  weight: number
  lane: RuleLane
  ownerAgentId: string | undefined
  ownerTeamId: string | undefined
  /** Context paths (`var`s) the condition and the exceptions read, sorted. */
  conditionPaths: string[]
  /** Empty when the rule can be applied. */
  defects: RuleDefect[]
}

/** A policy rule with the item it belongs to. */
export interface PolicyRule extends PolicyRuleDefinition {
  id: string
  summary: string
  /** Workspace-relative path of its file. */
  path: string
  /** HEAD commit of the git repository holding the file, when there is one. */
  commit: string | undefined
}

/** Outcomes recorded for a rule by tools_feedback. */
export interface RuleStats {
  positive: number
  negative: number
}

export const noStats: RuleStats = { positive: 0, negative: 0 }
