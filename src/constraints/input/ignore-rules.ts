import { existsSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ignore, { type Ignore } from 'ignore'
import { toPosix } from '../../fs/walk.js'

/** Directories never descended into, whatever the ignore files say. */
export const alwaysSkippedDirectories: ReadonlySet<string> = new Set(['.git', 'node_modules', '.mk'])

interface IgnoreLayer {
  /** Path from the layer's folder to the workspace root ('' when the same, 'packages/app/' when an ancestor). */
  prefix: string
  /** Workspace-relative folder of the layer ('' for the root) when it is at or below the workspace root. */
  below: string | undefined
  rules: Ignore
  /** The patterns the rules were made from, to make them again without what they remember. */
  source: string
}

function readIgnoreFile(path: string): { rules: Ignore; source: string } | undefined {
  if (!existsSync(path)) return undefined
  const source = readFileSync(path, 'utf8')
  return { rules: ignore().add(source), source }
}

/**
 * `.gitignore` files (from the git root down), `.git/info/exclude` and the
 * `check.ignore` globs of `.mkrc`, answered for workspace-relative paths.
 */
export class IgnoreRules {
  private readonly layers: IgnoreLayer[] = []
  private configured: Ignore | undefined

  constructor(
    private readonly root: string,
    gitRoot: string | undefined,
    private readonly checkIgnore: readonly string[],
  ) {
    // Asked of every path of the git index: with no globs configured there is nothing to ask.
    this.configured = checkIgnore.length === 0 ? undefined : ignore().add([...checkIgnore])
    if (gitRoot === undefined) return
    const exclude = readIgnoreFile(join(gitRoot, '.git', 'info', 'exclude'))
    const toRoot = toPosix(relative(gitRoot, root))
    if (exclude !== undefined) this.layers.push({ prefix: toRoot === '' ? '' : `${toRoot}/`, below: undefined, ...exclude })
    // .gitignore files of the folders between the git root and the workspace root.
    const segments = toRoot === '' ? [] : toRoot.split('/')
    for (let depth = 0; depth < segments.length; depth++) {
      const file = readIgnoreFile(join(gitRoot, ...segments.slice(0, depth), '.gitignore'))
      if (file !== undefined) this.layers.push({ prefix: `${segments.slice(depth).join('/')}/`, below: undefined, ...file })
    }
  }

  /** Read the `.gitignore` of a workspace folder ('' for the root) before its entries are tested. */
  enterDirectory(directory: string): void {
    const file = readIgnoreFile(join(this.root, directory, '.gitignore'))
    if (file !== undefined) this.layers.push({ prefix: '', below: directory === '' ? '' : `${directory}/`, ...file })
  }

  /**
   * Forget the answers given so far, keeping the rules. The ignore package
   * remembers the answer for every path it is asked about: after a walk of
   * 50,000 files, 100,000 answers (some 11 MB) that no later question needs,
   * kept for as long as the check runs.
   */
  forgetAnswers(): void {
    for (const layer of this.layers) layer.rules = ignore().add(layer.source)
    if (this.configured !== undefined) this.configured = ignore().add([...this.checkIgnore])
  }

  /** Ignored by `check.ignore` only (explicitly named files and the git index skip .gitignore). */
  configuredIgnores(path: string, isDirectory = false): boolean {
    return this.configured?.ignores(isDirectory ? `${path}/` : path) ?? false
  }

  ignores(path: string, isDirectory: boolean): boolean {
    if (this.configuredIgnores(path, isDirectory)) return true
    const tested = isDirectory ? `${path}/` : path
    // The deepest ignore file with an opinion wins, as in git.
    for (let index = this.layers.length - 1; index >= 0; index--) {
      const layer = this.layers[index] as IgnoreLayer
      let local: string
      if (layer.below === undefined) local = layer.prefix + tested
      else if (tested.startsWith(layer.below)) local = tested.slice(layer.below.length)
      else continue
      const result = layer.rules.test(local)
      if (result.ignored) return true
      if (result.unignored) return false
    }
    return false
  }
}
