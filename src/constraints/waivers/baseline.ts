import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { MkError } from '../../errors.js'
import { writeFileAtomic } from '../../fs/atomic-write.js'
import { describeIssues } from '../../validation.js'
import { subjectHash } from './fingerprint.js'
import type { Finding } from '../model.js'
import { insideWorkspace } from '../../fs/path-guard.js'

/**
 * Violations accepted when mk was adopted, keyed by constraint id, file and a
 * hash of what violates (the dependency name, the module, the matched code,
 * the path; see fingerprint.ts), not the line number or the line's text: editing
 * lines above, or appending a dependency after a baselined one (which adds a
 * comma to its line), does not resurrect them, and a new copy still counts as new.
 *
 * Version 1 files hashed the whole line; they are still read (their entries
 * match by line hash) and `--update-baseline` rewrites them as version 2.
 */
export interface BaselineEntry {
  constraint: string
  file: string
  hash: string
  count: number
}

export interface Baseline {
  version: 1 | 2
  entries: BaselineEntry[]
}

const baselineSchema = z.strictObject({
  version: z.union([z.literal(1), z.literal(2)]),
  entries: z.array(z.strictObject({ constraint: z.string().min(1), file: z.string().min(1), hash: z.string().min(1), count: z.number().int().positive() })),
})

export const baselineVersion = 2

function keyOf(constraint: string, file: string, hash: string): string {
  return `${constraint}\0${file}\0${hash}`
}

function findingHash(finding: Finding, version: Baseline['version']): string {
  return version === 1 ? finding.lineHash : subjectHash(finding.subject)
}

export function findingKey(finding: Finding, version: Baseline['version'] = baselineVersion): string {
  return keyOf(finding.rule.constraint.id, finding.file, findingHash(finding, version))
}

export function entryKey(entry: BaselineEntry): string {
  return keyOf(entry.constraint, entry.file, entry.hash)
}

/** The baseline file, or undefined when there is none. A corrupt baseline is an input error. */
export function readBaseline(root: string, file: string): Baseline | undefined {
  const absolute = join(root, file)
  if (!existsSync(absolute)) return undefined
  return parseBaseline(root, file, readFileSync(absolute, 'utf8'))
}

/** The baseline in `text`, the content of `file`; a corrupt baseline is an input error. */
export function parseBaseline(root: string, file: string, text: string): Baseline {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    throw new MkError('INVALID_INPUT', `${file}: not valid JSON (${(error as Error).message})`, {
      details: { file, hint: 'restore it from git, or rebuild it with mk knowledge check --update-baseline' },
    })
  }
  const parsed = baselineSchema.safeParse(raw)
  if (!parsed.success) {
    throw new MkError('INVALID_INPUT', `${file}: ${describeIssues(parsed.error.issues, raw)[0]?.message ?? 'invalid baseline'}`, {
      details: { file, hint: 'rebuild it with mk knowledge check --update-baseline' },
    })
  }
  // Entries share files (one per violation): each path is checked once.
  for (const entryFile of new Set(parsed.data.entries.map((entry) => entry.file))) {
    if (entryFile !== '.' && insideWorkspace(root, entryFile) !== entryFile) {
      throw new MkError('INVALID_INPUT', `${file}: entry file ${JSON.stringify(entryFile)} is not a workspace-relative path inside the workspace`, {
        details: { file, hint: 'rebuild it with mk knowledge check --update-baseline' },
      })
    }
  }
  return parsed.data
}

export interface BaselineOutcome {
  kept: Finding[]
  /** Old violations still present, hidden by the baseline. */
  hidden: number
  /** Baselined violations no longer found (pruned by the next --update-baseline). */
  fixed: number
}

export function applyBaseline(findings: readonly Finding[], baseline: Baseline): BaselineOutcome {
  const remaining = new Map<string, number>()
  for (const entry of baseline.entries) remaining.set(entryKey(entry), entry.count)
  const kept: Finding[] = []
  let hidden = 0
  for (const finding of findings) {
    const key = findingKey(finding, baseline.version)
    const left = remaining.get(key) ?? 0
    if (left > 0) {
      remaining.set(key, left - 1)
      hidden++
    } else {
      kept.push(finding)
    }
  }
  const fixed = [...remaining.values()].reduce((sum, left) => sum + left, 0)
  return { kept, hidden, fixed }
}

/** A baseline's entries of one file: count by constraint id and hash. */
export type FileBaseline = ReadonlyMap<string, number>

/** The key of a file's baseline entry. */
export function fileEntryKey(constraint: string, hash: string): string {
  return `${constraint}\0${hash}`
}

/**
 * A baseline grouped by file: entries are keyed by file, so each file's
 * findings are matched against its own entries only, and a file whose
 * findings did not change hides what it hid before. Of entries repeating a
 * key, the last counts, as in applyBaseline.
 */
export function baselineByFile(baseline: Baseline): Map<string, Map<string, number>> {
  const byFile = new Map<string, Map<string, number>>()
  for (const entry of baseline.entries) {
    let entries = byFile.get(entry.file)
    if (entries === undefined) byFile.set(entry.file, (entries = new Map()))
    entries.set(fileEntryKey(entry.constraint, entry.hash), entry.count)
  }
  return byFile
}

/** What a baseline hides a finding by, besides its constraint. */
export interface BaselinedFinding {
  subject: string
  lineHash: string
}

export function hideBaselined<F extends BaselinedFinding>(
  findings: readonly F[],
  entries: FileBaseline | undefined,
  version: Baseline['version'],
  subjectHashOf: (subject: string) => string,
  constraintOf: (finding: F) => string,
): { kept: F[]; hidden: number } {
  if (entries === undefined || entries.size === 0) return { kept: [...findings], hidden: 0 }
  const consumed = new Map<string, number>()
  const kept: F[] = []
  let hidden = 0
  for (const finding of findings) {
    const key = fileEntryKey(constraintOf(finding), version === 1 ? finding.lineHash : subjectHashOf(finding.subject))
    const used = consumed.get(key) ?? 0
    if ((entries.get(key) ?? 0) > used) {
      consumed.set(key, used + 1)
      hidden++
    } else {
      kept.push(finding)
    }
  }
  return { kept, hidden }
}

export function baselineEntries(findings: readonly Finding[]): BaselineEntry[] {
  const counts = new Map<string, BaselineEntry>()
  for (const finding of findings) {
    const key = findingKey(finding)
    const entry = counts.get(key)
    if (entry === undefined) counts.set(key, { constraint: finding.rule.constraint.id, file: finding.file, hash: subjectHash(finding.subject), count: 1 })
    else entry.count++
  }
  return [...counts.values()].sort((a, b) => a.file.localeCompare(b.file) || a.constraint.localeCompare(b.constraint) || a.hash.localeCompare(b.hash))
}

export async function writeBaseline(root: string, file: string, entries: readonly BaselineEntry[]): Promise<void> {
  await writeFileAtomic(join(root, file), `${JSON.stringify({ version: baselineVersion, entries }, null, 2)}\n`)
}
