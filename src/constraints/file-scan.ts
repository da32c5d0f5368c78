import { compileCodeSearch } from './code-search.js'
import { findImportSites, packageRoot } from './imports.js'
import { findInlineWaivers, type Waiver } from './inline-waivers.js'
import { readManifest, type ManifestDependency } from './manifest.js'
import type { CompiledPattern } from './regex.js'
import { SourceText, detached } from './source-text.js'

/** Where a code or import constraint's pattern matched, with the line's text (the baseline hashes it, reporters show it). */
export interface Hit {
  line: number
  column: number
  lineText: string
  /** What matched: the start of the matched code, or the module specifier. */
  subject: string
}

interface DependencyFound extends ManifestDependency {
  lineText: string
}

/** A code or import constraint's pattern, as the scanner applies it. */
export interface ScannedPattern {
  target: 'code' | 'import'
  pattern: string
  regex: CompiledPattern
}

/** What the check needs of one file's content. */
export interface ScanRequest {
  path: string
  /** Indices into the plan's patterns whose constraints cover this file. */
  patterns: number[]
  /** Whether the file is a package.json some dependency constraint covers. */
  manifest: boolean
}

/** Everything the constraints need from one file, so its text can be dropped as soon as it is scanned. */
export interface FileScan {
  path: string
  /** The requested pattern indices: the code and import constraints whose scope holds this file. */
  patterns: readonly number[]
  /** Hits by pattern index; only patterns that hit are present. */
  hits: Map<number, Hit[]>
  dependencies: DependencyFound[]
  /** `mk-ignore` comments in the file. */
  waivers: Waiver[]
}

export interface ScanPlan {
  patterns: ScannedPattern[]
  /** The package.json fields that list dependencies. */
  dependencyFields: string[]
}

export type FileScanner = (request: ScanRequest, text: string) => FileScan

const maxSubjectLength = 80

/** An import matches when its specifier does, or its package root (`lodash/fp` -> `lodash`). */
function importMatches(regex: CompiledPattern, specifier: string, python: boolean): boolean {
  const root = packageRoot(specifier, python)
  return regex.matchesWhole(specifier) || (root !== specifier && regex.matchesWhole(root))
}

export function createScanner(plan: ScanPlan): FileScanner {
  const codeIndices = plan.patterns.flatMap((pattern, index) => (pattern.target === 'code' ? [index] : []))
  const importIndices = plan.patterns.flatMap((pattern, index) => (pattern.target === 'import' ? [index] : []))
  const codeSearch = compileCodeSearch(codeIndices.map((index) => plan.patterns[index] as ScannedPattern))
  const codeSearchPosition = new Map(codeIndices.map((index, position) => [index, position]))
  // Modules repeat across files: which import patterns a module matches is worked out once per run.
  const matchingByModule = new Map<string, number[]>()
  const importPatternsMatching = (specifier: string, python: boolean): number[] => {
    const key = `${python ? 'py' : 'js'}:${specifier}`
    let matching = matchingByModule.get(key)
    if (matching === undefined) {
      matching = importIndices.filter((index) => importMatches((plan.patterns[index] as ScannedPattern).regex, specifier, python))
      matchingByModule.set(key, matching)
    }
    return matching
  }
  return (request, text) => {
    const source = new SourceText(request.path, text)
    const hits = new Map<number, Hit[]>()
    const record = (index: number, offset: number, subject: (lineText: string, column: number) => string): void => {
      const { line, column } = source.position(offset)
      const lineText = source.line(line)
      const hit = { line, column, lineText, subject: subject(lineText, column) }
      const list = hits.get(index)
      if (list === undefined) hits.set(index, [hit])
      else list.push(hit)
    }
    let found: ReturnType<typeof codeSearch.search> | undefined
    let readsImports = false
    for (const index of request.patterns) {
      const scanned = plan.patterns[index] as ScannedPattern
      if (scanned.target === 'import') {
        readsImports = true
        continue
      }
      found ??= codeSearch.search(text)
      for (const offset of found.lineMatchOffsets(codeSearchPosition.get(index) as number)) {
        record(index, offset, (lineText, column) => lineText.slice(column - 1, column - 1 + maxSubjectLength).trim())
      }
    }
    if (readsImports) {
      const { sites, python } = findImportSites(request.path, text)
      for (const site of sites) {
        for (const index of importPatternsMatching(site.specifier, python)) {
          if (request.patterns.includes(index)) record(index, site.offset, () => detached(site.specifier))
        }
      }
    }
    return {
      path: request.path,
      patterns: request.patterns,
      hits,
      dependencies: request.manifest ? readManifest(source, plan.dependencyFields).map((dependency) => ({ ...dependency, lineText: source.line(dependency.line) })) : [],
      waivers: findInlineWaivers(source),
    }
  }
}
