import { MkError } from '../errors.js'
import type { PolicyPatch } from '../knowledge/policy-rule/model.js'
import type { Evaluation, SkippedRule } from './evaluate.js'
import { explainTools, mergePatches, type Conflict } from './merge.js'
import { byRank, type Ranked } from './rank.js'
import { selectTools, type Selection } from './select.js'

/**
 * What an evaluation of the policy rules reports to a caller, in the snake_case words of
 * rules_evaluate and tools_select: data only; the tools render it.
 */

export function toRuleMatch({ rule, rank, stats }: Ranked) {
  return {
    rule_id: rule.id,
    state: rule.state === 'shadow' ? ('shadow' as const) : ('active' as const),
    summary: rule.summary,
    rule_scope: rule.scope,
    ...(rule.targetAgentId === undefined ? {} : { target_agent_id: rule.targetAgentId }),
    ...(rule.targetTeamId === undefined ? {} : { target_team_id: rule.targetTeamId }),
    ...(rule.condition === undefined ? {} : { if: rule.condition }),
    then: rule.patch ?? ({} satisfies PolicyPatch),
    exceptions: rule.exceptions,
    stats: { ...stats },
    rank,
    match_detail: { condition_paths: rule.conditionPaths, condition_path_count: rule.conditionPaths.length },
    source: { path: rule.path, ...(rule.commit === undefined ? {} : { commit: rule.commit }) },
  }
}

export function toSkipped(skipped: readonly SkippedRule[]) {
  return skipped.flatMap(({ rule, defects }) =>
    defects.map((defect) => ({ rule_id: rule.id, path: rule.path, field: defect.field, error: defect.message, sample: defect.sample })),
  )
}

export function toVisibility(evaluation: Evaluation) {
  const { caller } = evaluation
  return {
    agent: { ...(caller.agentId === undefined ? {} : { id: caller.agentId }), ...(caller.teamId === undefined ? {} : { team_id: caller.teamId }) },
    rule_scope: evaluation.counts,
    lane: evaluation.lane,
  }
}

export function toConflicts(conflicts: readonly Conflict[]) {
  return conflicts.map((conflict) => ({ ...conflict }))
}

/** The rules that apply to a context (at most `limit` listed per state) and the policy they make together. */
export function evaluationReport(evaluation: Evaluation, options: { limit: number; includeShadow: boolean }) {
  const { merged, counts } = evaluation
  return {
    considered: counts.scanned,
    matched: counts.matched_active + counts.matched_shadow,
    skipped_invalid_then: toSkipped(evaluation.skipped),
    agent_visibility_summary: toVisibility(evaluation),
    active: evaluation.active.slice(0, options.limit).map(toRuleMatch),
    shadow: options.includeShadow ? evaluation.shadow.slice(0, options.limit).map(toRuleMatch) : [],
    applied: {
      policy: merged.policy,
      sources: merged.sources,
      conflicts: toConflicts(merged.conflicts),
      conflict_explain: merged.conflictExplain,
      tool_explain: explainTools(merged.tools),
    },
  }
}

function selectionOutput(selection: Selection) {
  return {
    allowed: selection.allowed,
    denied: selection.denied,
    preferred: selection.preferred,
    ordered: selection.ordered,
    ...(selection.selected === undefined ? {} : { selected: selection.selected }),
    ...(selection.fallback === undefined ? {} : { fallback: selection.fallback }),
  }
}

export interface ToolSelectionRequest {
  candidates: string[]
  strict: boolean
  includeShadow: boolean
  /** Most rules listed in rules.sources. */
  rulesLimit: number
}

/**
 * Which candidate tools the rules allow, deny and prefer, and the one to use; with includeShadow
 * what the shadow rules would select. Strict and nothing allowed: NO_TOOLS_ALLOWED.
 */
export function toolSelection(evaluation: Evaluation, request: ToolSelectionRequest) {
  const selection = selectTools(request.candidates, evaluation.merged.tools, request.strict)
  const toolExplain = [...explainTools(evaluation.merged.tools), ...selection.explain]
  if (selection.selected === undefined && request.strict) {
    throw new MkError('NO_TOOLS_ALLOWED', `no candidate tool is allowed by the policy rules: ${selection.explain.join('; ')}`, {
      details: {
        candidates: request.candidates,
        denied: Object.fromEntries(selection.deniedBy),
        tool_explain: toolExplain,
        hint: 'use a tool the rules allow, or pass strict: false (--no-strict) to fall back to deny-only',
      },
    })
  }
  const shadow = request.includeShadow && evaluation.shadow.length > 0 ? evaluation.shadow : []
  const shadowSelection =
    shadow.length === 0 ? undefined : selectTools(request.candidates, mergePatches([...evaluation.active, ...shadow].sort(byRank)).tools, request.strict)
  const toolConflicts = evaluation.merged.conflicts.filter((conflict) => conflict.path.startsWith('tool.'))
  const ranked = [...evaluation.active, ...shadow].sort(byRank).slice(0, request.rulesLimit)
  const { counts } = evaluation
  const output = {
    candidates: request.candidates,
    selection: selectionOutput(selection),
    rules: {
      considered: counts.scanned,
      matched: counts.matched_active + counts.matched_shadow,
      skipped_invalid_then: toSkipped(evaluation.skipped),
      agent_visibility_summary: toVisibility(evaluation),
      sources: ranked.map(({ rule, rank }) => ({
        rule_id: rule.id,
        state: rule.state === 'shadow' ? ('shadow' as const) : ('active' as const),
        score: rank.score,
      })),
      conflict_explain: evaluation.merged.conflictExplain,
      tool_explain: toolExplain,
      tool_conflicts_summary: {
        count: toolConflicts.length,
        tools: [...new Set(toolConflicts.map((conflict) => conflict.path.slice('tool.'.length)))].sort(),
      },
      ...(shadowSelection === undefined
        ? {}
        : {
            shadow_selection: {
              ...selectionOutput(shadowSelection),
              differs: shadowSelection.selected !== selection.selected || shadowSelection.allowed.join() !== selection.allowed.join(),
            },
          }),
    },
  }
  return { output, selection, shadowSelection }
}
