import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const mkBin = fileURLToPath(new URL('../../../bin/run.js', import.meta.url))

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

export function round(value: number, digits = 1): number {
  const factor = 10 ** digits
  return Math.round(value * factor) / factor
}

export interface ProcessTiming {
  median_ms: number
  runs: number
  budget_ms?: number
  within_budget?: boolean
}

/** Median wall time of a whole `mk` process, as a user at a terminal would feel it. */
export function timeMk(
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; runs?: number; warmup?: number; budgetMs?: number; before?: () => void },
): ProcessTiming {
  const runs = options.runs ?? 7
  const times: number[] = []
  for (let index = 0; index < (options.warmup ?? 1) + runs; index++) {
    options.before?.()
    const started = performance.now()
    const result = spawnSync(process.execPath, [mkBin, ...args], { cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', ...options.env }, encoding: 'utf8' })
    const elapsed = performance.now() - started
    if (result.status !== 0 && result.status !== 1) {
      throw new Error(`mk ${args.join(' ')} exited ${String(result.status)}: ${result.stderr}${result.stdout}`)
    }
    if (index >= (options.warmup ?? 1)) times.push(elapsed)
  }
  const timing: ProcessTiming = { median_ms: round(median(times)), runs }
  if (options.budgetMs !== undefined) {
    timing.budget_ms = options.budgetMs
    timing.within_budget = timing.median_ms <= options.budgetMs
  }
  return timing
}

/** A fixed amount of arithmetic (a brute-force scan of 10,000 512-d vectors), to compare runs on busy and idle machines. */
export function calibrationMs(): number {
  const dimensions = 512
  const matrix = new Float32Array(10_000 * dimensions).map((_, index) => ((index * 7919) % 1000) / 1000 - 0.5)
  const query = new Float32Array(dimensions).fill(0.01)
  const times: number[] = []
  // Used in the result so the loop cannot be optimised away.
  let checksum = 0
  for (let run = 0; run < 5; run++) {
    const started = performance.now()
    let best = -Infinity
    for (let row = 0; row < 10_000; row++) {
      let dot = 0
      for (let column = 0; column < dimensions; column++) dot += (matrix[row * dimensions + column] ?? 0) * (query[column] ?? 0)
      best = Math.max(best, dot)
    }
    times.push(performance.now() - started)
    checksum += best
  }
  return Number.isFinite(checksum) ? round(median(times)) : Number.NaN
}

/** Median wall time of `node -e 0`: the floor under every whole-process figure, and how fast this machine is starting processes right now. */
export function nodeStartupMs(runs = 9): number {
  const times: number[] = []
  for (let run = 0; run <= runs; run++) {
    const started = performance.now()
    spawnSync(process.execPath, ['-e', '0'])
    if (run > 0) times.push(performance.now() - started)
  }
  return round(median(times))
}

/** CPU time (user + system) a running process has used so far, in ms (Linux, in clock ticks of 10 ms). */
export function cpuMsOf(pid: number | null | undefined): number | undefined {
  if (pid === null || pid === undefined) return undefined
  try {
    // The fields after the command name, which may hold spaces: utime and stime are the 12th and 13th of them.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()?.split(' ') ?? []
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return undefined
  }
}
