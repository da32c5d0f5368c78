import { spawnSync } from 'node:child_process'
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A build of mk to measure: the `bin/run.js` of a checkout, and how it was made. */
export interface MkBuild {
  label: string
  commit: string
  bin: string
  /** How the build got its node_modules, and whether it was built now or reused. */
  notes: string[]
}

function run(command: string, args: readonly string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${result.stderr}${result.stdout}`)
  return result.stdout.trim()
}

/** The current checkout, as built by `npm run bench`. */
export function currentBuild(repository: string): MkBuild {
  const commit = run('git', ['rev-parse', 'HEAD'], repository)
  const dirty = run('git', ['status', '--porcelain', '--untracked-files=no'], repository) !== ''
  return { label: 'new', commit, bin: join(repository, 'bin', 'run.js'), notes: [`this checkout${dirty ? ' with uncommitted changes' : ''}`] }
}

const lockfile = (root: string): string => readFileSync(join(root, 'package-lock.json'), 'utf8')

/**
 * Why a kept scratch build can no longer be trusted, or undefined when it can. Its
 * node_modules may be a symlink to this checkout's, made when both lockfiles were the
 * same: once this checkout's dependencies change, the old build would run on them.
 */
export function staleBuildReason(dir: string, repository: string): string | undefined {
  const modules = join(dir, 'node_modules')
  if (lstatSync(modules, { throwIfNoEntry: false })?.isSymbolicLink() !== true) return undefined
  // existsSync follows the link: false for a link whose folder was removed (a checkout's worktree).
  if (!existsSync(modules)) return 'node_modules is a symlink to a folder that no longer exists'
  if (lockfile(dir) === lockfile(repository)) return undefined
  return "node_modules is a symlink to this checkout's, whose package-lock.json has changed since the build"
}

/**
 * A ref built in a scratch worktree under the temp dir, one per commit, kept for the next
 * comparison (a build takes a minute and `npm ci` several). node_modules is a symlink to this
 * checkout's when both lockfiles are the same, else installed there with `npm ci`.
 */
export function refBuild(repository: string, ref: string): MkBuild {
  const commit = run('git', ['rev-parse', '--verify', `${ref}^{commit}`], repository)
  const home = join(tmpdir(), 'mk-bench-compare')
  const dir = join(home, commit.slice(0, 12))
  const notes: string[] = [`scratch worktree ${dir}`]
  const builtMarker = join(dir, '.mk-bench-built')
  const stale = existsSync(builtMarker) ? staleBuildReason(dir, repository) : undefined
  if (existsSync(builtMarker) && stale === undefined)
    return { label: 'old', commit, bin: join(dir, 'bin', 'run.js'), notes: [...notes, readFileSync(builtMarker, 'utf8').trim(), 'reused the earlier build'] }
  if (stale !== undefined) {
    process.stderr.write(`compare: the kept build of ${ref} is stale (${stale}): installing and building again\n`)
    rmSync(join(dir, 'node_modules'))
    rmSync(builtMarker)
    notes.push(`rebuilt: ${stale}`)
  }
  mkdirSync(home, { recursive: true })
  if (!existsSync(join(dir, 'package.json'))) run('git', ['worktree', 'add', '--force', '--detach', dir, commit], repository)
  let install: string
  if (existsSync(join(dir, 'node_modules'))) {
    install = 'node_modules already there'
  } else if (lockfile(dir) === lockfile(repository)) {
    // To the folder itself: this checkout's node_modules may be a link into another checkout that goes away.
    symlinkSync(realpathSync(join(repository, 'node_modules')), join(dir, 'node_modules'), 'dir')
    install = 'node_modules: symlink to this checkout (same package-lock.json)'
  } else {
    process.stderr.write(`compare: ${ref}'s package-lock.json differs from this checkout's: npm ci in ${dir} (takes minutes)\n`)
    run('npm', ['ci', '--no-audit', '--no-fund'], dir)
    install = 'node_modules: npm ci (package-lock.json differs from this checkout)'
  }
  process.stderr.write(`compare: building ${ref} (${commit.slice(0, 12)}) in ${dir}\n`)
  // Older commits build with `prepare` or `postinstall` too: the build script is the same entry point for all.
  run('npm', ['run', 'build'], dir)
  writeFileSync(builtMarker, `${install}\n`)
  return { label: 'old', commit, bin: join(dir, 'bin', 'run.js'), notes: [...notes, install, 'built now'] }
}
