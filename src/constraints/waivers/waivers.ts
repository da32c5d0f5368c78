import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { Node } from 'yaml'
import { z } from 'zod'
import { MkError } from '../../errors.js'
import { describeIssues } from '../../validation.js'
import type { Waiver } from './inline-waivers.js'
import type { WaiverProblem } from '../model.js'
import type { GlobMatcher } from '../scope.js'
import { globEscapeError } from '../../fs/path-guard.js'

const datePattern = /^\d{4}-\d{2}-\d{2}$/

const fileWaiverSchema = z.strictObject({
  constraint: z.string().min(1),
  paths: z.union([z.string().min(1), z.array(z.string().min(1))]).optional(),
  reason: z.string().optional(),
  owner: z.string().optional(),
  expires: z.union([z.date().transform((date) => date.toISOString().slice(0, 10)), z.string().regex(datePattern, 'a date YYYY-MM-DD')]).optional(),
})

const waiversFileSchema = z.strictObject({ waivers: z.array(fileWaiverSchema).default([]) })

// `yaml` takes tens of milliseconds to load: only a check that has a waivers file pays for it.
const require = createRequire(import.meta.url)

/** Read the waivers file (`check.waivers`, default knowledge/waivers.yaml); a malformed file makes the check untrustworthy. */
export function loadFileWaivers(root: string, file: string): Waiver[] {
  const absolute = join(root, file)
  if (!existsSync(absolute)) return []
  return parseFileWaivers(file, readFileSync(absolute, 'utf8'))
}

/** The waivers in `text`, the content of the waivers file `file`. */
export function parseFileWaivers(file: string, text: string): Waiver[] {
  const { isMap, isSeq, LineCounter, parseDocument } = require('yaml') as typeof import('yaml')
  const lineCounter = new LineCounter()
  const document = parseDocument(text, { lineCounter, prettyErrors: false })
  const fail = (line: number, message: string): never => {
    throw new MkError('INVALID_INPUT', `${file}:${line}: ${message}`, {
      details: { file, line, hint: 'entries are {constraint, paths, reason, owner, expires} under a top-level waivers: list' },
    })
  }
  const syntaxError = document.errors[0]
  if (syntaxError !== undefined) fail(lineCounter.linePos(syntaxError.pos[0]).line, `malformed YAML: ${syntaxError.message.split('\n')[0] ?? ''}`)
  const raw: unknown = document.toJS() ?? {}
  const lineOfEntry = (index: number): number => {
    const list = isMap(document.contents) ? document.contents.get('waivers', true) : undefined
    const node = isSeq(list) ? (list.items[index] as Node | undefined) : undefined
    return node?.range === undefined || node.range === null ? 1 : lineCounter.linePos(node.range[0]).line
  }
  const parsed = waiversFileSchema.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const index = typeof issue?.path[1] === 'number' ? issue.path[1] : undefined
    fail(index === undefined ? 1 : lineOfEntry(index), describeIssues(parsed.error.issues, raw)[0]?.message ?? 'invalid waivers file')
  }
  const entries = parsed.success ? parsed.data.waivers : []
  return entries.map((entry, index) => {
    const paths = entry.paths === undefined ? [] : typeof entry.paths === 'string' ? [entry.paths] : entry.paths
    for (const glob of paths) {
      const problem = globEscapeError(glob)
      if (problem !== undefined) fail(lineOfEntry(index), `waivers[${index}].paths: ${problem}`)
    }
    return {
      source: 'file',
      file,
      line: lineOfEntry(index),
      constraintIds: [entry.constraint],
      paths,
      coversLine: undefined,
      reason: entry.reason?.trim() ?? '',
      owner: entry.owner,
      expires: entry.expires,
    }
  })
}

/** What deciding whether a waiver applies depends on, the same for every file of a run. */
export interface WaiverSetup {
  fileWaivers: readonly Waiver[]
  /** Every constraint id of every accepted item. */
  knownConstraintIds: ReadonlySet<string>
  /** Ids of the constraints this run evaluates. */
  activeConstraintIds: ReadonlySet<string>
  /** Today as YYYY-MM-DD (UTC): a waiver expiring today still applies. */
  today: string
  globs: GlobMatcher
}

/** What a waiver covers a finding by. */
interface Covered {
  constraintId: string
  file: string
  line: number
}

function covers(waiver: Waiver, finding: Covered, globs: GlobMatcher): boolean {
  if (!waiver.constraintIds.includes(finding.constraintId)) return false
  if (waiver.source === 'inline') {
    return waiver.file === finding.file && finding.line === waiver.coversLine
  }
  return waiver.paths.length === 0 || globs.matchesAny(waiver.paths, finding.file)
}

function where(waiver: Waiver): string {
  return `${waiver.file}:${waiver.line}`
}

function problem(waiver: Waiver, constraintId: string, kind: WaiverProblem['kind'], message: string): WaiverProblem {
  return { kind, constraintId, file: waiver.file, line: waiver.line, message }
}

