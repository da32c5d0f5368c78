import { compileCodeSearch } from './code-search.js'
import { findImportSites, packageRoot } from './imports.js'
import { findInlineWaivers, type Waiver } from '../waivers/inline-waivers.js'
import { readManifest, type ManifestDependency } from './manifest.js'
import { lineHash } from '../waivers/fingerprint.js'
import { compilePattern, type CompiledPattern } from './regex.js'
import { BudgetExceeded, ScanBudget, defaultScanLimits, type BudgetOverrun, type ScanLimits } from './scan-budget.js'
import { SourceText, detached } from './source-text.js'

/**
 * Where a code or import constraint's pattern matched. Only a window of the
 * line is kept (the subject) and a hash of it: a minified file's one long line
 * is never copied per match.
 */
export interface Hit {
  line: number
  column: number
  /** Hash of the line's text, which version 1 baselines are keyed by. */
  lineHash: string
  /** What matched: the start of the matched code (at most 80 characters of its line), or the module specifier. */
  subject: string
}

interface DependencyFound extends ManifestDependency {
  lineHash: string
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
  /** Pattern indices not judged on this file because they exceeded their budget, and why. */
  overruns: ReadonlyMap<number, BudgetOverrun>
}

export interface ScanPlan {
  patterns: ScannedPattern[]
  /** The package.json fields that list dependencies. */
  dependencyFields: string[]
  /** Defaults to defaultScanLimits. */
  limits?: ScanLimits
  /**
   * Whether hits carry their line's hash (default true): only a version 1 baseline matches
   * findings by it, and hashing every hit's line was about 4% of a cold check. Without, '' .
   */
  lineHashes?: boolean
}

export type FileScanner = (request: ScanRequest, text: string) => FileScan

/** A plan without its compiled patterns: what can be sent to another thread, which compiles them again. */
export interface PlanSpec extends Omit<ScanPlan, 'patterns'> {
  patterns: Omit<ScannedPattern, 'regex'>[]
}

export function planSpec(plan: ScanPlan): PlanSpec {
  return { ...plan, patterns: plan.patterns.map(({ target, pattern }) => ({ target, pattern })) }
}

export function compilePlan(spec: PlanSpec): ScanPlan {
  return { ...spec, patterns: spec.patterns.map(({ target, pattern }) => ({ target, pattern, regex: compilePattern(pattern) })) }
}

const maxSubjectLength = 80

/** The overruns of every scan that has none (most): shared, so never written to; a scan with some gets its own map. */
const noOverruns: Map<number, BudgetOverrun> = new Map()

/**
 * A scan another thread made, as this thread keeps it: the request's path
 * and pattern list (shared by the paths under the same scopes) instead of
 * the copies that crossed, no map of its own when nothing overran, and the
 * shape of the scans made here.
 */
export function adoptScan(scan: FileScan, request: ScanRequest): FileScan {
  const { hits, dependencies, waivers, overruns } = scan
  return { path: request.path, patterns: request.patterns, hits, dependencies, waivers, overruns: overruns.size === 0 ? noOverruns : overruns }
}

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
  const limits = plan.limits ?? defaultScanLimits
  const lineHashes = plan.lineHashes ?? true
  return (request, text) => {
    const source = new SourceText(request.path, text)
    const hits = new Map<number, Hit[]>()
    // Most files overrun nothing: one shared empty map for them, never written to (see below).
    let overruns: Map<number, BudgetOverrun> = noOverruns
    const overrun = (index: number, reason: BudgetOverrun): void => {
      if (overruns === noOverruns) overruns = new Map()
      overruns.set(index, reason)
    }
    let hashes: Map<number, string> | undefined
    const hashOf = (line: number): string => {
      if (!lineHashes) return ''
      hashes ??= new Map()
      let hash = hashes.get(line)
      if (hash === undefined) {
        hash = lineHash(source.line(line))
        hashes.set(line, hash)
      }
      return hash
    }
    const record = (index: number, offset: number, subject: () => string): void => {
      const { line, column } = source.position(offset)
      const hit = { line, column, lineHash: hashOf(line), subject: subject() }
      const list = hits.get(index)
      if (list === undefined) hits.set(index, [hit])
      else list.push(hit)
    }
    const codeWindow = (offset: number): string => {
      const newline = text.indexOf('\n', offset)
      const lineEnd = newline === -1 ? text.length : newline
      return detached(text.slice(offset, Math.min(lineEnd, offset + maxSubjectLength)).trim())
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
      const position = codeSearchPosition.get(index) as number
      // Most patterns cannot occur in a given file: no budget (a clock read) for them.
      if (!found.mayOccur(position)) continue
      let offsets: readonly number[]
      try {
        offsets = found.lineMatchOffsets(position, new ScanBudget(limits))
      } catch (error) {
        if (!(error instanceof BudgetExceeded)) throw error
        overrun(index, error.overrun)
        continue
      }
      for (const offset of offsets) record(index, offset, () => codeWindow(offset))
    }
    if (readsImports) {
      const { sites, python } = findImportSites(request.path, text)
      for (const site of sites) {
        for (const index of importPatternsMatching(site.specifier, python)) {
          if (!request.patterns.includes(index) || overruns.has(index)) continue
          if ((hits.get(index)?.length ?? 0) >= limits.maxMatchesPerFile) {
            hits.delete(index)
            overrun(index, 'matches')
          } else {
            record(index, site.offset, () => detached(site.specifier))
          }
        }
      }
    }
    return {
      path: request.path,
      patterns: request.patterns,
      hits,
      dependencies: request.manifest
        ? readManifest(source, plan.dependencyFields).map((dependency) => ({ ...dependency, lineHash: hashOf(dependency.line) }))
        : [],
      waivers: findInlineWaivers(source),
      overruns,
    }
  }
}
