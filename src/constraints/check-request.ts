import { join } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import { MkError } from '../errors.js'
import type { Severity } from '../knowledge/model.js'
import { runCheck } from './check.js'
import type { CheckSource } from './pipeline/prepare.js'
import type { CheckReport } from './pipeline/report.js'

/** A check as a caller asks for it: at most one of a proposal (files, dependencies), the staged content or named paths; else the whole tree. */
export interface CheckRequest {
  files?: { path: string; content: string }[] | undefined
  dependencies?: { name: string; version?: string | undefined }[] | undefined
  paths?: string[] | undefined
  staged?: boolean | undefined
  minSeverity: Severity
  /** Lowest severity that fails the check; the workspace's check.failOn when absent. */
  failOn?: Severity | undefined
  knowledgeItemIds?: string[] | undefined
}

function sourceOf(request: CheckRequest, gitIndexFile: string | undefined): CheckSource {
  const proposal = request.files !== undefined || request.dependencies !== undefined
  const sourcesGiven = [proposal, request.staged === true, request.paths !== undefined].filter(Boolean).length
  if (sourcesGiven > 1) {
    throw new MkError('INVALID_INPUT', 'give one of: files/dependencies (a proposal), staged, or paths', {
      details: { hint: 'check a proposal, the git index or named files in separate calls' },
    })
  }
  if (proposal) {
    const dependencies = (request.dependencies ?? []).map((dependency) => ({ name: dependency.name, version: dependency.version }))
    return { kind: 'proposal', files: request.files ?? [], dependencies }
  }
  if (request.staged === true) return { kind: 'staged', indexFile: gitIndexFile }
  return request.paths !== undefined ? { kind: 'files', paths: request.paths } : { kind: 'tree' }
}

/**
 * Check what the request names against the accepted constraints, keeping whole-tree and staged
 * scans in the workspace's check cache for mk's `version`.
 */
export async function checkWorkspace(
  workspace: Workspace,
  request: CheckRequest,
  place: { version: string; gitIndexFile: string | undefined },
): Promise<CheckReport> {
  return runCheck(workspace, {
    source: sourceOf(request, place.gitIndexFile),
    knowledgeItemIds: request.knowledgeItemIds,
    minSeverity: request.minSeverity,
    failOn: request.failOn ?? workspace.config.check.failOn,
    useBaseline: true,
    scanCache: { directory: join(workspace.stateDir, 'cache', 'check'), version: place.version },
  })
}
