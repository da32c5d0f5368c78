import type { Workspace } from '../../config/workspace.js'
import { applyBaseline, baselineEntries, baselineVersion, readBaseline, writeBaseline } from './baseline.js'
import { runCheck } from '../check.js'
import { requireInsideWorkspace } from '../../fs/path-guard.js'

export interface BaselineUpdate {
  file: string
  /** Violations recorded (an entry counts repeats of the same line). */
  violations: number
  /** Violations recorded now that the previous baseline did not have. */
  added: number
  /** Violations of the previous baseline that are gone (fixed, or their line changed). */
  pruned: number
}

/** Record every current violation of the working tree (of every constraint) as accepted, dropping fixed ones. */
export async function updateBaseline(workspace: Workspace): Promise<BaselineUpdate> {
  const file = requireInsideWorkspace(workspace.root, workspace.config.check.baseline, '.mkrc check.baseline')
  const before = readBaseline(workspace.root, file) ?? { version: baselineVersion, entries: [] }
  const report = await runCheck(workspace, { source: { kind: 'tree' }, minSeverity: 'info', failOn: 'block', useBaseline: false })
  // Compared through applyBaseline, which reads either version: a version 1 file is migrated without counting every entry as changed.
  const compared = applyBaseline(report.findings, before)
  await writeBaseline(workspace.root, file, baselineEntries(report.findings))
  return { file, violations: report.findings.length, added: compared.kept.length, pruned: compared.fixed }
}
