import type { Workspace } from '../config/workspace.js'
import { baselineEntries, readBaseline, writeBaseline, type BaselineEntry } from './baseline.js'
import { runCheck } from './check.js'
import { requireInsideWorkspace } from './workspace-path.js'

export interface BaselineUpdate {
  file: string
  /** Violations recorded (an entry counts repeats of the same line). */
  violations: number
  /** Violations recorded now that the previous baseline did not have. */
  added: number
  /** Violations of the previous baseline that are gone (fixed, or their line changed). */
  pruned: number
}

function countsByKey(entries: readonly BaselineEntry[]): Map<string, number> {
  return new Map(entries.map((entry) => [`${entry.constraint}\0${entry.file}\0${entry.hash}`, entry.count]))
}

/** Record every current violation of the working tree (of every constraint) as accepted, dropping fixed ones. */
export async function updateBaseline(workspace: Workspace): Promise<BaselineUpdate> {
  const file = requireInsideWorkspace(workspace.root, workspace.config.check.baseline, '.mkrc check.baseline')
  const before = countsByKey(readBaseline(workspace.root, file) ?? [])
  const report = await runCheck(workspace, { source: { kind: 'tree' }, minSeverity: 'info', failOn: 'block', useBaseline: false })
  const entries = baselineEntries(report.findings)
  const after = countsByKey(entries)
  let added = 0
  for (const [key, count] of after) added += Math.max(0, count - (before.get(key) ?? 0))
  let pruned = 0
  for (const [key, count] of before) pruned += Math.max(0, count - (after.get(key) ?? 0))
  await writeBaseline(workspace.root, file, entries)
  return { file, violations: report.findings.length, added, pruned }
}
