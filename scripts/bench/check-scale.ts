import { spawnSync } from 'node:child_process'
import { appendFileSync, rmSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { benchConstraints, makeCheckWorkspace } from './check-workspace.js'
import { median, mkBin, nodeStartupMs, round } from './measure.js'

interface Timed {
  median_ms: number
  runs: number
  peak_rss_mb: number | string
}

/** One timed whole `mk` process: wall time and peak RSS in KB (undefined without /usr/bin/time). */
function timeOnce(args: readonly string[], cwd: string, env: Record<string, string>): { ms: number; peakKb: number | undefined } {
  const started = performance.now()
  const result = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, mkBin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
    maxBuffer: 256 * 1024 * 1024,
  })
  const ms = performance.now() - started
  if (result.error !== undefined) return { ms, peakKb: undefined }
  if (result.status !== 0 && result.status !== 1) throw new Error(`mk ${args.join(' ')} exited ${String(result.status)}: ${result.stderr}`)
  return { ms, peakKb: Number(result.stderr.trim().split('\n').pop()) }
}

function summary(samples: readonly { ms: number; peakKb: number | undefined }[]): Timed {
  const known = samples.every((sample) => sample.peakKb !== undefined)
  const peakKb = Math.max(...samples.map((sample) => sample.peakKb ?? 0))
  return {
    median_ms: round(median(samples.map((sample) => sample.ms))),
    runs: samples.length,
    peak_rss_mb: known ? round(peakKb / 1024) : 'not available (/usr/bin/time missing)',
  }
}

/** Median wall time and the highest peak RSS of whole `mk` processes; `before` runs untimed ahead of each. */
function timeRuns(args: readonly string[], cwd: string, runs: number, before: () => void): Timed {
  return summary(
    Array.from({ length: runs }, () => {
      before()
      return timeOnce(args, cwd, {})
    }),
  )
}

/** Several environments of one command, run in turn round after round, so that a machine that drifts during the runs weighs on each alike. */
function timeInterleaved(args: readonly string[], cwd: string, runs: number, before: () => void, envs: readonly Record<string, string>[]): Timed[] {
  const samples = envs.map(() => [] as { ms: number; peakKb: number | undefined }[])
  for (let round = 0; round < runs; round++) {
    envs.forEach((env, index) => {
      before()
      samples[index]?.push(timeOnce(args, cwd, env))
    })
  }
  return samples.map(summary)
}

function timeRipgrep(cwd: string, runs: number): number {
  const patterns = benchConstraints.filter((constraint) => constraint.target === 'code' && constraint.operator === 'must_not_match')
  // The path is named: without one, ripgrep searches its standard input when that is not a terminal, as under spawnSync.
  const args = ['--count-matches', '--glob', '!knowledge/**', ...patterns.flatMap((constraint) => ['-e', constraint.pattern]), '.']
  const times: number[] = []
  for (let index = 0; index <= runs; index++) {
    const started = performance.now()
    const result = spawnSync('rg', args, { cwd, maxBuffer: 64 * 1024 * 1024 })
    if (result.status !== 0) throw new Error(`rg exited ${String(result.status)}: ${String(result.stderr)}`)
    if (index > 0) times.push(performance.now() - started)
  }
  return round(median(times))
}

/** Remove the scan cache of a workspace: the next check reads every file. */
export function clearScanCache(root: string): void {
  rmSync(join(root, '.mk', 'cache'), { recursive: true, force: true })
}

/**
 * git in a bench workspace. No automatic gc or maintenance: a commit of thousands of files
 * started one in the background, which wrote into .git while the workspace was being removed
 * (ENOTEMPTY on .git/info).
 */
