import { Minimatch } from 'minimatch'

/**
 * Matches workspace-relative posix paths against globs. minimatch compares
 * segment by segment, so a glob from another repository cannot make matching
 * blow up the way a backtracking regular expression can. Results are cached
 * per glob because many constraints share the same `paths`.
 */
export class GlobMatcher {
  private readonly compiled = new Map<string, { glob: Minimatch; results: Map<string, boolean> }>()

  matches(glob: string, path: string): boolean {
    let entry = this.compiled.get(glob)
    if (entry === undefined) {
      entry = { glob: new Minimatch(glob, { dot: true }), results: new Map() }
      this.compiled.set(glob, entry)
    }
    let result = entry.results.get(path)
    if (result === undefined) {
      result = entry.glob.match(path)
      entry.results.set(path, result)
    }
    return result
  }

  matchesAny(globs: readonly string[], path: string): boolean {
    return globs.some((glob) => this.matches(glob, path))
  }
}

export interface PathScope {
  paths: readonly string[]
  exclude: readonly string[]
}

/** In scope: matched by `paths` (empty means every path) and by no `exclude` glob. */
export function inScope(scope: PathScope, path: string, globs: GlobMatcher): boolean {
  if (scope.paths.length > 0 && !globs.matchesAny(scope.paths, path)) return false
  return !globs.matchesAny(scope.exclude, path)
}
