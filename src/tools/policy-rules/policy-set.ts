import type { Evaluation } from '../../policy-rules/evaluate.js'
import type { PolicyRules } from '../../policy-rules/load.js'
import { noStats } from '../../knowledge/policy-rule/model.js'
import type { ToolContext } from '../context.js'

/**
 * The policy rules, kept for the life of the process (the MCP server) while the knowledge files
 * stay the same: a warm call reads no knowledge file. The store keeps their outcome counts.
 */
let cachedRules: { key: string; rules: PolicyRules } | undefined

async function policyRules(ctx: ToolContext): Promise<PolicyRules> {
  const { policySignature, loadPolicyRules } = await import('../../policy-rules/load.js')
  const { workspace } = ctx
  const key = JSON.stringify([workspace.root, workspace.mkHome, workspace.config.knowledge, await policySignature(workspace)])
  if (cachedRules?.key !== key) cachedRules = { key, rules: await loadPolicyRules(workspace) }
  return cachedRules.rules
}

/** Evaluate the workspace's policy rules for a context; files that did not load and conditions that failed are warned about. */
export async function evaluateForContext(ctx: ToolContext, context: Record<string, unknown>): Promise<Evaluation> {
  const [{ evaluateRules }, { formatProblem }, loaded, stats] = await Promise.all([
    import('../../policy-rules/evaluate.js'),
    import('../../knowledge/load.js'),
    policyRules(ctx),
    ctx.store.outcomes.stats(),
  ])
  for (const problem of loaded.problems) ctx.warn(`${formatProblem(problem)} (a rule in it may be missing)`)
  const evaluation = evaluateRules(loaded.rules, context, (id) => stats.get(id) ?? noStats)
  for (const { ruleId, error } of evaluation.conditionErrors) ctx.warn(`rule ${ruleId}: its condition failed on this context (${error}); it does not apply`)
  return evaluation
}
