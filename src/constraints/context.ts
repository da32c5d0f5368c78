import type { FileScan, ImportFound, Located } from './file-scan.js'
import type { CheckInput } from './input.js'
import type { Finding, Rule } from './model.js'
import { inScope, type GlobMatcher } from './scope.js'

const noMatches: readonly Located[] = []

/** What every target evaluator reads: the input, the scans of the files read, and the position of each code rule's pattern in the scans. */
export class EvaluationContext {
  private importIndex: Map<string, { scan: FileScan; site: ImportFound }[]> | undefined
  private readonly manifestCache = new Map<string, FileScan[]>()

  constructor(
    readonly input: CheckInput,
    readonly globs: GlobMatcher,
    /** Scans of the text files read, by path, in path order. */
    readonly scans: ReadonlyMap<string, FileScan>,
    /** Each code rule's index among the scanned code patterns. */
    private readonly codePatternIndex: ReadonlyMap<Rule, number>,
  ) {}

  /** The scans a code rule covers (its scope was applied when the scans were requested), with its matches in each. */
  *codeScans(rule: Rule): Generator<{ scan: FileScan; matches: readonly Located[] }> {
    const index = this.codePatternIndex.get(rule)
    if (index === undefined) return
    for (const scan of this.scans.values()) {
      const matches = scan.codeMatches.get(index)
      if (matches !== undefined) yield { scan, matches: matches.length === 0 ? noMatches : matches }
    }
  }

  inScope(rule: Rule, path: string): boolean {
    return inScope(rule.constraint, path, this.globs)
  }

  /** The package.json files in the rule's scope, in path order; computed once per distinct scope. */
  manifestsInScope(rule: Rule): FileScan[] {
    const { paths, exclude } = rule.constraint
    const key = JSON.stringify([paths, exclude])
    let found = this.manifestCache.get(key)
    if (found === undefined) {
      found = [...this.scans.values()].filter((scan) => isManifest(scan.path) && this.inScope(rule, scan.path))
      this.manifestCache.set(key, found)
    }
    return found
  }

  /** Every import of every scanned file, grouped by specifier and package root, so a rule tests each distinct module once. */
  importsByModule(): ReadonlyMap<string, { scan: FileScan; site: ImportFound }[]> {
    if (this.importIndex === undefined) {
      const index = new Map<string, { scan: FileScan; site: ImportFound }[]>()
      for (const scan of this.scans.values()) {
        for (const site of scan.imports) {
          const key = `${site.specifier}\0${site.root}`
          const list = index.get(key)
          if (list === undefined) index.set(key, [{ scan, site }])
          else list.push({ scan, site })
        }
      }
      this.importIndex = index
    }
    return this.importIndex
  }
}

export function isManifest(path: string): boolean {
  return path === 'package.json' || path.endsWith('/package.json')
}

/** Evaluates one constraint; undefined when it cannot be judged on this input (a repository-wide rule on a partial input). */
export type TargetEvaluator = (rule: Rule, context: EvaluationContext) => Finding[] | undefined

export function patternText(rule: Rule): string {
  return rule.constraint.target === 'file' ? JSON.stringify(rule.constraint.pattern) : `/${rule.constraint.pattern}/`
}
