import { z } from 'zod'
import { contractRoute, placementFields, type ContractRoute } from './memory-contract.js'
import {
  appliedDto,
  invalidThenSampleDto,
  ruleMatchDto,
  skippedRules,
  toolConflictsSummary,
  toRuleMatchDto,
  toVisibilityDto,
  visibilityDto,
  type EvaluateOutput,
} from './memory-rules-dto.js'

/* Seed 002's rules/evaluate, tools/select and tools/feedback, answered by rules_evaluate, tools_select and tools_feedback. */

const contextField = z.record(z.string(), z.unknown()).describe('The planner context the rules read (agent {id, team_id}, environment, task, ...)')
const candidatesField = z.array(z.string().trim().min(1)).min(1).max(200).describe('The candidate tools, 1-200 names')
const rulesLimitField = z.number().int().min(1).max(200).default(50)

interface SelectionOutput {
  allowed: string[]
  denied: string[]
  preferred: string[]
  ordered: string[]
  selected?: string
  fallback?: string
}

interface SelectOutput {
  candidates: string[]
  selection: SelectionOutput
  rules: { shadow_selection?: SelectionOutput & { differs: boolean } }
}

const selectionDto = z.object({
  candidates: z.array(z.string()),
  allowed: z.array(z.string()),
  denied: z.array(z.string()),
  preferred: z.array(z.string()),
  ordered: z.array(z.string()),
  selected: z.string().nullable().describe('The tool to use; null when nothing is allowed'),
  fallback: z.string().optional().describe('With strict false, when no candidate was in every allow list: what was done instead'),
})

const toSelectionDto = (candidates: string[], selection: SelectionOutput): z.input<typeof selectionDto> => ({
  candidates,
  allowed: selection.allowed,
  denied: selection.denied,
  preferred: selection.preferred,
  ordered: selection.ordered,
  selected: selection.selected ?? null,
  ...(selection.fallback === undefined ? {} : { fallback: selection.fallback }),
})

/** A tool error the spec names: strict selection with nothing left is `400 no_tools_allowed`. */
const noToolsAllowed = (error: { errorCode: string }) => (error.errorCode === 'NO_TOOLS_ALLOWED' ? { status: 400, code: 'no_tools_allowed' } : undefined)

const rulesEvaluate = contractRoute({
  path: '/v1/memory/rules/evaluate',
  tool: 'rules_evaluate',
  request: z.strictObject({
    context: contextField,
    ...placementFields,
    include_shadow: z.boolean().default(true),
    limit: z.number().int().min(1).max(200).default(50),
  }),
  response: z.object({
    tenant_id: z.string(),
    scope: z.string(),
    considered: z.number(),
    matched: z.number(),
    skipped_invalid_then: z.number().describe('Rules skipped for an invalid then_json'),
    agent_visibility_summary: visibilityDto,
    active: z.array(ruleMatchDto),
    shadow: z.array(ruleMatchDto),
    applied: appliedDto,
  }),
  async answer(request, { call, place }) {
    const output = (await call('rules_evaluate', { context: request.context, include_shadow: request.include_shadow, limit: request.limit })) as EvaluateOutput
    return {
      ...place,
      considered: output.considered,
      matched: output.matched,
      skipped_invalid_then: skippedRules(output.skipped_invalid_then).count,
      agent_visibility_summary: toVisibilityDto(output.agent_visibility_summary),
      active: output.active.map(toRuleMatchDto),
      shadow: output.shadow.map(toRuleMatchDto),
      applied: output.applied,
    }
  },
})

