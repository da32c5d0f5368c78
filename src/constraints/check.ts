import { findGitRoot } from '../config/locate.js'
import type { Workspace } from '../config/workspace.js'
import { MkError } from '../errors.js'
import { assertConstraintsReadable, loadKnowledge } from '../knowledge/load.js'
import type { Severity } from '../knowledge/model.js'
import { baselineByFile, readBaseline, type Baseline } from './waivers/baseline.js'
import { collectFiles } from './input/collect-files.js'
import { collectProposal, type ProposedFile } from './input/collect-proposal.js'
import { collectTree } from './input/collect-tree.js'
import { EvaluationContext } from './evaluate/context.js'
import { IgnoreRules } from './input/ignore-rules.js'
import type { Waiver } from './waivers/inline-waivers.js'
import type { CheckInput, ProposedDependency } from './input/input.js'
import type { WaiverProblem } from './contract.js'
import type { Finding, Rule, WaiverRef } from './model.js'
import { compilePattern } from './scan/regex.js'
import { scanFiles } from './scan/scan-files.js'
import { ScanCache, scanCacheKey } from './cache/scan-cache.js'
import type { BudgetOverrun } from './scan/scan-budget.js'
import { planScans } from './scan/scan-planning.js'
import { GlobMatcher } from './scope.js'
import { knowledgeNotes, type KnowledgeNotes } from './knowledge-notes.js'
import { loadFileWaivers, waiverValidity, type WaiverSetup } from './waivers/waivers.js'
import { insideWorkspace, requireInsideWorkspace } from '../fs/path-guard.js'
import { accumulate, emptyAggregates } from './incremental/aggregates.js'
import { assembleReport, type ReportFrame } from './incremental/assemble-report.js'
import type { FileContribution, FileListing } from './incremental/contribution.js'
import { contributionsOf } from './incremental/evaluate-files.js'
import { Settlement, type BaselineView } from './incremental/settle-file.js'

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

/** A file a constraint was not judged on because it exceeded its scan budget (scan-budget.ts). */
export interface OverBudget {
  constraintId: string
  severity: Severity
  file: string
  reason: BudgetOverrun
}

export interface CheckReport {
  passed: boolean
  failOn: Severity
  /** Reported violations, ordered by file, line and column. */
  findings: Finding[]
  waived: { finding: Finding; waiver: WaiverRef }[]
  waiverProblems: WaiverProblem[]
  baseline: { file: string; hidden: number; fixed: number } | undefined
  summary: Record<Severity, number>
  skipped: { binary: number; tooLarge: number; symlinks: number; constraints: number; overBudget: OverBudget[] }
  checked: { paths: number; files: number; constraints: number }
  /** Every evaluated constraint, for reporters that describe rules (SARIF). */
  rules: Rule[]
  mode: CheckInput['mode']
  /** Absolute folders, for reporters that locate files from the repository root (SARIF). */
  location: { repositoryRoot: string; workspaceRoot: string; configFile: string | undefined }
  /** Constraints of items not accepted yet, and knowledge files that did not load. */
  knowledge: KnowledgeNotes
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
  const rules: Rule[] = selected.flatMap((item) =>
    item.constraints.map((constraint) => ({ constraint, item, regex: constraint.target === 'file' ? undefined : compilePattern(constraint.pattern) })),
  )
  const knownConstraintIds = new Set(accepted.flatMap((item) => item.constraints.map((constraint) => constraint.id)))
  const knowledgeFolders = base.sources
    .map((source) => insideWorkspace(workspace.root, source.directory))
    .filter((folder): folder is string => folder !== undefined)
  return { rules, knownConstraintIds, knowledgeFolders, notes: knowledgeNotes(base, knowledgeItemIds) }
}

async function collectInput(workspace: Workspace, source: Exclude<CheckSource, { kind: 'staged' }>, rules: IgnoreRules): Promise<CheckInput> {
  switch (source.kind) {
    case 'tree':
      return collectTree(workspace.root, rules)
    case 'files':
      return collectFiles(workspace.root, source.paths, rules)
    case 'proposal':
      return collectProposal(workspace.root, source.files, source.dependencies)
  }
}

