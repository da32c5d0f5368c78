import { budgetProblems, conditionPaths, operatorProblems } from '../policy-rule/condition.js'
import { ruleLanes, ruleScopes, ruleStates, type Condition, type PolicyRuleDefinition, type RuleDefect } from '../policy-rule/model.js'
import { readPatch, type PatchReading } from '../policy-rule/patch.js'
import type { Frontmatter } from '../frontmatter.js'
import { isOneOf } from './fields.js'
import type { ProblemList } from './problems.js'

/** A rule item is a policy rule when its frontmatter says `if` or `then`; an ingested agent rules file says neither. */
export function isPolicyRule(data: Record<string, unknown>): boolean {
  return data.if !== undefined || data.then !== undefined
}

/**
 * The policy part of a `type: rule` item's frontmatter, checked. Every wrongly written field is a
 * lint error at its line and a defect that keeps the rule from ever being applied: a rule that
 * cannot be read as written is skipped and reported, never guessed at.
 */
export function parsePolicyRule(frontmatter: Frontmatter, problems: ProblemList): PolicyRuleDefinition {
  const data = frontmatter.data
  const defects: RuleDefect[] = []
  const defect = (path: readonly (string | number)[], code: string, message: string, sample: unknown): void => {
    problems.error(frontmatter.lineOf(path), code, message)
    defects.push({ field: path.map(String).join('.'), message, sample })
  }
  const choice = <T extends string>(key: string, values: readonly T[], fallback: T): T => {
    const value = data[key] ?? fallback
    if (isOneOf(values, value)) return value
    defect([key], `unknown-${key}`, `unknown ${key} ${JSON.stringify(value)}; expected one of ${values.join(', ')}`, value)
    return fallback
  }
  const id = (key: string): string | undefined => {
    const value = data[key]
    if (value === undefined || value === null) return undefined
    if (typeof value === 'string' && value.trim() !== '') return value.trim()
    if (typeof value === 'number') return String(value)
    defect([key], 'invalid-rule-field', `${key} must be an id (a non-empty string)`, value)
    return undefined
  }
  const number = (key: string, fallback: number, min: number, max: number, integer: boolean): number => {
    const value = data[key] ?? fallback
    if (typeof value === 'number' && value >= min && value <= max && (!integer || Number.isInteger(value))) return value
    const kind = integer ? 'an integer' : 'a number'
    defect([key], `invalid-${key}`, `${key} must be ${kind} from ${min} to ${max} (default ${fallback}); found ${JSON.stringify(value)}`, value)
    return fallback
  }
  const checkCondition = (condition: Condition, path: (string | number)[]): void => {
    const unknown = operatorProblems(condition)
    for (const problem of unknown) defect([...path, ...problem.path], 'unknown-logic-operator', problem.message, condition)
    if (unknown.length > 0) return
    for (const problem of budgetProblems(condition)) defect([...path, ...problem.path], 'over-logic-budget', problem.message, condition)
  }

  const state = choice('state', ruleStates, 'active')
  const condition: Condition | undefined = data.if ?? undefined
  if (condition !== undefined) checkCondition(condition, ['if'])
  let exceptions: Condition[] = []
  if (Array.isArray(data.exceptions)) {
    exceptions = data.exceptions
    exceptions.forEach((exception, index) => checkCondition(exception, ['exceptions', index]))
  } else if (data.exceptions !== undefined && data.exceptions !== null) {
    defect(['exceptions'], 'invalid-exceptions', 'exceptions must be a list of JSON Logic conditions, any of which cancels the match', data.exceptions)
  }

  const then = data.then
  const reading: PatchReading = then === undefined ? { error: 'missing: a policy rule needs then (output, tool or extensions)' } : readPatch(then)
  if (reading.error !== undefined) {
    defect(['then'], 'invalid-then', `then is not a valid policy patch (${reading.error}); the rule is skipped as skipped_invalid_then until it is fixed`, then)
  }

  const scope = choice('scope', ruleScopes, 'global')
  const targetTeamId = id('target_team_id')
  const targetAgentId = id('target_agent_id')
  if (scope === 'team' && targetTeamId === undefined)
    defect(['scope'], 'missing-scope-target', 'scope team needs target_team_id: the team it applies to', scope)
  if (scope === 'agent' && targetAgentId === undefined)
    defect(['scope'], 'missing-scope-target', 'scope agent needs target_agent_id: the agent it applies to', scope)

  const lane = choice('lane', ruleLanes, 'shared')
  const ownerAgentId = id('owner_agent_id')
  const ownerTeamId = id('owner_team_id')
  if (lane === 'private' && ownerAgentId === undefined && ownerTeamId === undefined) {
    defect(['lane'], 'invalid_private_rule_owner', 'a private rule needs an owner: set owner_agent_id or owner_team_id (or make it lane: shared)', lane)
  }

  return {
    state,
    condition,
    exceptions,
    then,
    patch: reading.patch,
    scope,
    targetTeamId,
    targetAgentId,
    priority: number('priority', 0, -100, 100, true),
    weight: number('weight', 1, 0, 2, false),
    lane,
    ownerAgentId,
    ownerTeamId,
    conditionPaths: [...new Set([condition, ...exceptions].flatMap((part) => (part === undefined ? [] : conditionPaths(part))))].sort(),
    defects,
  }
}