const toolsSelect = contractRoute({
  path: '/v1/memory/tools/select',
  tool: 'tools_select',
  tools: ['tools_select', 'rules_evaluate'],
  request: z.strictObject({
    context: contextField,
    candidates: candidatesField,
    ...placementFields,
    include_shadow: z.boolean().default(false),
    rules_limit: rulesLimitField,
    strict: z.boolean().default(true),
  }),
  response: z.object({
    tenant_id: z.string(),
    scope: z.string(),
    candidates: z.array(z.string()).describe('The candidates, deduplicated'),
    selection: selectionDto,
    rules: z.object({
      considered: z.number(),
      matched: z.number(),
      skipped_invalid_then: z.number(),
      invalid_then_sample: invalidThenSampleDto,
      agent_visibility_summary: visibilityDto,
      applied: appliedDto,
      tool_conflicts_summary: z.array(z.string()),
      shadow_selection: selectionDto.extend({ differs: z.boolean() }).optional(),
      shadow_tool_conflicts_summary: z.array(z.string()).optional().describe('tool_conflicts_summary of the shadow rules (include_shadow)'),
    }),
  }),
  failure: noToolsAllowed,
  async answer(request, { call, place }) {
    const selected = (await call('tools_select', {
      context: request.context,
      candidates: request.candidates,
      strict: request.strict,
      include_shadow: request.include_shadow,
      rules_limit: request.rules_limit,
    })) as SelectOutput
    // The applied policy and the rule counts come from the same evaluation the selection made.
    const rules = (await call('rules_evaluate', {
      context: request.context,
      include_shadow: request.include_shadow,
      limit: request.rules_limit,
    })) as EvaluateOutput
    const skipped = skippedRules(rules.skipped_invalid_then)
    const shadow = selected.rules.shadow_selection
    return {
      ...place,
      candidates: selected.candidates,
      selection: toSelectionDto(selected.candidates, selected.selection),
      rules: {
        considered: rules.considered,
        matched: rules.matched,
        skipped_invalid_then: skipped.count,
        invalid_then_sample: skipped.sample,
        agent_visibility_summary: toVisibilityDto(rules.agent_visibility_summary),
        applied: rules.applied,
        tool_conflicts_summary: toolConflictsSummary(rules.applied.conflicts),
        ...(request.include_shadow ? { shadow_tool_conflicts_summary: toolConflictsSummary(rules.applied.shadow_conflicts ?? []) } : {}),
        ...(shadow === undefined ? {} : { shadow_selection: { ...toSelectionDto(selected.candidates, shadow), differs: shadow.differs } }),
      },
    }
  },
})

const toolsFeedback = contractRoute({
  path: '/v1/memory/tools/feedback',
  tool: 'tools_feedback',
  request: z.strictObject({
    context: contextField,
    candidates: candidatesField,
    selected_tool: z.string().trim().min(1),
    outcome: z.enum(['positive', 'negative', 'neutral']),
    ...placementFields,
    actor: z.string().max(200).optional().describe('Accepted; mk records the credential’s identity as the actor'),
    run_id: z.string().min(1).max(200).optional(),
    target: z.enum(['tool', 'all']).default('tool'),
    include_shadow: z.boolean().default(false),
    rules_limit: rulesLimitField.describe('Accepted; every matched rule that decided about the tool is credited'),
    note: z.string().max(2000).optional(),
    input_text: z.string().min(1).max(100_000).optional(),
    input_sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'a SHA-256 in lower-case hex (64 characters)')
      .optional(),
  }),
  response: z.object({
    ok: z.literal(true),
    tenant_id: z.string(),
    scope: z.string(),
    updated_rules: z.number(),
    rule_node_ids: z.array(z.string()),
    commit_id: z.string().nullable().describe('The MK_HOME commit recording the outcome; null when no rule was credited'),
    commit_hash: z.string().nullable(),
  }),
  async answer(request, { call, place }) {
    const output = (await call('tools_feedback', {
      context: request.context,
      candidates: request.candidates,
      selected_tool: request.selected_tool,
      outcome: request.outcome,
      target: request.target,
      include_shadow: request.include_shadow,
      ...(request.run_id === undefined ? {} : { run_id: request.run_id }),
      ...(request.note === undefined ? {} : { note: request.note }),
      // The spec asks for one of them; mk keeps only the hash, so a given hash wins over the text.
      ...(request.input_sha256 !== undefined
        ? { input_sha256: request.input_sha256 }
        : request.input_text !== undefined
          ? { input_text: request.input_text }
          : {}),
    })) as { updated_rules: number; rule_ids: string[]; commit?: string }
    return {
      ok: true as const,
      ...place,
      updated_rules: output.updated_rules,
      rule_node_ids: output.rule_ids,
      commit_id: output.commit ?? null,
      commit_hash: output.commit ?? null,
    }
  },
})

export const rulesRoutes: readonly ContractRoute[] = [rulesEvaluate, toolsSelect, toolsFeedback]
