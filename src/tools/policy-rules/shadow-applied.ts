import { z } from 'zod'
import type { Evaluation } from '../../policy-rules/evaluate.js'
import { explainTools, mergePatches } from '../../policy-rules/merge.js'
import { toConflicts } from '../../policy-rules/report.js'
import { conflictSchema, policySchema } from './policy-schemas.js'

/**
 * Seed 002's `applied.shadow_*`: the policy the matched shadow rules make together, by the
 * same merge as the active one, with its sources, conflicts and tool explanation. Reported
 * when shadow rules are asked for; never applied.
 */
export const shadowAppliedFields = {
  shadow_policy: policySchema.optional().describe('The policy the matched shadow rules would make together (include_shadow); never applied'),
  shadow_sources: z.array(z.string()).optional().describe('The shadow rules that policy comes from, highest rank first'),
  shadow_conflicts: z.array(conflictSchema).optional(),
  shadow_conflict_explain: z.array(z.string()).optional().describe('One line per conflict among the shadow rules'),
  shadow_tool_explain: z.array(z.string()).optional().describe('How the shadow tool lists came about, one line per decision'),
}

export type ShadowApplied = { [Key in keyof typeof shadowAppliedFields]: z.output<(typeof shadowAppliedFields)[Key]> }

/** The shadow part of `applied`, from every matched shadow rule (not only those listed under the limit). */
export function shadowApplied(evaluation: Pick<Evaluation, 'shadow'>): Required<ShadowApplied> {
  const merged = mergePatches(evaluation.shadow)
  return {
    shadow_policy: merged.policy,
    shadow_sources: merged.sources,
    shadow_conflicts: toConflicts(merged.conflicts),
    shadow_conflict_explain: merged.conflictExplain,
    shadow_tool_explain: explainTools(merged.tools),
  }
}