/** Why a waiver does not apply at all (unknown constraint, no reason, expired); none when it is valid. */
export function waiverValidity(waiver: Waiver, setup: WaiverSetup): WaiverProblem[] {
  const problems: WaiverProblem[] = []
  for (const id of waiver.constraintIds) {
    if (!setup.knownConstraintIds.has(id))
      problems.push(problem(waiver, id, 'unknown-constraint', `waiver at ${where(waiver)} names constraint ${id}, which no accepted knowledge item defines`))
  }
  if (waiver.reason === '') {
    problems.push(
      problem(
        waiver,
        waiver.constraintIds.join(','),
        'missing-reason',
        `waiver at ${where(waiver)} has no reason and does not apply; write "mk-ignore <id> -- <why>" or a reason: in the waivers file`,
      ),
    )
  } else if (waiver.expires !== undefined && waiver.expires < setup.today) {
    problems.push(problem(waiver, waiver.constraintIds.join(','), 'expired', `waiver at ${where(waiver)} expired on ${waiver.expires} and no longer applies`))
  }
  return problems
}

/** The problem of a valid waiver that covered no finding, unless none of its constraints was evaluated. */
export function unmatchedProblem(waiver: Waiver, setup: WaiverSetup): WaiverProblem | undefined {
  if (!waiver.constraintIds.some((id) => setup.activeConstraintIds.has(id))) return undefined
  return problem(waiver, waiver.constraintIds.join(','), 'unmatched', `waiver at ${where(waiver)} matched no violation; remove it`)
}

/** A finding to settle: what a waiver covers it by, and whether its constraint can be waived. */
export interface WaivableFinding extends Covered {
  waivable: boolean
}

export interface WaiverSettlement<F> {
  kept: F[]
  waived: { finding: F; waiver: Waiver }[]
  /** Problems of the file's inline waivers that do not depend on findings. */
  invalidWaivers: WaiverProblem[]
  /** Waivers (file waivers by index) that covered a finding they may not waive, at the first such finding. */
  refusals: { finding: F; fileWaiver: number | undefined; problem: WaiverProblem }[]
  /** The file's valid inline waivers that covered nothing. */
  unmatchedWaivers: WaiverProblem[]
  /** Indices of the file waivers that waived a finding. */
  fileWaiversUsed: number[]
}

/**
 * Set aside the findings of one file that a valid waiver covers: the file's
 * own inline waivers first, then the waivers file's entries (`validFileWaivers`,
 * indices of the valid ones). A waiver's fate in other files cannot change
 * this file's: inline waivers cover only their own file, and a file waiver
 * applies wherever its globs match.
 */
export function settleWaivers<F extends WaivableFinding>(
  findings: readonly F[],
  inlineWaivers: readonly Waiver[],
  validFileWaivers: readonly number[],
  setup: WaiverSetup,
): WaiverSettlement<F> {
  const invalidWaivers: WaiverProblem[] = []
  const candidates: { waiver: Waiver; fileWaiver: number | undefined }[] = []
  for (const waiver of inlineWaivers) {
    const problems = waiverValidity(waiver, setup)
    invalidWaivers.push(...problems)
    if (problems.length === 0) candidates.push({ waiver, fileWaiver: undefined })
  }
  const validInline = candidates.map(({ waiver }) => waiver)
  for (const index of validFileWaivers) candidates.push({ waiver: setup.fileWaivers[index] as Waiver, fileWaiver: index })

  const used = new Set<Waiver>()
  const refused = new Set<Waiver>()
  const settlement: WaiverSettlement<F> = { kept: [], waived: [], invalidWaivers, refusals: [], unmatchedWaivers: [], fileWaiversUsed: [] }
  for (const finding of findings) {
    const candidate = candidates.find(({ waiver }) => covers(waiver, finding, setup.globs))
    if (candidate === undefined) {
      settlement.kept.push(finding)
    } else if (!finding.waivable) {
      settlement.kept.push(finding)
      const { waiver, fileWaiver } = candidate
      if (!refused.has(waiver)) {
        refused.add(waiver)
        const message = `waiver at ${where(waiver)} does not apply: constraint ${finding.constraintId} is not waivable`
        settlement.refusals.push({ finding, fileWaiver, problem: problem(waiver, finding.constraintId, 'not-waivable', message) })
      }
    } else {
      if (candidate.fileWaiver !== undefined && !used.has(candidate.waiver)) settlement.fileWaiversUsed.push(candidate.fileWaiver)
      used.add(candidate.waiver)
      settlement.waived.push({ finding, waiver: candidate.waiver })
    }
  }
  for (const waiver of validInline) {
    if (used.has(waiver) || refused.has(waiver)) continue
    const unmatched = unmatchedProblem(waiver, setup)
    if (unmatched !== undefined) settlement.unmatchedWaivers.push(unmatched)
  }
  return settlement
}
