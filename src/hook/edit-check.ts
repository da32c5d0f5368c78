import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { runCheck } from '../constraints/check.js'
import { atLeast, type Finding } from '../constraints/model.js'
import type { Workspace } from '../config/workspace.js'
import { MkError, isNodeError } from '../errors.js'
import { insideWorkspace, resolvesWithin } from '../fs/path-guard.js'
import { resolveSources } from '../knowledge/sources.js'
import { addedViolations } from './added-violations.js'
import { editedFile } from './edited-file.js'

/** Whether any knowledge source folder exists: without one there is nothing to enforce or serve, and a hook answers at once. */
export function hasKnowledge(workspace: Workspace): boolean {
  return resolveSources(workspace).some((source) => existsSync(source.directory))
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    if (isNodeError(error) && (error.code === 'ENOENT' || error.code === 'ENOTDIR')) return undefined
    throw error
  }
}

export interface EditCheck {
  /** Workspace-relative path of the edited file. */
  file: string
  /** Violations at or above check.failOn that the edit adds. */
  added: Finding[]
}

/**
 * Check a file-writing tool call before it runs: the file as the tool would leave it against the
 * accepted constraints (through the proposal check, as knowledge_check with `files`), compared with the
 * file as it is. Undefined when the tool writes no file, or a file outside the workspace (no constraint
 * reaches it).
 */
export async function checkEditCall(workspace: Workspace, toolName: string, toolInput: unknown, cwd: string | undefined): Promise<EditCheck | undefined> {
  const root = workspace.root
  let file: string | undefined
  const edit = editedFile(toolName, toolInput, (path) => {
    const absolute = resolve(cwd ?? root, path)
    file = insideWorkspace(root, absolute)
    // A symbolic link out of the workspace is read as nothing: mk reads only inside the folders it owns.
    return file === undefined || !resolvesWithin([{ path: root, name: 'the workspace' }], absolute) ? undefined : readText(absolute)
  })
  if (edit === undefined || file === undefined) return undefined
  if (edit.before === edit.after) return { file, added: [] }
  const failOn = workspace.config.check.failOn
  const check = async (content: string | undefined): Promise<Finding[]> => {
    if (content === undefined) return []
    const report = await runCheck(workspace, {
      source: { kind: 'proposal', files: [{ path: file as string, content }], dependencies: [] },
      minSeverity: 'info',
      failOn,
      useBaseline: true,
    })
    return report.findings
  }
  // A file that cannot be checked as it is (a package.json that is not JSON) counts as clean before: what the edit leaves is judged whole.
  const before = await check(edit.before).catch((error: unknown) => {
    if (error instanceof MkError && error.code === 'INVALID_INPUT') return []
    throw error
  })
  const after = await check(edit.after)
  return { file, added: addedViolations(before, after).filter((finding) => atLeast(finding.rule.constraint.severity, failOn)) }
}

/** The violations at or above check.failOn of one file on disk after an edit (a host that cannot refuse the edit reports them). */
export async function checkWrittenFile(workspace: Workspace, path: string): Promise<Finding[]> {
  const file = insideWorkspace(workspace.root, path)
  if (file === undefined) return []
  const failOn = workspace.config.check.failOn
  const report = await runCheck(workspace, { source: { kind: 'files', paths: [file] }, minSeverity: failOn, failOn, useBaseline: true })
  return report.findings
}
