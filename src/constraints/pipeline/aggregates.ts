import type { FileFacts } from './contribution.js'

/** The sums of every file's facts: what a report counts, and what repository-wide rules are judged on. */
export interface Aggregates {
  paths: number
  files: number
  binary: number
  tooLarge: number
  symlinks: number
  hidden: number
  /** By rule index: how many paths satisfy each must_exist file constraint. */
  required: number[]
  /** By rule index: how many files satisfy each must_use import constraint. */
  imports: number[]
  /** By waivers-file entry: how many files it waived findings in. */
  fileWaiverUses: number[]
}

export function emptyAggregates(ruleCount: number, fileWaiverCount: number): Aggregates {
  return {
    paths: 0,
    files: 0,
    binary: 0,
    tooLarge: 0,
    symlinks: 0,
    hidden: 0,
    required: new Array<number>(ruleCount).fill(0),
    imports: new Array<number>(ruleCount).fill(0),
    fileWaiverUses: new Array<number>(fileWaiverCount).fill(0),
  }
}

/** The sums of these files' facts, with the symlinks the input skipped before any file was read. */
export function aggregatesOf(ruleCount: number, fileWaiverCount: number, contributions: Iterable<{ facts: FileFacts }>, symlinksSkipped: number): Aggregates {
  const aggregates = emptyAggregates(ruleCount, fileWaiverCount)
  for (const { facts } of contributions) accumulate(aggregates, facts, 1)
  aggregates.symlinks = symlinksSkipped
  return aggregates
}

/** Add a file's facts to the sums (sign 1), or take back what an earlier run added for it (sign -1). */
export function accumulate(aggregates: Aggregates, facts: FileFacts, sign: 1 | -1): void {
  switch (facts.kind) {
    case 'skipped':
      break
    case 'symlink':
      aggregates.symlinks += sign
      break
    default:
      aggregates.paths += sign
      if (facts.kind === 'scanned') aggregates.files += sign
      else if (facts.kind === 'binary') aggregates.binary += sign
      else if (facts.kind === 'too-large') aggregates.tooLarge += sign
  }
  aggregates.hidden += sign * facts.hidden
  for (const index of facts.required) aggregates.required[index] = (aggregates.required[index] ?? 0) + sign
  for (const index of facts.imports) aggregates.imports[index] = (aggregates.imports[index] ?? 0) + sign
  for (const index of facts.fileWaiversUsed) aggregates.fileWaiverUses[index] = (aggregates.fileWaiverUses[index] ?? 0) + sign
}
