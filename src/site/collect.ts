import { basename, join } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import { runCheck } from '../constraints/check.js'
import { MkError } from '../errors.js'
import { filesHistory } from '../git/history.js'
import type { KnowledgeBase } from '../knowledge/load.js'
import { baselineFile, baselineHistory } from './baseline-history.js'
import type { SiteData, SiteViolation } from './model.js'
import { pageNames, relatedItems } from './relations.js'

export interface CollectOptions {
  /** mk's version: the check's scan cache depends on it. */
  version: string
  now: Date
  /** The workspace knowledge, loaded once by the caller (which fingerprints it too). */
  knowledge: KnowledgeBase
}

/** Violations of every accepted constraint, the baseline ignored: the site shows where each decision is broken today. */
async function currentViolations(
  workspace: Workspace,
  version: string,
): Promise<{ byItem: Map<string, SiteViolation[]>; total: number; problem: string | undefined }> {
  const byItem = new Map<string, SiteViolation[]>()
  try {
    const report = await runCheck(workspace, {
      source: { kind: 'tree' },
      minSeverity: 'info',
      failOn: 'block',
      useBaseline: false,
      scanCache: { directory: join(workspace.stateDir, 'cache', 'check'), version },
    })
    for (const finding of report.findings) {
      const id = finding.rule.item.id
      const list = byItem.get(id) ?? []
      list.push({
        constraintId: finding.rule.constraint.id,
        severity: finding.rule.constraint.severity,
        file: finding.file,
        line: finding.line,
        message: finding.message,
      })
      byItem.set(id, list)
    }
    return { byItem, total: report.findings.length, problem: undefined }
  } catch (error) {
    // Knowledge whose constraints do not load stops the check; the site still shows the decisions, and says why there are no violations.
    if (error instanceof MkError) return { byItem, total: 0, problem: error.message }
    throw error
  }
}

/** Everything the site shows, read once: the items, their relations, git history and current violations. */
export async function collectSite(workspace: Workspace, options: CollectOptions): Promise<SiteData> {
  const items = options.knowledge.items
  const related = relatedItems(items)
  const pages = pageNames(items)
  const checked = await currentViolations(workspace, options.version)
  // One walk of the history for every item and the baseline; a repository that cannot be read leaves its pages without history.
  const baseline = baselineFile(workspace)
  const history = await filesHistory([...items.map((item) => item.absolutePath), ...(baseline === undefined ? [] : [join(workspace.root, baseline)])])
  return {
    title: `${basename(workspace.root)} knowledge`,
    builtAt: options.now.toISOString(),
    checkProblem: checked.problem,
    totalViolations: checked.total,
    baselineHistory: await baselineHistory(workspace, history),
    items: items.map((item) => ({
      item,
      page: pages.get(item.id) ?? 'item.html',
      relatesTo: related.get(item.id) ?? [],
      history: history.versions(item.absolutePath),
      violations: checked.byItem.get(item.id) ?? [],
    })),
  }
}
