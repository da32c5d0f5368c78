import type { WaiverProblem } from '../model.js'
import type { Finding, WaiverRef } from '../model.js'
import type { BudgetOverrun } from '../scan/scan-budget.js'

/**
 * A finding as a file's contribution keeps it: its rule by index among the
 * run's rules (the cache key holds the rules), and `seq`, its place among the
 * file's findings in rule order, which with the rule and the path gives the
 * order a whole-tree evaluation would have produced it in.
 */
export type StoredFinding = Omit<Finding, 'rule'> & { rule: number; seq: number }

/** A waiver that covered a finding of a constraint that is not waivable: reported once per waiver, at the first such finding. */
export interface Refusal {
  rule: number
  seq: number
  /** Index of a waivers-file entry, undefined for an inline waiver (which covers its own file only). */
  fileWaiver: number | undefined
  problem: WaiverProblem
}

/** What a file adds to the lists a report prints. */
export interface FileListing {
  /** Findings left after waivers and the baseline, before the severity filter. */
  kept: StoredFinding[]
  waived: { finding: StoredFinding; waiver: WaiverRef }[]
  /** Problems of the file's inline waivers found without looking at findings (unknown constraint, no reason, expired). */
  invalidWaivers: WaiverProblem[]
  refusals: Refusal[]
  /** The file's valid inline waivers that covered nothing. */
  unmatchedWaivers: WaiverProblem[]
  overBudget: { rule: number; reason: BudgetOverrun }[]
}

export const fileKinds = ['skipped', 'symlink', 'unread', 'scanned', 'binary', 'too-large'] as const
export type FileKind = (typeof fileKinds)[number]

/** What a file adds to a report's counts and to the repository-wide verdicts. */
export interface FileFacts {
  /** skipped: not a file the check considers (outside the workspace, a submodule, check.ignore); unread: considered, but no rule reads it. */
  kind: FileKind
  /** Its findings the baseline hid. */
  hidden: number
  /** ConstraintRule indices of `must_exist` file constraints this path satisfies. */
  required: number[]
  /** ConstraintRule indices of `must_use` import constraints this file satisfies. */
  imports: number[]
  /** Indices of the waivers-file entries that waived one of its findings. */
  fileWaiversUsed: number[]
}

export interface FileContribution {
  facts: FileFacts
  /** Undefined when the file adds nothing to any list (most files of a baselined repository). */
  listing: FileListing | undefined
}

export function isEmptyListing(listing: FileListing): boolean {
  return (
    listing.kept.length === 0 &&
    listing.waived.length === 0 &&
    listing.invalidWaivers.length === 0 &&
    listing.refusals.length === 0 &&
    listing.unmatchedWaivers.length === 0 &&
    listing.overBudget.length === 0
  )
}

/** A file's facts as a cache stores them: compact JSON. */
export function encodeFacts(facts: FileFacts): string {
  return JSON.stringify([fileKinds.indexOf(facts.kind), facts.hidden, facts.required, facts.imports, facts.fileWaiversUsed])
}

const isIndexList = (value: unknown): value is number[] => Array.isArray(value) && value.every((item) => Number.isInteger(item) && (item as number) >= 0)

/** Stored facts; a frame's checksum vouches that a run wrote them, the shape is checked anyway (throws when it is not facts). */
export function decodeFacts(text: string): FileFacts {
  const value: unknown = JSON.parse(text)
  if (!Array.isArray(value) || value.length !== 5) throw new TypeError('not the facts of a record')
  const [kind, hidden, required, imports, fileWaiversUsed] = value as unknown[]
  const kindName = typeof kind === 'number' ? fileKinds[kind] : undefined
  if (kindName === undefined || !Number.isInteger(hidden) || !isIndexList(required) || !isIndexList(imports) || !isIndexList(fileWaiversUsed))
    throw new TypeError('not the facts of a record')
  return { kind: kindName, hidden: hidden as number, required, imports, fileWaiversUsed }
}
