import { basename } from 'node:path'
import { compileCodeSearch, type CodeSearch, type FileSearch } from './code-search.js'
import type { CheckInput } from './input.js'
import { findImports, readsImports, type ModuleImport } from './imports.js'
import { readManifest, type ManifestDependency } from './manifest.js'
import type { Finding, Rule } from './model.js'
import { inScope, type GlobMatcher } from './scope.js'
import type { SourceText } from './source-text.js'

/** What every target evaluator reads: the input, the files read for their content, and parse caches. */
export class EvaluationContext {
  private readonly manifestCache = new Map<string, ManifestDependency[]>()
  private readonly importCache = new Map<string, ModuleImport[]>()
  private importIndex: Map<string, { source: SourceText; site: ModuleImport }[]> | undefined
  private readonly codeSearchCache = new Map<string, FileSearch>()
  private readonly scopeCache = new Map<string, SourceText[]>()
  private readonly codeRuleIndex = new Map<Rule, number>()
  private readonly codeSearch: CodeSearch

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
    this.codeSearch = compileCodeSearch(codeRules.map((rule) => ({ pattern: rule.constraint.pattern, regex: rule.regex })))
  }

  /** Start offsets of a code rule's matches in a file, each judged within its own line. */
  codeMatchOffsets(rule: Rule, source: SourceText): number[] {
    const index = this.codeRuleIndex.get(rule)
    if (index === undefined) return []
    let found = this.codeSearchCache.get(source.path)
    if (found === undefined) {
      found = this.codeSearch.search(source.text)
      this.codeSearchCache.set(source.path, found)
    }
    return found.lineMatchOffsets(index)
  }

  inScope(rule: Rule, path: string): boolean {
    return inScope(rule.constraint, path, this.globs)
  }

  /** Text sources in the rule's scope, in path order; computed once per distinct scope, which most rules share. */
  sourcesInScope(rule: Rule, accept?: (path: string) => boolean): SourceText[] {
    const { paths, exclude } = rule.constraint
    const key = JSON.stringify([paths, exclude])
    let inScope = this.scopeCache.get(key)
    if (inScope === undefined) {
      inScope = [...this.sources.values()].filter((source) => this.inScope(rule, source.path))
      this.scopeCache.set(key, inScope)
    }
    return accept === undefined ? inScope : inScope.filter((source) => accept(source.path))
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
