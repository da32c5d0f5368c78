import type { ToolContext } from '../context.js'
import { evaluateForContext } from '../policy-rules/policy-set.js'

export interface PolicyDenial {
  reason: string
  ruleIds: string[]
}

/** Whether the policy rules refuse a tool for this context, as tools_select would: the one gate every agent hook uses. */
export async function policyDenial(toolName: string, context: Record<string, unknown>, ctx: ToolContext): Promise<PolicyDenial | undefined> {
  const { selectTools } = await import('../../policy-rules/select.js')
  const evaluation = await evaluateForContext(ctx, context)
  const selection = selectTools([toolName], evaluation.merged.tools, true)
  if (selection.selected !== undefined) return undefined
  const ruleIds = selection.deniedBy.get(toolName) ?? []
  const summaries = new Map(evaluation.active.map(({ rule }) => [rule.id, rule.summary]))
  const why = ruleIds.map((id) => `${id} (${summaries.get(id) ?? 'no summary'})`).join(', ')
  return {
    reason: `mk policy rules: ${toolName}: ${evaluation.merged.tools.deniedBy.has(toolName) ? 'denied by' : 'not in the allow list of'} ${why}`,
    ruleIds,
  }
}
