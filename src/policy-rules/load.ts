import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import { headCommit, repositoryRootOf } from '../git/head.js'
import { listKnowledgeFiles } from '../knowledge/files.js'
import { loadKnowledge, problemsToReport } from '../knowledge/load.js'
import type { KnowledgeProblem } from '../knowledge/model.js'
import { resolveSources } from '../knowledge/sources.js'
import type { PolicyRule } from '../knowledge/policy-rule/model.js'

export interface PolicyRules {
  rules: PolicyRule[]
  /** Errors of knowledge files that did not load: each may hide a rule. */
  problems: KnowledgeProblem[]
}

/** What the knowledge files are now (paths, sizes, modification times): equal signatures mean the same rules, without reading a file. */
export async function policySignature(workspace: Workspace): Promise<string> {
  const parts: unknown[] = []
  for (const source of resolveSources(workspace)) {
    let files: string[]
    try {
      files = listKnowledgeFiles(workspace, source.directory)
    } catch {
      parts.push([source.directory, 'missing'])
      continue
    }
    const stats = await Promise.all(files.map((file) => stat(resolve(source.directory, file)).catch(() => undefined)))
    parts.push([source.directory, files.map((file, index) => [file, stats[index]?.mtimeMs, stats[index]?.size])])
  }
  return JSON.stringify(parts)
}

/**
 * The policy rules of the knowledge: accepted `type: rule` items whose frontmatter says `if` or
 * `then`, one per id (the most specific layer wins, as for every item), each with the commit of
 * the repository its file is in.
 */
export async function loadPolicyRules(workspace: Workspace): Promise<PolicyRules> {
  const base = await loadKnowledge(workspace)
  const problems = problemsToReport(base)
  const commits = new Map<string, string | undefined>()
  const commitOf = (absolutePath: string): string | undefined => {
    const root = repositoryRootOf(resolve(absolutePath, '..'))
    if (root === undefined) return undefined
    if (!commits.has(root)) commits.set(root, headCommit(root))
    return commits.get(root)
  }
  const rules = base.items.flatMap((item): PolicyRule[] =>
    item.policy === undefined || item.status !== 'accepted'
      ? []
      : [{ ...item.policy, id: item.id, summary: item.summary ?? item.title, path: item.path, commit: commitOf(item.absolutePath) }],
  )
  // A file that loaded is either a rule here (its defects listed as skipped) or not one; only a file that did not load can hide a rule.
  const loaded = new Set(base.allItems.map((item) => item.path))
  return { rules, problems: problems.filter((problem) => !loaded.has(problem.file)) }
}
