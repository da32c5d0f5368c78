import { basename } from 'node:path'
import type { CheckInput } from './input.js'
import { findImports, readsImports, type ModuleImport } from './imports.js'
import { readManifest, type ManifestDependency } from './manifest.js'
import type { Finding, Rule } from './model.js'
import { compilePatternSet } from './regex.js'
import { inScope, type GlobMatcher } from './scope.js'
import type { SourceText } from './source-text.js'

/** What every target evaluator reads: the input, the files read for their content, and parse caches. */
export class EvaluationContext {
  private readonly manifestCache = new Map<string, ManifestDependency[]>()
  private readonly importCache = new Map<string, ModuleImport[]>()
  private importIndex: Map<string, { source: SourceText; site: ModuleImport }[]> | undefined
  private readonly codeHitCache = new Map<string, ReadonlySet<number>>()
  private readonly codeRuleIndex = new Map<Rule, number>()
  private readonly searchCode: (text: string) => ReadonlySet<number>

  constructor(
    readonly input: CheckInput,
    readonly globs: GlobMatcher,
    /** Text files read for content constraints, by path. */
    readonly sources: ReadonlyMap<string, SourceText>,
    private readonly dependencyFields: readonly string[],
    rules: readonly Rule[],
  ) {
    const codeRules = rules.filter((rule) => rule.constraint.target === 'code')
    codeRules.forEach((rule, index) => this.codeRuleIndex.set(rule, index))
    this.searchCode = compilePatternSet(codeRules.map((rule) => rule.constraint.pattern))
  }

  /** Whether a code rule's pattern occurs anywhere in the file (possibly across lines). */
  codeOccurs(rule: Rule, source: SourceText): boolean {
    let hits = this.codeHitCache.get(source.path)
    if (hits === undefined) {
      hits = this.searchCode(source.text)
      this.codeHitCache.set(source.path, hits)
    }
    return hits.has(this.codeRuleIndex.get(rule) ?? -1)
  }

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

  /** Every import of every file that reads imports, grouped by specifier and package root, so a rule tests each distinct module once. */
  importsByModule(): ReadonlyMap<string, { source: SourceText; site: ModuleImport }[]> {
    if (this.importIndex === undefined) {
      const index = new Map<string, { source: SourceText; site: ModuleImport }[]>()
      for (const source of this.sources.values()) {
        if (!readsImports(source.path)) continue
        for (const site of this.imports(source)) {
          const key = `${site.specifier}\0${site.root}`
          const list = index.get(key)
          if (list === undefined) index.set(key, [{ source, site }])
          else list.push({ source, site })
        }
      }
      this.importIndex = index
    }
    return this.importIndex
  }

  imports(source: SourceText): ModuleImport[] {
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
