import { findGitRoot } from '../../config/locate.js'
import type { Workspace } from '../../config/workspace.js'
import { MkError } from '../../errors.js'
import { insideWorkspace, requireInsideWorkspace } from '../../fs/path-guard.js'
import { assertConstraintsReadable, loadKnowledge } from '../../knowledge/load.js'
import type { Severity } from '../../knowledge/model.js'
import type { ProposedFile } from '../input/collect-proposal.js'
import { IgnoreRules } from '../input/ignore-rules.js'
import type { ProposedDependency } from '../input/input.js'
import type { ConstraintRule } from '../model.js'
import { compilePattern } from '../scan/regex.js'
import { knowledgeNotes, type KnowledgeNotes } from '../knowledge-notes.js'
import { GlobMatcher } from '../scope.js'
import { baselineByFile, type Baseline } from '../waivers/baseline.js'
import type { Waiver } from '../waivers/inline-waivers.js'
import { waiverValidity, type WaiverSetup } from '../waivers/waivers.js'
import { Settlement, type BaselineView } from './settle-file.js'

export type CheckSource =
  | { kind: 'tree' }
  /** `indexFile`: the index git named in GIT_INDEX_FILE, else the work tree's own. */
  | { kind: 'staged'; indexFile?: string | undefined }
  /** Absolute paths, or paths relative to the workspace root. */
  | { kind: 'files'; paths: string[] }
  | { kind: 'proposal'; files: ProposedFile[]; dependencies: ProposedDependency[] }

export interface CheckOptions {
  source: CheckSource
  /** Only the constraints of these knowledge items. */
  knowledgeItemIds?: readonly string[] | undefined
  /** Violations below this severity are not reported. */
  minSeverity: Severity
  /** Lowest severity that fails the check. */
  failOn: Severity
  /** false when rebuilding the baseline: every current violation is wanted. */
  useBaseline: boolean
  /** YYYY-MM-DD (UTC); waivers expiring before it no longer apply. */
  today?: string
  /** Where whole-tree and staged checks keep file scans between runs, and mk's version, which every entry depends on. */
  scanCache?: { directory: string; version: string } | undefined
}

async function selectRules(workspace: Workspace, knowledgeItemIds: readonly string[] | undefined) {
  const base = await loadKnowledge(workspace)
  assertConstraintsReadable(base)
  const accepted = base.allItems.filter((item) => item.status === 'accepted')
  if (knowledgeItemIds !== undefined) {
    const unknown = knowledgeItemIds.filter((id) => !base.allItems.some((item) => item.id === id))
    if (unknown.length > 0) {
      throw new MkError('NOT_FOUND', `no knowledge item with id ${unknown.join(', ')}`, { details: { ids: unknown, hint: 'mk knowledge list shows every id' } })
    }
  }
  const selected = accepted.filter((item) => knowledgeItemIds === undefined || knowledgeItemIds.includes(item.id))
  const rules: ConstraintRule[] = selected.flatMap((item) =>
    item.constraints.map((constraint) => ({ constraint, item, regex: constraint.target === 'file' ? undefined : compilePattern(constraint.pattern) })),
  )
  const knownConstraintIds = new Set(accepted.flatMap((item) => item.constraints.map((constraint) => constraint.id)))
  const knowledgeFolders = base.sources
    .map((source) => insideWorkspace(workspace.root, source.directory))
    .filter((folder): folder is string => folder !== undefined)
  return { rules, knownConstraintIds, knowledgeFolders, notes: knowledgeNotes(base, knowledgeItemIds) }
}

/** What every way of checking needs before it reads any file: the rules, the ignore rules, the check's own files. */
export interface CheckPreparation {
  workspace: Workspace
  options: CheckOptions
  rules: ConstraintRule[]
  knownConstraintIds: Set<string>
  /** Workspace-relative knowledge folders, whose files are not read for content (constraints state their own patterns). */
  knowledgeFolders: string[]
  notes: KnowledgeNotes
  gitRoot: string | undefined
  ignoreRules: IgnoreRules
  globs: GlobMatcher
  waiversFile: string
  baselineFile: string
  today: string
}

export async function prepareCheck(workspace: Workspace, options: CheckOptions): Promise<CheckPreparation> {
  const { rules, knownConstraintIds, knowledgeFolders, notes } = await selectRules(workspace, options.knowledgeItemIds)
  const { check } = workspace.config
  const gitRoot = findGitRoot(workspace.root)
  return {
    workspace,
    options,
    rules,
    knownConstraintIds,
    knowledgeFolders,
    notes,
    gitRoot,
    ignoreRules: new IgnoreRules(workspace.root, gitRoot, check.ignore),
    globs: new GlobMatcher(),
    waiversFile: requireInsideWorkspace(workspace.root, check.waivers, '.mkrc check.waivers'),
    baselineFile: requireInsideWorkspace(workspace.root, check.baseline, '.mkrc check.baseline'),
    today: options.today ?? new Date().toISOString().slice(0, 10),
  }
}

/** How findings are settled in this run: the waivers file's entries and, when one applies, the baseline. */
export function settlementOf(preparation: CheckPreparation, fileWaivers: readonly Waiver[], baseline: BaselineView | undefined): Settlement {
  const setup: WaiverSetup = {
    fileWaivers,
    knownConstraintIds: preparation.knownConstraintIds,
    activeConstraintIds: new Set(preparation.rules.map((rule) => rule.constraint.id)),
    today: preparation.today,
    globs: preparation.globs,
  }
  return new Settlement(
    preparation.rules,
    setup,
    fileWaivers.map((waiver) => waiverValidity(waiver, setup).length === 0),
    baseline,
  )
}

/** A baseline's entries by file and the sum of their counts. */
export function baselineView(baseline: Baseline): {
  view: BaselineView
  byFile: Map<string, Map<string, number>>
  total: number
} {
  const byFile = baselineByFile(baseline)
  let total = 0
  for (const entries of byFile.values()) for (const count of entries.values()) total += count
  return { view: { version: baseline.version, entriesOf: (file) => byFile.get(file) }, byFile, total }
}
