import { isManifest } from './context.js'
import type { ScanPlan, ScanRequest } from './file-scan.js'
import { readsImports } from './imports.js'
import type { Rule } from './model.js'
import { inScope, type GlobMatcher, type PathScope } from './scope.js'

export interface ScanPlanning {
  plan: ScanPlan
  /** Only the files some rule reads, in the order of the paths given. */
  requests: ScanRequest[]
  /** Each code rule's index among the plan's code patterns. */
  codePatternIndex: Map<Rule, number>
}

/** Rules that share a scope (most do): the scope is tested once per path for all of them. */
function byScope(rules: readonly Rule[]): { scope: PathScope; rules: Rule[] }[] {
  const groups = new Map<string, { scope: PathScope; rules: Rule[] }>()
  for (const rule of rules) {
    const key = JSON.stringify([rule.constraint.paths, rule.constraint.exclude])
    const group = groups.get(key)
    if (group === undefined) groups.set(key, { scope: rule.constraint, rules: [rule] })
    else group.rules.push(rule)
  }
  return [...groups.values()]
}

/** What to read of each file: the code patterns whose scope covers it, and whether its imports or dependencies are needed. */
export function planScans(paths: readonly string[], rules: readonly Rule[], globs: GlobMatcher, dependencyFields: readonly string[]): ScanPlanning {
  const codeRules = rules.filter((rule) => rule.constraint.target === 'code' && rule.regex !== undefined)
  const codePatternIndex = new Map(codeRules.map((rule, index) => [rule, index]))
  const codeGroups = byScope(codeRules).map(({ scope, rules: grouped }) => ({ scope, indices: grouped.map((rule) => codePatternIndex.get(rule) as number) }))
  const importScopes = byScope(rules.filter((rule) => rule.constraint.target === 'import')).map(({ scope }) => scope)
  const dependencyScopes = byScope(rules.filter((rule) => rule.constraint.target === 'dependency')).map(({ scope }) => scope)

  const requests: ScanRequest[] = []
  for (const path of paths) {
    const codePatterns = codeGroups.flatMap(({ scope, indices }) => (inScope(scope, path, globs) ? indices : []))
    const imports = readsImports(path) && importScopes.some((scope) => inScope(scope, path, globs))
    const manifest = isManifest(path) && dependencyScopes.some((scope) => inScope(scope, path, globs))
    if (codePatterns.length > 0 || imports || manifest) requests.push({ path, codePatterns, imports, manifest })
  }
  return {
    plan: { codePatterns: codeRules.map((rule) => ({ pattern: rule.constraint.pattern, regex: rule.regex })), dependencyFields: [...dependencyFields] },
    requests,
    codePatternIndex,
  }
}
