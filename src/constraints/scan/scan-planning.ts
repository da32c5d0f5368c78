import { isManifest } from '../evaluate/context.js'
import type { ScanPlan, ScanRequest, ScannedPattern } from './file-scan.js'
import { readsImports } from './imports.js'
import type { ConstraintRule } from '../model.js'
import { inScope, type GlobMatcher, type PathScope } from '../scope.js'

interface ScanPlanning {
  plan: ScanPlan
  /** Only the files some rule reads, in the order of the paths given. */
  requests: ScanRequest[]
  /** Each code or import rule's index among the plan's patterns. */
  patternIndex: Map<ConstraintRule, number>
}

/** Rules that share a scope (most do): the scope is tested once per path for all of them. */
function byScope(rules: readonly ConstraintRule[]): { scope: PathScope; rules: ConstraintRule[] }[] {
  const groups = new Map<string, { scope: PathScope; rules: ConstraintRule[] }>()
  for (const rule of rules) {
    const key = JSON.stringify([rule.constraint.paths, rule.constraint.exclude])
    const group = groups.get(key)
    if (group === undefined) groups.set(key, { scope: rule.constraint, rules: [rule] })
    else group.rules.push(rule)
  }
  return [...groups.values()]
}

function scannedPattern(rule: ConstraintRule): ScannedPattern | undefined {
  const { target, pattern } = rule.constraint
  return (target === 'code' || target === 'import') && rule.regex !== undefined ? { target, pattern, regex: rule.regex } : undefined
}

/** What to read of each file: the code and import patterns whose scope covers it, and whether its dependencies are needed. */
export function planScans(
  paths: readonly string[],
  rules: readonly ConstraintRule[],
  globs: GlobMatcher,
  dependencyFields: readonly string[],
  lineHashes = true,
): ScanPlanning {
  const scanned = rules.flatMap((rule) => {
    const pattern = scannedPattern(rule)
    return pattern === undefined ? [] : [{ rule, pattern }]
  })
  const patternIndex = new Map(scanned.map(({ rule }, index) => [rule, index]))
  const indexedGroups = (target: ScannedPattern['target']): { scope: PathScope; indices: number[] }[] =>
    byScope(scanned.filter(({ pattern }) => pattern.target === target).map(({ rule }) => rule)).map(({ scope, rules: grouped }) => ({
      scope,
      indices: grouped.map((rule) => patternIndex.get(rule) as number),
    }))
  const codeGroups = indexedGroups('code')
  const importGroups = indexedGroups('import')
  const dependencyScopes = byScope(rules.filter((rule) => rule.constraint.target === 'dependency')).map(({ scope }) => scope)

  const requests: ScanRequest[] = []
  const groups = [...codeGroups, ...importGroups]
  const member = new Array<boolean>(groups.length).fill(false)
  /**
   * Paths in the same groups share one list: fewer objects to hold, and to
   * store in the scan cache. Keyed by which groups hold the path, a bit per
   * group (a string of them past 52 groups, where a number stops being exact),
   * so that the list is built only for the first path of each combination.
   */
  const shared = new Map<number | string, number[]>()
  for (const path of paths) {
    const imports = readsImports(path)
    let any = false
    let mask = 0
    let bits = ''
    for (let index = 0; index < groups.length; index++) {
      const holds = (index < codeGroups.length || imports) && inScope((groups[index] as (typeof groups)[number]).scope, path, globs)
      member[index] = holds
      any ||= holds
      if (groups.length <= 52) mask = mask * 2 + (holds ? 1 : 0)
      else bits += holds ? '1' : '0'
    }
    const manifest = isManifest(path) && dependencyScopes.some((scope) => inScope(scope, path, globs))
    if (!any && !manifest) continue
    const key = groups.length <= 52 ? mask : bits
    let list = shared.get(key)
    if (list === undefined) shared.set(key, (list = groups.flatMap((group, index) => (member[index] === true ? group.indices : []))))
    requests.push({ path, patterns: list, manifest })
  }
  return {
    plan: { patterns: scanned.map(({ pattern }) => pattern), dependencyFields: [...dependencyFields], lineHashes },
    requests,
    patternIndex,
  }
}
