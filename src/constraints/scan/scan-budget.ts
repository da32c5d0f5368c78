/** Why a constraint was not judged on a file. */
export type BudgetOverrun = 'matches' | 'time'

/**
 * How much one constraint may cost on one file. A file that exceeds it is
 * reported as skipped for that constraint, never as passing it: a minified
 * bundle with thousands of matches or a slow pattern cannot hang a hook or
 * exhaust memory.
 */
export interface ScanLimits {
  maxMatchesPerFile: number
  /** Milliseconds of matching per constraint and file. */
  maxMillisPerFile: number
}

export const defaultScanLimits: ScanLimits = { maxMatchesPerFile: 1000, maxMillisPerFile: 5000 }

export class BudgetExceeded extends Error {
  constructor(readonly overrun: BudgetOverrun) {
    super(`scan budget exceeded: ${overrun}`)
  }
}

/** The budget of one constraint on one file; `spend` is called after each match the engine finds. */
export class ScanBudget {
  private readonly deadline: number

  constructor(private readonly limits: ScanLimits) {
    this.deadline = performance.now() + limits.maxMillisPerFile
  }

  /** Throws BudgetExceeded when `matches` is past the match limit or the time is up. */
  spend(matches: number): void {
    if (matches > this.limits.maxMatchesPerFile) throw new BudgetExceeded('matches')
    if (performance.now() >= this.deadline) throw new BudgetExceeded('time')
  }
}

/** No limit: for callers that judge short texts (tests, single names). */
export const unlimited: Pick<ScanBudget, 'spend'> = { spend: () => undefined }

/** Why a file was not judged, for people. */
export function describeOverrun(overrun: BudgetOverrun, limits: ScanLimits = defaultScanLimits): string {
  return overrun === 'matches' ? `over ${limits.maxMatchesPerFile} matches` : `over ${limits.maxMillisPerFile / 1000} s of matching`
}
