import type { FileScan, Hit } from '../scan/file-scan.js'
import type { CheckInput } from '../input/input.js'
import { noLineHash, workspaceRootFile, type Finding, type ConstraintRule } from '../model.js'
import type { BudgetOverrun } from '../scan/scan-budget.js'
import { inScope, type GlobMatcher } from '../scope.js'

/** What every target evaluator reads: the input, the scans of the files read, and where each code and import rule's hits are in them. */
export class EvaluationContext {
  private readonly manifestCache = new Map<string, FileScan[]>()
  private hitIndex: Map<number, { scan: FileScan; hits: readonly Hit[] }[]> | undefined
  private overrunIndex: Map<number, { file: string; overrun: BudgetOverrun }[]> | undefined
  private manifests: FileScan[] | undefined

  constructor(
    readonly input: CheckInput,
    readonly globs: GlobMatcher,
    /** Scans of the text files read, by path, in path order. */
    readonly scans: ReadonlyMap<string, FileScan>,
    /** Each code and import rule's index among the scanned patterns. */
    private readonly patternIndex: ReadonlyMap<ConstraintRule, number>,
  ) {}

  /** The files where a code or import rule's pattern hit, in path order, with the hits (scopes were applied when the scans were requested). */
  hitsByFile(rule: ConstraintRule): readonly { scan: FileScan; hits: readonly Hit[] }[] {
    const index = this.patternIndex.get(rule)
    if (index === undefined) return []
    if (this.hitIndex === undefined) {
      const byIndex = new Map<number, { scan: FileScan; hits: readonly Hit[] }[]>()
      for (const scan of this.scans.values()) {
        for (const [hitIndex, hits] of scan.hits) {
          const list = byIndex.get(hitIndex)
          if (list === undefined) byIndex.set(hitIndex, [{ scan, hits }])
          else list.push({ scan, hits })
        }
      }
      this.hitIndex = byIndex
    }
    return this.hitIndex.get(index) ?? []
  }

  /** The files a code rule covers where its pattern did not hit, in path order; a file over its budget did not say. */
  filesWithoutHits(rule: ConstraintRule): FileScan[] {
    const index = this.patternIndex.get(rule)
    if (index === undefined) return []
    return [...this.scans.values()].filter((scan) => scan.patterns.includes(index) && !scan.hits.has(index) && !scan.overruns.has(index))
  }

  /** The files where a code or import rule exceeded its scan budget, in path order. */
  overruns(rule: ConstraintRule): readonly { file: string; overrun: BudgetOverrun }[] {
    const index = this.patternIndex.get(rule)
    if (index === undefined) return []
    if (this.overrunIndex === undefined) {
      const byIndex = new Map<number, { file: string; overrun: BudgetOverrun }[]>()
      for (const scan of this.scans.values()) {
        for (const [overrunIndex, overrun] of scan.overruns) {
          const list = byIndex.get(overrunIndex)
          if (list === undefined) byIndex.set(overrunIndex, [{ file: scan.path, overrun }])
          else list.push({ file: scan.path, overrun })
        }
      }
      this.overrunIndex = byIndex
    }
    return this.overrunIndex.get(index) ?? []
  }

  /** A code or import rule's index among the scanned patterns. */
  patternOf(rule: ConstraintRule): number | undefined {
    return this.patternIndex.get(rule)
  }

  inScope(rule: ConstraintRule, path: string): boolean {
    return inScope(rule.constraint, path, this.globs)
  }

  /** The package.json files in the rule's scope, in path order; computed once per distinct scope. */
  manifestsInScope(rule: ConstraintRule): FileScan[] {
    const { paths, exclude } = rule.constraint
    const key = JSON.stringify([paths, exclude])
    let found = this.manifestCache.get(key)
    if (found === undefined) {
      this.manifests ??= [...this.scans.values()].filter((scan) => isManifest(scan.path))
      found = this.manifests.filter((scan) => this.inScope(rule, scan.path))
      this.manifestCache.set(key, found)
    }
    return found
  }
}

export function isManifest(path: string): boolean {
  return path === 'package.json' || path.endsWith('/package.json')
}

/** Evaluates one constraint on the files of the context: the findings located in them. */
export type TargetEvaluator = (rule: ConstraintRule, context: EvaluationContext) => Finding[]

/**
 * The message of a violation by a named thing (a dependency, a module). A
 * constraint's own message ("use pino") does not say which one violated, so
 * the name is added to it.
 */
export function messageNaming(rule: ConstraintRule, what: string, fallback: string): string {
  const { message } = rule.constraint
  return message === undefined ? fallback : `${message} (${what})`
}

/** The violation of a repository-wide rule nothing satisfies: located at the workspace root, its subject the rule's pattern. */
export function unsatisfiedEverywhere(rule: ConstraintRule, fallbackMessage: string): Finding {
  const { pattern, message } = rule.constraint
  return { rule, file: workspaceRootFile, line: 1, column: 1, subject: pattern, message: message ?? fallbackMessage, lineHash: noLineHash }
}

export function patternText(rule: ConstraintRule): string {
  return rule.constraint.target === 'file' ? JSON.stringify(rule.constraint.pattern) : `/${rule.constraint.pattern}/`
}
