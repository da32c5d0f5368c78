import type { Constraint, KnowledgeItem, Severity } from '../knowledge/model.js'
import { lineHash } from './waivers/fingerprint.js'
import type { CompiledPattern } from './scan/regex.js'

/** An accepted constraint ready to evaluate, with the item that states it. */
export interface ConstraintRule {
  constraint: Constraint
  item: KnowledgeItem
  /** The compiled regular expression; absent for `file` constraints, whose pattern is a glob. */
  regex: CompiledPattern | undefined
}

/** Where repository-wide findings (nothing imports X, no file matches Y) are located. */
export const workspaceRootFile = '.'

/** One violation as found, before waivers and the baseline are applied. */
export interface Finding {
  rule: ConstraintRule
  file: string
  line: number
  column: number
  /** What matched or is missing: a dependency name, a module specifier, the matched text, a path. */
  subject: string
  message: string
  /** Hash of the offending line's text (of '' when there is none): version 1 baselines are keyed by it. */
  lineHash: string
}

/** The lineHash of a finding that has no line (a missing file, a repository-wide rule). */
export const noLineHash = lineHash('')

export const waiverSources = ['inline', 'file'] as const
export type WaiverSource = (typeof waiverSources)[number]

export interface WaiverRef {
  source: WaiverSource
  /** Where the waiver is written. */
  file: string
  line: number
  reason: string
  owner: string | undefined
  expires: string | undefined
}

export const waiverProblemKinds = ['missing-reason', 'expired', 'unmatched', 'not-waivable', 'unknown-constraint'] as const

/** A waiver that does not apply (expired, unknown constraint, no reason, matched nothing), as reported. */
export interface WaiverProblem {
  kind: (typeof waiverProblemKinds)[number]
  constraintId: string
  file: string
  line: number
  message: string
}

export const severityRank: Readonly<Record<Severity, number>> = { info: 0, warn: 1, block: 2 }

export function atLeast(severity: Severity, threshold: Severity): boolean {
  return severityRank[severity] >= severityRank[threshold]
}
