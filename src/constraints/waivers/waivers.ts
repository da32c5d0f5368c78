import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { Node } from 'yaml'
import { z } from 'zod'
import { MkError } from '../../errors.js'
import { describeIssues } from '../../validation.js'
import type { Waiver } from './inline-waivers.js'
import type { WaiverProblem } from '../contract.js'
import type { Finding } from '../model.js'
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
  const text = readFileSync(absolute, 'utf8')
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

export interface WaiverOptions {
  fileWaivers: readonly Waiver[]
  /** The `mk-ignore` comments found in the files read. */
  inlineWaivers: readonly Waiver[]
  /** Every constraint id of every accepted item. */
  knownConstraintIds: ReadonlySet<string>
  /** Ids of the constraints this run evaluates. */
  activeConstraintIds: ReadonlySet<string>
  /** Today as YYYY-MM-DD (UTC): a waiver expiring today still applies. */
  today: string
  /** A whole-snapshot input: only then does a file waiver that matched nothing mean it is stale. */
  complete: boolean
  globs: GlobMatcher
}

export interface WaiverOutcome {
  kept: Finding[]
  waived: { finding: Finding; waiver: Waiver }[]
  problems: WaiverProblem[]
}

function covers(waiver: Waiver, finding: Finding, globs: GlobMatcher): boolean {
  if (!waiver.constraintIds.includes(finding.rule.constraint.id)) return false
  if (waiver.source === 'inline') {
    return waiver.file === finding.file && (finding.line === waiver.coversLine || finding.line === (waiver.coversLine ?? 0) + 1)
  }
  return waiver.paths.length === 0 || globs.matchesAny(waiver.paths, finding.file)
}

function where(waiver: Waiver): string {
  return `${waiver.file}:${waiver.line}`
}

/** Set aside the findings a valid waiver covers, and report waivers that are broken, expired or stale. */
export function applyWaivers(findings: readonly Finding[], options: WaiverOptions): WaiverOutcome {
  const all = [...options.inlineWaivers, ...options.fileWaivers]
  const problems: WaiverProblem[] = []
  const report = (waiver: Waiver, constraintId: string, kind: WaiverProblem['kind'], message: string): void => {
    problems.push({ kind, constraintId, file: waiver.file, line: waiver.line, message })
  }
  const valid = new Set<Waiver>()
  for (const waiver of all) {
    let usable = true
    for (const id of waiver.constraintIds) {
      if (!options.knownConstraintIds.has(id)) {
        report(waiver, id, 'unknown-constraint', `waiver at ${where(waiver)} names constraint ${id}, which no accepted knowledge item defines`)
        usable = false
      }
    }
    if (waiver.reason === '') {
      report(
        waiver,
        waiver.constraintIds.join(','),
        'missing-reason',
        `waiver at ${where(waiver)} has no reason and does not apply; write "mk-ignore <id> -- <why>" or a reason: in the waivers file`,
      )
      usable = false
    } else if (waiver.expires !== undefined && waiver.expires < options.today) {
      report(waiver, waiver.constraintIds.join(','), 'expired', `waiver at ${where(waiver)} expired on ${waiver.expires} and no longer applies`)
      usable = false
    }
    if (usable) valid.add(waiver)
  }

  const used = new Set<Waiver>()
  const refused = new Set<Waiver>()
  const kept: Finding[] = []
  const waived: WaiverOutcome['waived'] = []
  const candidates = [...valid]
  for (const finding of findings) {
    const waiver = candidates.find((candidate) => covers(candidate, finding, options.globs))
    if (waiver === undefined) {
      kept.push(finding)
    } else if (!finding.rule.constraint.waivable) {
      kept.push(finding)
      if (!refused.has(waiver)) {
        refused.add(waiver)
        report(
          waiver,
          finding.rule.constraint.id,
          'not-waivable',
          `waiver at ${where(waiver)} does not apply: constraint ${finding.rule.constraint.id} is not waivable`,
        )
      }
    } else {
      used.add(waiver)
      waived.push({ finding, waiver })
    }
  }

  for (const waiver of valid) {
    if (used.has(waiver) || refused.has(waiver)) continue
    if (!waiver.constraintIds.some((id) => options.activeConstraintIds.has(id))) continue
    if (waiver.source === 'file' && !options.complete) continue
    report(waiver, waiver.constraintIds.join(','), 'unmatched', `waiver at ${where(waiver)} matched no violation; remove it`)
  }
  return { kept, waived, problems }
}
