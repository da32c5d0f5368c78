import { join } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import { parseBaseline } from '../constraints/waivers/baseline.js'
import { MkError } from '../errors.js'
import { requireInsideWorkspace } from '../fs/path-guard.js'
import type { FilesHistory, FileVersionText } from '../git/history.js'

export interface BaselinePoint {
  version: string
  date: string
  /** Violations the baseline tolerated at that commit. */
  count: number
}

/** Commits of the baseline file read for the chart; older ones are left off it. */
const maxPoints = 60

/** The committed baseline file, relative to the workspace; undefined when .mkrc names one outside it (it is not charted then). */
export function baselineFile(workspace: Workspace): string | undefined {
  try {
    return requireInsideWorkspace(workspace.root, workspace.config.check.baseline, '.mkrc check.baseline')
  } catch {
    return undefined
  }
}

/**
 * How many violations the committed baseline tolerated at each commit that changed it, oldest first: falling
 * means decisions are being honoured. Undefined when the workspace has no baseline in git history; `history`
 * must have been asked for the baseline file.
 */
export async function baselineHistory(workspace: Workspace, history: FilesHistory): Promise<BaselinePoint[] | undefined> {
  const file = baselineFile(workspace)
  if (file === undefined) return undefined
  let versions: FileVersionText[] | undefined
  try {
    versions = await history.texts(join(workspace.root, file), maxPoints)
  } catch {
    // A version whose blob cannot be read leaves the chart out, not the site unbuilt.
    return undefined
  }
  if (versions === undefined || versions.length === 0) return undefined
  const points = versions.flatMap((version) => {
    try {
      const baseline = parseBaseline(workspace.root, file, version.text)
      return [{ version: version.version, date: version.timestamp.slice(0, 10), count: baseline.entries.reduce((sum, entry) => sum + entry.count, 0) }]
    } catch (error) {
      // A commit whose baseline was corrupt is skipped; the chart shows the commits that can be read.
      if (error instanceof MkError) return []
      throw error
    }
  })
  return points.reverse()
}
