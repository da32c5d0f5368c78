import { compileCodeSearch } from './code-search.js'
import { findImports, type ModuleImport } from './imports.js'
import { findInlineWaivers, type Waiver } from './inline-waivers.js'
import { readManifest, type ManifestDependency } from './manifest.js'
import type { CompiledPattern } from './regex.js'
import { SourceText } from './source-text.js'

/** Where a code or import constraint's pattern matched, with the line's text (the baseline hashes it, reporters show it). */
export interface Hit {
  line: number
  column: number
  lineText: string
  /** What matched: the start of the matched code, or the module specifier. */
  subject: string
}

export interface DependencyFound extends ManifestDependency {
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
  /** Hits of each requested pattern, by pattern index; a requested pattern without hits maps to []. */
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
export function importMatches(regex: CompiledPattern, site: Pick<ModuleImport, 'specifier' | 'root'>): boolean {
  return regex.matchesWhole(site.specifier) || (site.root !== site.specifier && regex.matchesWhole(site.root))
}

export function createScanner(plan: ScanPlan): FileScanner {
  const codeIndices = plan.patterns.flatMap((pattern, index) => (pattern.target === 'code' ? [index] : []))
  const codeSearch = compileCodeSearch(codeIndices.map((index) => plan.patterns[index] as ScannedPattern))
  const codeSearchIndex = new Map(codeIndices.map((index, position) => [index, position]))
  return (request, text) => {
    const source = new SourceText(request.path, text)
    const hit = (offset: number, subject: (lineText: string, column: number) => string): Hit => {
      const { line, column } = source.position(offset)
      const lineText = source.line(line)
      return { line, column, lineText, subject: subject(lineText, column) }
    }
    const hits = new Map<number, Hit[]>()
    let found: ReturnType<typeof codeSearch.search> | undefined
    let sites: ModuleImport[] | undefined
    for (const index of request.patterns) {
      const scanned = plan.patterns[index] as ScannedPattern
      if (scanned.target === 'code') {
        found ??= codeSearch.search(text)
        const offsets = found.lineMatchOffsets(codeSearchIndex.get(index) as number)
        hits.set(index, offsets.map((offset) => hit(offset, (lineText, column) => lineText.slice(column - 1, column - 1 + maxSubjectLength).trim())))
      } else {
        sites ??= findImports(request.path, text)
        const matching = sites.filter((site) => importMatches(scanned.regex, site))
        hits.set(index, matching.map((site) => hit(site.offset, () => site.specifier)))
      }
    }
    return {
      path: request.path,
      hits,
      dependencies: request.manifest ? readManifest(source, plan.dependencyFields).map((dependency) => ({ ...dependency, lineText: source.line(dependency.line) })) : [],
      waivers: findInlineWaivers(source),
    }
  }
}
