import type { PolicyRule, RuleScope, RuleStats } from '../knowledge/policy-rule/model.js'

export interface Rank {
  /** priority × 1000 + evidence_score × 100 × weight + specificity. */
  score: number
  /** 0..1 from recorded outcomes: (positive + 1) / (positive + negative + 2), 0.5 with none. */
  evidence_score: number
  priority: number
  weight: number
  /** 20 for an agent rule, 10 for a team rule, 0 for a global one, plus the context paths its condition reads (at most 9). */
  specificity: number
}

const scopeSpecificity: Readonly<Record<RuleScope, number>> = { global: 0, team: 10, agent: 20 }

const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits

export function evidenceScore(stats: RuleStats): number {
  return round((stats.positive + 1) / (stats.positive + stats.negative + 2), 4)
}

export function rankOf(rule: PolicyRule, stats: RuleStats): Rank {
  const evidence = evidenceScore(stats)
  const specificity = scopeSpecificity[rule.scope] + Math.min(rule.conditionPaths.length, 9)
  return {
    score: round(rule.priority * 1000 + evidence * 100 * rule.weight + specificity, 2),
    evidence_score: evidence,
    priority: rule.priority,
    weight: rule.weight,
    specificity,
  }
}

export interface Ranked {
  rule: PolicyRule
  rank: Rank
  stats: RuleStats
}

/** Highest score first; equal scores by rule id, so the order never depends on file order. */
export function byRank(a: Ranked, b: Ranked): number {
  return b.rank.score - a.rank.score || a.rule.id.localeCompare(b.rule.id)
}

/** Why `winner` outranks `loser`, by the part of the score that differs most in its favour. */
export function whyRanked(winner: Ranked, loser: Ranked): string {
  const w = winner.rank
  const l = loser.rank
  const parts = [
    { gain: (w.priority - l.priority) * 1000, text: `higher priority (${w.priority} vs ${l.priority})` },
    {
      gain: w.evidence_score * 100 * w.weight - l.evidence_score * 100 * l.weight,
      text: `more evidence × weight (${w.evidence_score} × ${w.weight} vs ${l.evidence_score} × ${l.weight})`,
    },
    { gain: w.specificity - l.specificity, text: `more specific (${w.specificity} vs ${l.specificity})` },
  ]
  const best = parts.reduce((top, part) => (part.gain > top.gain ? part : top))
  return best.gain > 0 ? best.text : `same rank (${w.score}); the rule id that sorts first wins`
}