export function benchGit(cwd: string, ...args: string[]): void {
  const settings = ['user.email=bench@example.com', 'user.name=Bench', 'gc.auto=0', 'maintenance.auto=false']
  const result = spawnSync('git', [...settings.flatMap((setting) => ['-c', setting]), ...args], { cwd, encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`)
}

/**
 * One workspace size: a full check with no scan cache (cold; also forced onto
 * one thread, and onto scan threads below their threshold, in turn with it),
 * again with the caches of an unchanged tree (warm), and the pre-commit hook:
 * `--staged` with one file changed and staged before each run, so that file
 * is never in the cache; then, with a baseline, the hook and the warm check again.
 */
async function benchSize(files: number, ripgrep: boolean, nodeMs: number): Promise<Record<string, unknown>> {
  const { root } = await makeCheckWorkspace(files)
  try {
    benchGit(root, 'init', '-q')
    benchGit(root, 'add', '-A')
    benchGit(root, 'commit', '-qm', 'bench')
    const runs = files >= 50_000 ? 3 : 5
    const clear = (): void => clearScanCache(root)
    // Untimed: the files were just written, and the first run also waits for the system to settle them (ripgrep's first run is dropped too).
    timeRuns(['knowledge', 'check'], root, 1, clear)
    // Also where scan threads start to pay (MK_CHECK_THREADS_FROM's default): the cold check on one thread, and on threads whatever the size.
    const [cold, coldOneThread, coldOnThreads] = timeInterleaved(['knowledge', 'check'], root, runs, clear, [
      {},
      { MK_CHECK_THREADS: '0' },
      { MK_CHECK_THREADS_FROM: '1' },
    ]) as [Timed, Timed, Timed]
    // The working tree's cache trusts stat data only of files older than two seconds.
    await new Promise((resolve) => setTimeout(resolve, 2100))
    timeRuns(['knowledge', 'check'], root, 1, () => undefined)
    const warm = timeRuns(['knowledge', 'check'], root, runs, () => undefined)
    timeRuns(['knowledge', 'check', '--staged'], root, 1, () => undefined)
    let edit = 0
    const stageOne = (): void => {
      appendFileSync(join(root, 'src/module0/file0.ts'), `  // edit ${++edit}\n`)
      benchGit(root, 'add', 'src/module0/file0.ts')
    }
    const staged = timeRuns(['knowledge', 'check', '--staged'], root, runs + 2, stageOne)
    const stagedCold = timeRuns(['knowledge', 'check', '--staged'], root, 1, () => {
      clear()
      stageOne()
    })
    // A repository adopting mk records its old violations: the hook then prints only new ones.
    spawnSync(process.execPath, [mkBin, 'knowledge', 'check', '--update-baseline'], { cwd: root })
    // Hooks run long after the baseline is written; within two seconds of a write its stat data is not trusted and it is hashed on every run.
    await new Promise((resolve) => setTimeout(resolve, 2100))
    timeRuns(['knowledge', 'check', '--staged'], root, 1, () => undefined)
    // A few hundred milliseconds each: more runs steady the median the flatness ratio is taken from.
    const stagedBaselined = timeRuns(['knowledge', 'check', '--staged'], root, runs + 4, stageOne)
    // The working tree of a repository with a baseline, unchanged since the last check: what `mk knowledge check` costs by hand or on save.
    await new Promise((resolve) => setTimeout(resolve, 2100))
    timeRuns(['knowledge', 'check'], root, 1, () => undefined)
    const warmBaselined = timeRuns(['knowledge', 'check'], root, runs, () => undefined)
    const figures: Record<string, unknown> = {
      files,
      cold,
      cold_one_thread: coldOneThread,
      cold_on_threads: coldOnThreads,
      one_thread_over_threads: round(coldOneThread.median_ms / coldOnThreads.median_ms, 2),
      warm,
      warm_with_baseline: warmBaselined,
      staged_one_file: staged,
      staged_one_file_with_baseline: stagedBaselined,
      staged_without_cache: stagedCold,
      warm_over_node: round(warm.median_ms / nodeMs, 2),
      warm_with_baseline_over_node: round(warmBaselined.median_ms / nodeMs, 2),
      staged_over_node: round(staged.median_ms / nodeMs, 2),
      staged_with_baseline_over_node: round(stagedBaselined.median_ms / nodeMs, 2),
    }
    if (ripgrep) {
      const rg = timeRipgrep(root, runs)
      figures.ripgrep_all_patterns_ms = rg
      figures.cold_over_ripgrep = round(cold.median_ms / rg, 2)
    }
    return figures
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}

/** Sizes from MK_BENCH_CHECK_SIZES (comma-separated file counts), else 2,000, 10,000 and 50,000. */
export async function benchCheckScale(ripgrep: boolean): Promise<Record<string, unknown>> {
  const sizes = (process.env.MK_BENCH_CHECK_SIZES ?? '2000,10000,50000').split(',').map(Number)
  const nodeMs = nodeStartupMs()
  const results: Record<string, unknown> = { node_e_0_ms: nodeMs, constraints: benchConstraints.length }
  for (const files of sizes) {
    process.stderr.write(`bench: check at ${files} files...\n`)
    results[`files_${files}`] = await benchSize(files, ripgrep, nodeMs)
  }
  type HookFigures = { staged_one_file: Timed; staged_one_file_with_baseline: Timed }
  const small = results[`files_${sizes[0]}`] as HookFigures | undefined
  const large = results[`files_${sizes[sizes.length - 1]}`] as HookFigures | undefined
  if (small !== undefined && large !== undefined && sizes.length > 1) {
    // Without a baseline the bench prints ~1.6 violations per file: that hook grows with what it prints.
    results.staged_largest_over_smallest = round(large.staged_one_file.median_ms / small.staged_one_file.median_ms, 2)
    results.staged_with_baseline_largest_over_smallest = round(large.staged_one_file_with_baseline.median_ms / small.staged_one_file_with_baseline.median_ms, 2)
  }
  return results
}
