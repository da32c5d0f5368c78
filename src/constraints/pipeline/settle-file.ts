import type { ConstraintRule } from '../model.js'
import { hideBaselined, type Baseline, type FileBaseline } from '../waivers/baseline.js'
import { subjectHash } from '../waivers/fingerprint.js'
import type { Waiver } from '../waivers/inline-waivers.js'
import { settleWaivers, type WaiverSetup } from '../waivers/waivers.js'
import type { FileListing, StoredFinding } from './contribution.js'

/** A baseline as files are settled against it: the entries of one file at a time. */
export interface BaselineView {
  version: Baseline['version']
  entriesOf(file: string): FileBaseline | undefined
}

/** What settling a file's findings depends on, the same for every file of a run. */
export class Settlement {
  private readonly subjectHashes = new Map<string, string>()
  /** Indices of the waivers-file entries that apply at all. */
  readonly validFileWaivers: number[]

  constructor(
    readonly rules: readonly ConstraintRule[],
    readonly waivers: WaiverSetup,
    validFileWaivers: readonly boolean[],
    readonly baseline: BaselineView | undefined,
  ) {
    this.validFileWaivers = validFileWaivers.flatMap((valid, index) => (valid ? [index] : []))
  }

  readonly subjectHashOf = (subject: string): string => {
    let hash = this.subjectHashes.get(subject)
    if (hash === undefined) this.subjectHashes.set(subject, (hash = subjectHash(subject)))
    return hash
  }
}

/** The lists of a file that has none of a kind: shared by every such file, so frozen. */
const none: never[] = Object.freeze([]) as never[]

/**
 * One file's findings (in rule order) after its waivers and its baseline
 * entries: what it lists, what it hid, which file waivers it used. The
 * findings are the caller's own list for this file, and may be the listing's.
 */
export function settleFile(
  file: string,
  findings: StoredFinding[],
  inlineWaivers: readonly Waiver[],
  settlement: Settlement,
): { listing: Omit<FileListing, 'overBudget'>; hidden: number; fileWaiversUsed: number[] } {
  const { rules, baseline } = settlement
  const constraintOf = (finding: StoredFinding): string => (rules[finding.rule] as ConstraintRule).constraint.id
  const waivers = inlineWaivers.length === 0 && settlement.validFileWaivers.length === 0 ? undefined : settleFindingWaivers(findings, inlineWaivers, settlement)
  const unwaived = waivers?.kept ?? findings
  const { kept, hidden } =
    baseline === undefined
      ? { kept: unwaived, hidden: 0 }
      : hideBaselined(unwaived, baseline.entriesOf(file), baseline.version, settlement.subjectHashOf, constraintOf)
  return {
    listing: {
      kept: kept.length === 0 ? none : [...kept],
      waived: waivers?.waived ?? none,
      invalidWaivers: waivers?.invalidWaivers ?? none,
      refusals: waivers?.refusals ?? none,
      unmatchedWaivers: waivers?.unmatchedWaivers ?? none,
    },
    hidden,
    fileWaiversUsed: waivers?.fileWaiversUsed ?? none,
  }
}

/** settleWaivers over stored findings, with what a waiver decides by. */
function settleFindingWaivers(
  findings: readonly StoredFinding[],
  inlineWaivers: readonly Waiver[],
  settlement: Settlement,
): Omit<FileListing, 'overBudget'> & { fileWaiversUsed: number[] } {
  const pending = findings.map((stored) => {
    const { constraint } = settlement.rules[stored.rule] as ConstraintRule
    return { stored, constraintId: constraint.id, file: stored.file, line: stored.line, waivable: constraint.waivable }
  })
  const waivers = settleWaivers(pending, inlineWaivers, settlement.validFileWaivers, settlement.waivers)
  return {
    kept: waivers.kept.map(({ stored }) => stored),
    waived: waivers.waived.map(({ finding, waiver }) => ({
      finding: finding.stored,
      waiver: { source: waiver.source, file: waiver.file, line: waiver.line, reason: waiver.reason, owner: waiver.owner, expires: waiver.expires },
    })),
    invalidWaivers: waivers.invalidWaivers,
    refusals: waivers.refusals.map(({ finding, fileWaiver, problem }) => ({ rule: finding.stored.rule, seq: finding.stored.seq, fileWaiver, problem })),
    unmatchedWaivers: waivers.unmatchedWaivers,
    fileWaiversUsed: waivers.fileWaiversUsed,
  }
}
