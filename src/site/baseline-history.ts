import { join } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import { parseBaseline } from '../constraints/waivers/baseline.js'
import { MkError } from '../errors.js'
import { requireInsideWorkspace } from '../fs/path-guard.js'
import { fileTextOverHistory } from '../git/history.js'

export interface BaselinePoint {
  version: string
  date: string
  /** Violations the baseline tolerated at that commit. */
  count: number
}

/** Commits of the baseline file read for the chart; older ones are left off it. */
const maxPoints = 60

/**
 * How many violations the committed baseline tolerated at each commit that changed it, oldest first: falling
 * means decisions are being honoured. Undefined when the workspace has no baseline in git history.
 */
export async function baselineHistory(workspace: Workspace): Promise<BaselinePoint[] | undefined> {
  let file: string
  let versions: Awaited<ReturnType<typeof fileTextOverHistory>>
  try {
    file = requireInsideWorkspace(workspace.root, workspace.config.check.baseline, '.mkrc check.baseline')
    versions = await fileTextOverHistory(join(workspace.root, file), maxPoints)
  } catch {
    // A baseline outside the workspace, or a repository isomorphic-git cannot read, leaves the chart out, not the site unbuilt.
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