/** What every way of checking needs before it reads any file: the rules, the ignore rules, the check's own files. */
export interface CheckPreparation {
  workspace: Workspace
  options: CheckOptions
  rules: Rule[]
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

/**
 * Read, scan and evaluate the files of an input: each file's contribution,
 * and with the scan cache (which skips reading files it knows) the content
 * identity each scanned file was evaluated at.
 */
export async function evaluateInput(
  preparation: CheckPreparation,
  input: CheckInput,
  settlement: Settlement,
): Promise<{ contributions: Map<string, FileContribution>; identities: Map<string, string> }> {
  const { rules, globs, waiversFile, baselineFile, knowledgeFolders, options, workspace } = preparation
  const ownFiles = new Set([waiversFile, baselineFile])
  const contentExcluded = (path: string): boolean => ownFiles.has(path) || knowledgeFolders.some((folder) => path.startsWith(`${folder}/`))
  const planning = planScans(
    input.paths.filter((path) => !contentExcluded(path)),
    rules,
    globs,
    workspace.config.check.dependencyFields,
  )
  const cache =
    options.scanCache !== undefined && input.complete && (input.mode === 'tree' || input.mode === 'staged')
      ? new ScanCache(options.scanCache.directory, input.mode, scanCacheKey(planning.plan, options.scanCache.version))
      : undefined
  const scanned = await scanFiles(input, planning.requests, planning.plan, cache)
  const context = new EvaluationContext(input, globs, scanned.scans, planning.patternIndex)
  return { contributions: contributionsOf(context, settlement, scanned.unscanned), identities: scanned.identities }
}

export function reportFrame(preparation: CheckPreparation, input: Pick<CheckInput, 'mode' | 'complete'>, baselineTotal: number | undefined): ReportFrame {
  const { options, workspace, gitRoot } = preparation
  return {
    mode: input.mode,
    complete: input.complete,
    minSeverity: options.minSeverity,
    failOn: options.failOn,
    baseline: baselineTotal === undefined ? undefined : { file: preparation.baselineFile, total: baselineTotal },
    location: { repositoryRoot: gitRoot ?? workspace.root, workspaceRoot: workspace.root, configFile: workspace.configPath },
    knowledge: preparation.notes,
  }
}

/** The listings of the files that list anything. */
export function listingsOf(contributions: ReadonlyMap<string, FileContribution>): Map<string, FileListing> {
  const listings = new Map<string, FileListing>()
  for (const [path, { listing }] of contributions) if (listing !== undefined) listings.set(path, listing)
  return listings
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

/** Check the workspace (or a staged, named or proposed subset of it) against every accepted constraint. */
export async function runCheck(workspace: Workspace, options: CheckOptions): Promise<CheckReport> {
  const preparation = await prepareCheck(workspace, options)
  const { source } = options
  if (source.kind === 'staged') {
    const { checkStaged } = await import('./incremental/staged-check.js')
    return checkStaged(preparation, source.indexFile)
  }
  const input = await collectInput(workspace, source, preparation.ignoreRules)
  if (source.kind === 'tree' && options.scanCache !== undefined) {
    const { checkTree } = await import('./incremental/tree-check.js')
    return checkTree(preparation, input, options.scanCache.directory)
  }
  const baseline = options.useBaseline ? readBaseline(workspace.root, preparation.baselineFile) : undefined
  const grouped = baseline === undefined ? undefined : baselineView(baseline)
  const settlement = settlementOf(preparation, loadFileWaivers(workspace.root, preparation.waiversFile), grouped?.view)
  const { contributions } = await evaluateInput(preparation, input, settlement)
  const aggregates = emptyAggregates(preparation.rules.length, settlement.waivers.fileWaivers.length)
  for (const { facts } of contributions.values()) accumulate(aggregates, facts, 1)
  aggregates.symlinks = input.symlinksSkipped
  return assembleReport(settlement, listingsOf(contributions), aggregates, reportFrame(preparation, input, grouped?.total))
}
