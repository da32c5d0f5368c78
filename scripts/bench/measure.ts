import { spawnSync } from 'node:child_process'
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
export function timeMk(args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv; runs?: number; warmup?: number; budgetMs?: number }): ProcessTiming {
  const runs = options.runs ?? 7
  const times: number[] = []
  for (let index = 0; index < (options.warmup ?? 1) + runs; index++) {
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
