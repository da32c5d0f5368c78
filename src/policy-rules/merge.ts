import type { PolicyPatch } from '../knowledge/policy-rule/model.js'
import { whyRanked, type Ranked } from './rank.js'

export interface Conflict {
  /** What the rules disagree on: `output.format`, `extensions.acme.reviewers`, `tool.shell`. */
  path: string
  winner: string
  loser: string
  winner_value: unknown
  loser_value: unknown
}

/** What the tool parts of the matched rules say, kept apart for selection and explanations. */
export interface ToolVerdicts {
  /** The intersection of every allow list; undefined when no rule restricts tools. */
  allowed: Set<string> | undefined
  /** The rules with an allow list, in rank order. */
  allowRules: { id: string; tools: string[] }[]
  /** Each denied tool, with the rules that deny it in rank order. */
  deniedBy: Map<string, string[]>
  /** Each preferred tool once, in the order of the highest-ranked rule preferring it. */
  preferred: { tool: string; ruleId: string; score: number }[]
}

export interface Merged {
  policy: PolicyPatch
  sources: string[]
  conflicts: Conflict[]
  conflictExplain: string[]
  tools: ToolVerdicts
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/** Scalar settings (output format, strict, extension keys): the highest-ranked rule sets each; a lower one that differs is a conflict. */
class Settings {
  readonly values = new Map<string, { value: unknown; by: Ranked; extension?: { namespace: string; key: string } }>()
  readonly conflicts: { conflict: Conflict; explain: string }[] = []

  set(path: string, value: unknown, by: Ranked, extension?: { namespace: string; key: string }): void {
    const held = this.values.get(path)
    if (held === undefined) {
      this.values.set(path, { value, by, ...(extension === undefined ? {} : { extension }) })
      return
    }
    if (same(held.value, value)) return
    const conflict = { path, winner: held.by.rule.id, loser: by.rule.id, winner_value: held.value, loser_value: value }
    const explain = `${path}: ${conflict.winner} wins over ${conflict.loser} (${JSON.stringify(held.value)} instead of ${JSON.stringify(value)}) — ${whyRanked(held.by, by)}`
    this.conflicts.push({ conflict, explain })
  }

  get(path: string): unknown {
    return this.values.get(path)?.value
  }
}

function toolVerdicts(ranked: readonly Ranked[]): ToolVerdicts {
  const allowRules = ranked.flatMap(({ rule }) => (rule.patch?.tool?.allow === undefined ? [] : [{ id: rule.id, tools: rule.patch.tool.allow }]))
  const allowed =
    allowRules.length === 0
      ? undefined
      : allowRules.slice(1).reduce((set, entry) => new Set(entry.tools.filter((tool) => set.has(tool))), new Set(allowRules[0]?.tools))
  const deniedBy = new Map<string, string[]>()
  const preferred: ToolVerdicts['preferred'] = []
  for (const { rule, rank } of ranked) {
    for (const tool of rule.patch?.tool?.deny ?? []) deniedBy.set(tool, [...(deniedBy.get(tool) ?? []), rule.id])
    for (const tool of rule.patch?.tool?.prefer ?? []) {
      if (!preferred.some((entry) => entry.tool === tool)) preferred.push({ tool, ruleId: rule.id, score: rank.score })
    }
  }
  return { allowed, allowRules, deniedBy, preferred }
}

/** Deny wins over allow and prefer whatever the rank (deny lists unite): each such clash is a conflict the denying rule wins. */
function denyConflicts(ranked: readonly Ranked[], tools: ToolVerdicts): { conflict: Conflict; explain: string }[] {
  const found: { conflict: Conflict; explain: string }[] = []
  for (const [tool, deniers] of tools.deniedBy) {
    const winner = deniers[0] as string
    for (const { rule } of ranked) {
      const says = rule.patch?.tool?.prefer?.includes(tool) ? 'prefer' : rule.patch?.tool?.allow?.includes(tool) ? 'allow' : undefined
      if (says === undefined || deniers.includes(rule.id)) continue
      const conflict = { path: `tool.${tool}`, winner, loser: rule.id, winner_value: 'deny', loser_value: says }
      found.push({
        conflict,
        explain: `tool.${tool}: ${winner} denies "${tool}", which ${rule.id} would ${says} — deny wins over allow and prefer, whatever the rank`,
      })
    }
  }
  return found
}

/** Merge the patches of the matched active rules, highest rank first, into one policy, with every conflict explained. */
export function mergePatches(ranked: readonly Ranked[]): Merged {
  const settings = new Settings()
  for (const entry of ranked) {
    const patch = entry.rule.patch
    if (patch?.output?.format !== undefined) settings.set('output.format', patch.output.format, entry)
    if (patch?.output?.strict !== undefined) settings.set('output.strict', patch.output.strict, entry)
    for (const [namespace, values] of Object.entries(patch?.extensions ?? {})) {
      for (const [key, value] of Object.entries(values)) settings.set(`extensions.${namespace}.${key}`, value, entry, { namespace, key })
    }
  }
  const tools = toolVerdicts(ranked)
  const denied = [...tools.deniedBy.keys()]
  const allowed = tools.allowed
  const prefer = tools.preferred.map((entry) => entry.tool).filter((tool) => !tools.deniedBy.has(tool) && (allowed === undefined || allowed.has(tool)))

  const output: NonNullable<PolicyPatch['output']> = {}
  const format = settings.get('output.format')
  const strict = settings.get('output.strict')
  if (format !== undefined) output.format = format as NonNullable<PolicyPatch['output']>['format']
  if (strict !== undefined) output.strict = strict as boolean
  const extensions: Record<string, Record<string, unknown>> = {}
  for (const { value, extension } of settings.values.values()) {
    if (extension !== undefined) extensions[extension.namespace] = { ...extensions[extension.namespace], [extension.key]: value }
  }
  const tool: NonNullable<PolicyPatch['tool']> = {
    ...(allowed === undefined ? {} : { allow: [...allowed] }),
    ...(denied.length === 0 ? {} : { deny: denied }),
    ...(prefer.length === 0 ? {} : { prefer }),
  }
  const policy: PolicyPatch = {
    ...(Object.keys(output).length === 0 ? {} : { output }),
    ...(Object.keys(tool).length === 0 ? {} : { tool }),
    ...(Object.keys(extensions).length === 0 ? {} : { extensions }),
  }
  const all = [...settings.conflicts, ...denyConflicts(ranked, tools)]
  return {
    policy,
    sources: ranked.map((entry) => entry.rule.id),
    conflicts: all.map((entry) => entry.conflict),
    conflictExplain: all.map((entry) => entry.explain),
    tools,
  }
}

/** One line per tool decision of the policy: what is allowed, denied and preferred, and by which rules. */
export function explainTools(tools: ToolVerdicts): string[] {
  const lines: string[] = []
  if (tools.allowed !== undefined) {
    const from = tools.allowRules.map((entry) => `${entry.id} [${entry.tools.join(', ')}]`).join(' ∩ ')
    lines.push(`allow: only [${[...tools.allowed].join(', ')}] (${from})`)
  }
  for (const [tool, rules] of tools.deniedBy) lines.push(`deny: ${tool} (${rules.join(', ')})`)
  for (const entry of tools.preferred) lines.push(`prefer: ${entry.tool} (${entry.ruleId}, rank ${entry.score})`)
  return lines
}
