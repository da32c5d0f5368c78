import { findGitRoot } from '../config/locate.js'
import type { Workspace } from '../config/workspace.js'
import { MkError } from '../errors.js'
import { assertConstraintsReadable, loadKnowledge } from '../knowledge/load.js'
import type { Severity } from '../knowledge/model.js'
import { applyBaseline, readBaseline } from './waivers/baseline.js'
import { collectFiles } from './input/collect-files.js'
import { collectProposal, type ProposedFile } from './input/collect-proposal.js'
import { collectTree } from './input/collect-tree.js'
import { EvaluationContext } from './evaluate/context.js'
import { createScanner } from './scan/file-scan.js'
import { IgnoreRules } from './input/ignore-rules.js'
import type { Waiver } from './waivers/inline-waivers.js'
import type { CheckInput, ProposedDependency } from './input/input.js'
import type { WaiverProblem } from './contract.js'
import { atLeast, type Finding, type Rule } from './model.js'
import { compilePattern } from './scan/regex.js'
import { scanFiles } from './scan/scan-files.js'
import { ScanCache, scanCacheKey } from './cache/scan-cache.js'
import type { BudgetOverrun } from './scan/scan-budget.js'
import { planScans } from './scan/scan-planning.js'
import { GlobMatcher } from './scope.js'
import { evaluators } from './evaluate/index.js'
import { applyWaivers, loadFileWaivers } from './waivers/waivers.js'
import { insideWorkspace, requireInsideWorkspace } from '../fs/path-guard.js'

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
  waived: { finding: Finding; waiver: Waiver }[]
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
  return { rules, knownConstraintIds, knowledgeFolders }
}

async function collectInput(workspace: Workspace, source: CheckSource, rules: IgnoreRules, gitRoot: string | undefined): Promise<CheckInput> {
  switch (source.kind) {
    case 'tree':
      return collectTree(workspace.root, rules)
    case 'staged': {
      const { collectStaged } = await import('./input/collect-staged.js')
      return collectStaged(workspace.root, gitRoot, rules, source.indexFile)
    }
    case 'files':
      return collectFiles(workspace.root, source.paths, rules)
    case 'proposal':
      return collectProposal(workspace.root, source.files, source.dependencies)
  }
}

/** What String#localeCompare compares by, made once: per call it costs a collator each time, and a large check sorts 100,000 findings. */
const localeOrder = new Intl.Collator().compare

function compareFindings(a: Finding, b: Finding): number {
  return localeOrder(a.file, b.file) || a.line - b.line || a.column - b.column || localeOrder(a.rule.constraint.id, b.rule.constraint.id)
}

/** Check the workspace (or a staged, named or proposed subset of it) against every accepted constraint. */
export async function runCheck(workspace: Workspace, options: CheckOptions): Promise<CheckReport> {
  const { rules, knownConstraintIds, knowledgeFolders } = await selectRules(workspace, options.knowledgeItemIds)
  const { check } = workspace.config
  const gitRoot = findGitRoot(workspace.root)
  const ignoreRules = new IgnoreRules(workspace.root, gitRoot, check.ignore)
  const input = await collectInput(workspace, options.source, ignoreRules, gitRoot)
  const globs = new GlobMatcher()

  // Constraints live in the knowledge folders: their own patterns must not count as violations.
  const waiversFile = requireInsideWorkspace(workspace.root, check.waivers, '.mkrc check.waivers')
  const baselineFile = requireInsideWorkspace(workspace.root, check.baseline, '.mkrc check.baseline')
  const ownFiles = new Set([waiversFile, baselineFile])
  const contentExcluded = (path: string): boolean => ownFiles.has(path) || knowledgeFolders.some((folder) => path.startsWith(`${folder}/`))
  const planning = planScans(
    input.paths.filter((path) => !contentExcluded(path)),
    rules,
    globs,
    check.dependencyFields,
  )
  const cache =
    options.scanCache !== undefined && (input.mode === 'tree' || input.mode === 'staged')
      ? new ScanCache(options.scanCache.directory, input.mode, scanCacheKey(planning.plan, options.scanCache.version))
      : undefined
  const scanned = await scanFiles(input, planning.requests, createScanner(planning.plan), cache)
  const { scans } = scanned

  const context = new EvaluationContext(input, globs, scans, planning.patternIndex)
  const findings: Finding[] = []
  let constraintsSkipped = 0
  const overBudget: OverBudget[] = []
  for (const rule of rules) {
    const found = evaluators[rule.constraint.target](rule, context)
    if (found === undefined) constraintsSkipped++
    else findings.push(...found)
    const { id, severity, operator } = rule.constraint
    for (const { file, overrun } of context.overruns(rule)) {
      // Too many matches of a required pattern is a pass; anything else left the file unjudged.
      if (!(operator === 'must_match' && overrun === 'matches')) overBudget.push({ constraintId: id, severity, file, reason: overrun })
    }
  }

  const waivers = applyWaivers(findings, {
    fileWaivers: loadFileWaivers(workspace.root, waiversFile),
    inlineWaivers: [...scans.values()].flatMap((fileScan) => fileScan.waivers),
    knownConstraintIds,
    activeConstraintIds: new Set(rules.map((rule) => rule.constraint.id)),
    today: options.today ?? new Date().toISOString().slice(0, 10),
    complete: input.complete,
    globs,
  })
  const baseline = options.useBaseline ? readBaseline(workspace.root, baselineFile) : undefined
  const baselined = baseline === undefined ? undefined : applyBaseline(waivers.kept, baseline)
  const remaining = (baselined?.kept ?? waivers.kept).filter((finding) => atLeast(finding.rule.constraint.severity, options.minSeverity))
  remaining.sort(compareFindings)

  const summary: Record<Severity, number> = { info: 0, warn: 0, block: 0 }
  for (const finding of remaining) summary[finding.rule.constraint.severity]++
  return {
    // A file left unjudged is never a pass: it could hide the violation the constraint exists for.
    passed:
      !remaining.some((finding) => atLeast(finding.rule.constraint.severity, options.failOn)) &&
      !overBudget.some((skip) => atLeast(skip.severity, options.failOn)),
    failOn: options.failOn,
    findings: remaining,
    waived: waivers.waived.sort((a, b) => compareFindings(a.finding, b.finding)),
    waiverProblems: waivers.problems,
    baseline: baselined === undefined ? undefined : { file: baselineFile, hidden: baselined.hidden, fixed: input.complete ? baselined.fixed : 0 },
    summary,
    skipped: { binary: scanned.binary, tooLarge: scanned.tooLarge, symlinks: input.symlinksSkipped, constraints: constraintsSkipped, overBudget },
    checked: { paths: input.paths.length, files: scans.size, constraints: rules.length },
    rules,
    mode: input.mode,
    location: { repositoryRoot: gitRoot ?? workspace.root, workspaceRoot: workspace.root, configFile: workspace.configPath },
  }
}
