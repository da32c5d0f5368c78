import type { ToolVerdicts } from './merge.js'

export interface Selection {
  /** Candidates the rules let through, in candidate order. */
  allowed: string[]
  /** Candidates they do not, in candidate order. */
  denied: string[]
  /** Allowed candidates some rule prefers, by the rank of the highest rule preferring each. */
  preferred: string[]
  /** preferred first, then the other allowed candidates in candidate order. */
  ordered: string[]
  selected: string | undefined
  /** Set when not strict and the rules left nothing: what was done instead, or why nothing could be. */
  fallback: string | undefined
  /** One line per candidate: why it is allowed, denied or preferred. */
  explain: string[]
  /** For each denied candidate, the rules that denied it or whose allow list leaves it out. */
  deniedBy: Map<string, string[]>
}

/**
 * Choose among candidate tools by the rules' verdicts: allow lists intersect, deny lists unite,
 * prefer orders by rule rank. With `strict` off and nothing in every allow list, fall back to
 * deny-only and say so; with it on, an empty result is for the caller to refuse.
 */
export function selectTools(candidates: readonly string[], tools: ToolVerdicts, strict: boolean): Selection {
  const passes = (tool: string, useAllow: boolean): boolean =>
    !tools.deniedBy.has(tool) && (!useAllow || tools.allowed === undefined || tools.allowed.has(tool))
  let allowed = candidates.filter((tool) => passes(tool, true))
  let fallback: string | undefined
  if (allowed.length === 0 && !strict && tools.allowed !== undefined) {
    allowed = candidates.filter((tool) => passes(tool, false))
    fallback =
      allowed.length > 0
        ? 'no candidate is in every allow list; fell back to deny-only: every candidate no rule denies is allowed'
        : 'no candidate is in every allow list, and every candidate is denied: nothing to select'
  } else if (allowed.length === 0 && !strict) {
    fallback = 'every candidate is denied: nothing to select'
  }
  const allowedSet = new Set(allowed)
  const preferred = tools.preferred.map((entry) => entry.tool).filter((tool) => allowedSet.has(tool))
  const ordered = [...preferred, ...allowed.filter((tool) => !preferred.includes(tool))]
  const deniedBy = new Map<string, string[]>()
  const explain: string[] = []
  for (const tool of candidates) {
    const deniers = tools.deniedBy.get(tool)
    if (deniers !== undefined) {
      deniedBy.set(tool, deniers)
      explain.push(`${tool}: denied by ${deniers.join(', ')}`)
      continue
    }
    if (!allowedSet.has(tool)) {
      const leaving = tools.allowRules.filter((entry) => !entry.tools.includes(tool)).map((entry) => entry.id)
      deniedBy.set(tool, leaving)
      explain.push(`${tool}: not in the allow list of ${leaving.join(', ')}`)
      continue
    }
    const preference = tools.preferred.find((entry) => entry.tool === tool)
    explain.push(preference === undefined ? `${tool}: allowed` : `${tool}: allowed, preferred by ${preference.ruleId} (rank ${preference.score})`)
  }
  return {
    allowed,
    denied: candidates.filter((tool) => !allowedSet.has(tool)),
    preferred,
    ordered,
    selected: ordered[0],
    fallback,
    explain,
    deniedBy,
  }
}
