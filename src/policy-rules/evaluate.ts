import { evaluateCondition, type ConditionResult } from '../knowledge/policy-rule/condition.js'
import { mergePatches, type Merged } from './merge.js'
import type { PolicyRule, RuleDefect, RuleStats } from '../knowledge/policy-rule/model.js'
import { byRank, rankOf, type Ranked } from './rank.js'
import { callerOf, inScope, laneFilter, laneVisible, type Caller, type LaneFilter } from './visibility.js'

export interface RuleScopeCounts {
  scanned: number
  filtered_by_scope: number
  filtered_by_lane: number
  filtered_by_condition: number
  skipped_invalid_then: number
  matched_active: number
  matched_shadow: number
}

/** A visible rule that is written wrongly: never applied, always reported. */
export interface SkippedRule {
  rule: PolicyRule
  defects: RuleDefect[]
}

export interface Evaluation {
  caller: Caller
  lane: LaneFilter
  counts: RuleScopeCounts
  skipped: SkippedRule[]
  /** Matched rules, highest rank first. */
  active: Ranked[]
  shadow: Ranked[]
  /** The policy the active rules make together. */
  merged: Merged
  /** Rules whose condition failed while it was evaluated (a type the operator cannot take): counted as not matching. */
  conditionErrors: { ruleId: string; error: string }[]
}

/**
 * Which policy rules apply to a context, in the order the issue sets: scope (global always; team
 * and agent rules only for their target), then lane (private rules only for their owner, when the
 * context names an agent or team), then rules written wrongly are skipped, then the condition and
 * its exceptions. Draft rules are never considered.
 */
export function evaluateRules(rules: readonly PolicyRule[], context: Record<string, unknown>, statsOf: (ruleId: string) => RuleStats): Evaluation {
  const caller = callerOf(context)
  const lane = laneFilter(caller)
  const counts: RuleScopeCounts = {
    scanned: 0,
    filtered_by_scope: 0,
    filtered_by_lane: 0,
    filtered_by_condition: 0,
    skipped_invalid_then: 0,
    matched_active: 0,
    matched_shadow: 0,
  }
  const skipped: SkippedRule[] = []
  const active: Ranked[] = []
  const shadow: Ranked[] = []
  const conditionErrors: Evaluation['conditionErrors'] = []
  for (const rule of rules) {
    if (rule.state === 'draft') continue
    counts.scanned++
    if (!inScope(rule, caller)) {
      counts.filtered_by_scope++
      continue
    }
    if (lane.applied && !laneVisible(rule, caller)) {
      counts.filtered_by_lane++
      continue
    }
    if (rule.defects.length > 0) {
      counts.skipped_invalid_then++
      skipped.push({ rule, defects: rule.defects })
      continue
    }
    const condition: ConditionResult = rule.condition === undefined ? { holds: true } : evaluateCondition(rule.condition, context)
    const exception = condition.holds
      ? rule.exceptions.map((part) => evaluateCondition(part, context)).find((result) => result.holds || result.error)
      : undefined
    const error = condition.error ?? exception?.error
    if (error !== undefined) conditionErrors.push({ ruleId: rule.id, error })
    if (!condition.holds || exception !== undefined) {
      counts.filtered_by_condition++
      continue
    }
    const stats = statsOf(rule.id)
    const ranked = { rule, rank: rankOf(rule, stats), stats }
    if (rule.state === 'shadow') {
      counts.matched_shadow++
      shadow.push(ranked)
    } else {
      counts.matched_active++
      active.push(ranked)
    }
  }
  active.sort(byRank)
  shadow.sort(byRank)
  return { caller, lane, counts, skipped, active, shadow, merged: mergePatches(active), conditionErrors }
}
