import { EvaluationContext } from '../evaluate/context.js'
import { keepNoScans, ScanCache, scanCacheKey } from '../cache/scan-cache.js'
import type { CheckInput } from '../input/input.js'
import { scanFiles } from '../scan/scan-files.js'
import { planScans } from '../scan/scan-planning.js'
import type { ReportFrame } from './assemble-report.js'
import type { FileContribution, FileListing } from './contribution.js'
import { contributionsOf } from './evaluate-files.js'
import type { CheckPreparation } from './prepare.js'
import type { Settlement } from './settle-file.js'

/**
 * Read, scan and evaluate the files of an input: each file's contribution,
 * and with the scan cache (which skips reading files it knows) the content
 * identity each scanned file was evaluated at. `remember`: 'scans' uses the
 * scan cache; 'identities' reads and writes no scan but still takes each
 * file's identity (for a stored result); 'nothing' takes neither.
 */
export async function evaluateInput(
  preparation: CheckPreparation,
  input: CheckInput,
  settlement: Settlement,
  remember: 'scans' | 'identities' | 'nothing' = 'scans',
): Promise<{ contributions: Map<string, FileContribution>; identities: Map<string, string> }> {
  const { rules, globs, waiversFile, baselineFile, knowledgeFolders, options, workspace } = preparation
  const ownFiles = new Set([waiversFile, baselineFile])
  const contentExcluded = (path: string): boolean => ownFiles.has(path) || knowledgeFolders.some((folder) => path.startsWith(`${folder}/`))
  const planning = planScans(
    input.paths.filter((path) => !contentExcluded(path)),
    rules,
    globs,
    workspace.config.check.dependencyFields,
    // Only a version 1 baseline matches findings by their line's hash; a baseline change changes every stored result's key.
    settlement.baseline?.version === 1,
  )
  const cache =
    options.scanCache === undefined || !input.complete || (input.mode !== 'tree' && input.mode !== 'staged') || remember === 'nothing'
      ? undefined
      : remember === 'scans'
        ? new ScanCache(options.scanCache.directory, input.mode, scanCacheKey(planning.plan, options.scanCache.version))
        : keepNoScans
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
