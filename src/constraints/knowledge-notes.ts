import type { KnowledgeBase } from '../knowledge/load.js'
import { isPending, type KnowledgeProblem } from '../knowledge/model.js'
import { plural } from '../text.js'

/** The constraints of proposed and draft items: stated, not enforced until the item is accepted. */
export interface NotEnforced {
  constraints: number
  items: { id: string; path: string; status: string; constraints: string[] }[]
}

/** What the check leaves out of the knowledge, for the report to say it. */
export interface KnowledgeNotes {
  notEnforced: NotEnforced
  /** Error problems of knowledge files that did not load: they state no constraint the check can see (else the check stops), but were not read either. */
  unloaded: KnowledgeProblem[]
}

/** The notes of a check of the given items (every item when `selected` is undefined). */
export function knowledgeNotes(base: Pick<KnowledgeBase, 'allItems' | 'problems'>, selected: readonly string[] | undefined): KnowledgeNotes {
  const items = base.allItems
    .filter((item) => isPending(item.status) && item.constraints.length > 0 && (selected === undefined || selected.includes(item.id)))
    .map((item) => ({ id: item.id, path: item.path, status: item.status, constraints: item.constraints.map((constraint) => constraint.id) }))
    .sort((a, b) => a.path.localeCompare(b.path))
  const loaded = new Set(base.allItems.map((item) => item.path))
  return {
    notEnforced: { constraints: items.reduce((sum, item) => sum + item.constraints.length, 0), items },
    unloaded: base.problems.filter((problem) => problem.severity === 'error' && problem.code !== 'missing-source' && !loaded.has(problem.file)),
  }
}

/** "3 constraints of 2 proposed items not enforced", or undefined when there are none. */
export function describeNotEnforced(notEnforced: NotEnforced): string | undefined {
  if (notEnforced.constraints === 0) return undefined
  const statuses = [...new Set(notEnforced.items.map((item) => item.status))].sort().reverse().join(' or ')
  return `${plural(notEnforced.constraints, 'constraint')} of ${plural(notEnforced.items.length, `${statuses} item`)} not enforced`
}

/** What a warning about a knowledge file the check did not load says. */
export function describeUnloaded(problem: KnowledgeProblem): string {
  return `${problem.file}${problem.line > 0 ? `:${problem.line}` : ''}: not loaded, so not checked: ${problem.message}`
}
