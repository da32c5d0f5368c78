import type { Workspace } from '../config/workspace.js'
import { MkError } from '../errors.js'
import type { FileVersion } from '../git/history.js'
import { loadKnowledge, problemsToReport } from './load.js'
import type { KnowledgeItem, KnowledgeProblem } from './model.js'
import { idsWithPrefix, nearestIds } from './suggest.js'

export interface ShownItem {
  item: KnowledgeItem
  /** The items of other layers this one hides. */
  shadows: { layer: KnowledgeItem['layer']; path: string }[]
  /** Newest first; undefined unless asked for, empty when the file is not committed. */
  history: FileVersion[] | undefined
}

/** The one item whose id the prefix stands for; several fail with the candidates, none gives undefined. */
function itemOfPrefix(prefix: string, items: readonly KnowledgeItem[]): KnowledgeItem | undefined {
  const candidates = idsWithPrefix(
    prefix,
    items.map((item) => item.id),
  )
  if (candidates.length > 1) {
    throw new MkError(
      'INVALID_INPUT',
      `"${prefix}" is the start of ${candidates.length} knowledge ids: ${candidates.slice(0, 10).join(', ')}${candidates.length > 10 ? ', ...' : ''}`,
      {
        details: { id: prefix, candidates, hint: 'give more of the id, or the whole id' },
      },
    )
  }
  return items.find((item) => item.id === candidates[0])
}

/**
 * One knowledge item by its id or an unambiguous start of it, with what it shadows and, when
 * asked, its git history. The problems met loading the knowledge are handed to `loaded` first,
 * so they are reported even when no item is found.
 */
export async function showKnowledgeItem(
  workspace: Workspace,
  request: { id: string; history: boolean },
  loaded: (problems: KnowledgeProblem[]) => void,
): Promise<ShownItem> {
  const base = await loadKnowledge(workspace)
  loaded(problemsToReport(base))
  const item = base.items.find((candidate) => candidate.id === request.id) ?? itemOfPrefix(request.id, base.items)
  if (item === undefined) {
    const suggestions = nearestIds(
      request.id,
      base.items.map((candidate) => candidate.id),
    )
    throw new MkError('NOT_FOUND', `no knowledge item with id "${request.id}"${suggestions.length > 0 ? `; did you mean ${suggestions.join(', ')}?` : ''}`, {
      details: { id: request.id, suggestions, hint: 'mk knowledge list shows every id' },
    })
  }
  // Loaded only when asked: git's objects are not needed to show an item.
  const history = request.history ? ((await (await import('../git/history.js')).fileHistory(item.absolutePath)) ?? []) : undefined
  const shadows = (base.shadowed.get(item.id) ?? []).map((hidden) => ({ layer: hidden.layer, path: hidden.path }))
  return { item, shadows, history }
}
