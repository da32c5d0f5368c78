import type { Workspace } from '../config/workspace.js'
import { formatProblem, problemsToReport } from '../knowledge/load.js'
import { visibleFolders, type MemoryIdentity } from '../memory/locations.js'
import type { TokenCounter } from '../token-count.js'
import type { DirectiveIndexAccess, DirectiveSetLoader } from './index-access.js'
import { queryDirectives, type DirectiveAnswer, type DirectiveQuery } from './query.js'

export interface RulesForTaskRequest extends DirectiveQuery {
  /** Also serve the directives of proposed items. */
  includeProposed: boolean
}

export interface RulesForTaskPlace {
  workspace: Workspace
  index: DirectiveIndexAccess
  identity: MemoryIdentity
  directiveSet: DirectiveSetLoader
  /** Started by the caller before anything else: reading the tokenizer's files overlaps the index's file checks. */
  countTokens: Promise<TokenCounter>
  warn(message: string): void
  progress(done: number, total: number): void
  signal: AbortSignal
}

/**
 * The directives that apply to a task, from a fresh index: knowledge files that did not load are
 * warned about (their directives are missing), new documents are embedded, and the memories the
 * caller may see are recalled beside the rules when asked for.
 */
export async function rulesForTask(request: RulesForTaskRequest, place: RulesForTaskPlace): Promise<DirectiveAnswer> {
  const { workspace, identity, warn } = place
  const folders = request.includeMemories ? visibleFolders(workspace, identity) : []
  const index = await place.index.open(warn)
  const fresh = await place.index.refresh({ identity, folders, memory: request.includeMemories, warn })
  // A knowledge file that did not load has no directives in the block: say which, as knowledge_query does.
  for (const problem of problemsToReport({ problems: fresh.knowledgeProblems })) warn(formatProblem(problem))
  const { searchMode } = await place.index.embedPending({ warn, progress: place.progress, signal: place.signal })
  const statuses = request.includeProposed ? ['accepted', 'proposed'] : ['accepted']
  const [set, countTokens] = await Promise.all([place.directiveSet(index, statuses), place.countTokens])
  const textWeight = workspace.config.search.textWeight
  return queryDirectives(request, workspace.config.rules, {
    set,
    index,
    searchMode,
    textWeight,
    statuses,
    countTokens,
    recall: async (text, limit) => {
      if (folders.length === 0) return []
      const hits = await index.search({ text, mode: searchMode, limit, textWeight, filters: { kind: 'memory', sources: folders.map((folder) => folder.key) } })
      const docs = new Map((await index.getMany(hits.map((hit) => hit.id))).map((doc) => [doc.id, doc]))
      return hits.flatMap((hit) => {
        const doc = docs.get(hit.id)
        return doc === undefined ? [] : [{ memoryId: doc.id, content: doc.content, layer: doc.layer, score: hit.score }]
      })
    },
  })
}
