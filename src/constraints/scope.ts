import { Minimatch } from 'minimatch'

/**
 * Matches workspace-relative posix paths against globs. minimatch compares
 * segment by segment, so a glob from another repository cannot make matching
 * blow up the way a backtracking regular expression can. Results are cached
 * per glob because many constraints share the same `paths`.
 */
export class GlobMatcher {
  private readonly compiled = new Map<string, CompiledGlob>()

  matches(glob: string, path: string): boolean {
    let entry = this.compiled.get(glob)
    if (entry === undefined) {
      entry = compileGlob(glob)
      this.compiled.set(glob, entry)
    }
    if (!path.startsWith(entry.prefix) || !path.endsWith(entry.suffix)) return false
    if (entry.shape !== undefined) {
      const answer = entry.shape(path)
      if (answer !== undefined) return answer
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

interface CompiledGlob {
  glob: Minimatch
  /** Literal text every matching path starts and ends with: a cheap test before minimatch. */
  prefix: string
  suffix: string
  results: Map<string, boolean>
  /** The answer for a path already known to carry the prefix and suffix, where the glob's shape gives it without minimatch. */
  shape: ((path: string) => boolean | undefined) | undefined
}

const globSyntax = /[*?[\]{}()!+@\\]/

/**
 * `dir/**`, `**` + `/*.ext` and `dir/**` + `/*.ext` are most scopes. For a path that carries
 * the prefix and suffix they hold exactly when the file name is more than its
 * extension (`*` never matches nothing before `.ext` here); minimatch decides the rest.
 */
const extensionGlob = /^(?:[^*?[\]{}()!+@\\]+\/)?\*\*\/\*\.[\w-]+$/
const folderGlob = /^[^*?[\]{}()!+@\\]+\/\*\*$/

function shapeOf(glob: string, suffix: string): CompiledGlob['shape'] {
  if (folderGlob.test(glob)) return () => true
  if (extensionGlob.test(glob)) return (path) => (path.length - path.lastIndexOf('/') - 1 > suffix.length ? true : undefined)
  return undefined
}

function compileGlob(glob: string): CompiledGlob {
  const matcher = new Minimatch(glob, { dot: true })
  const special = glob.search(globSyntax)
  if (special === -1) return { glob: matcher, prefix: glob, suffix: glob, results: new Map(), shape: undefined }
  let lastSpecial = special
  for (let index = special; index < glob.length; index++) if (globSyntax.test(glob.charAt(index))) lastSpecial = index
  // `**/x` also matches `x` at the root, so a suffix never keeps its leading slash.
  const suffix = glob.slice(lastSpecial + 1).replace(/^\/+/, '')
  return { glob: matcher, prefix: glob.slice(0, special), suffix, results: new Map(), shape: shapeOf(glob, suffix) }
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
