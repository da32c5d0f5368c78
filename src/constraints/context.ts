import { basename } from 'node:path'
import type { CheckInput } from './input.js'
import { findImports, type ImportSite } from './imports.js'
import { readManifest, type ManifestDependency } from './manifest.js'
import type { Finding, Rule } from './model.js'
import { inScope, type GlobMatcher } from './scope.js'
import type { SourceText } from './source-text.js'

/** What every target evaluator reads: the input, the files read for their content, and parse caches. */
export class EvaluationContext {
  private readonly manifestCache = new Map<string, ManifestDependency[]>()
  private readonly importCache = new Map<string, ImportSite[]>()

  constructor(
    readonly input: CheckInput,
    readonly globs: GlobMatcher,
    /** Text files read for content constraints, by path. */
    readonly sources: ReadonlyMap<string, SourceText>,
    private readonly dependencyFields: readonly string[],
  ) {}

  inScope(rule: Rule, path: string): boolean {
    return inScope(rule.constraint, path, this.globs)
  }

  /** Text sources in the rule's scope, in path order. */
  sourcesInScope(rule: Rule, accept: (path: string) => boolean = () => true): SourceText[] {
    return [...this.sources.values()].filter((source) => accept(source.path) && this.inScope(rule, source.path))
  }

  manifest(source: SourceText): ManifestDependency[] {
    let dependencies = this.manifestCache.get(source.path)
    if (dependencies === undefined) {
      dependencies = readManifest(source, this.dependencyFields)
      this.manifestCache.set(source.path, dependencies)
    }
    return dependencies
  }

  imports(source: SourceText): ImportSite[] {
    let sites = this.importCache.get(source.path)
    if (sites === undefined) {
      sites = findImports(source.path, source.text)
      this.importCache.set(source.path, sites)
    }
    return sites
  }
}

export function isManifest(path: string): boolean {
  return basename(path) === 'package.json'
}

/** Evaluates one constraint; undefined when it cannot be judged on this input (a repository-wide rule on a partial input). */
export type TargetEvaluator = (rule: Rule, context: EvaluationContext) => Finding[] | undefined

export function patternText(rule: Rule): string {
  return rule.constraint.target === 'file' ? JSON.stringify(rule.constraint.pattern) : `/${rule.constraint.pattern}/`
}
