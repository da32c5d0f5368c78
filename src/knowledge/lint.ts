import type { KnowledgeBase } from './load.js'
import { isPending, type KnowledgeItem, type KnowledgeProblem } from './model.js'

/** Problems that only show across items: supersedes links to missing items, or links that are not returned. */
function relationProblems(items: readonly KnowledgeItem[]): KnowledgeProblem[] {
  const byId = new Map(items.map((item) => [item.id, item]))
  const problems: KnowledgeProblem[] = []
  const problem = (item: KnowledgeItem, line: number, code: string, message: string, severity: KnowledgeProblem['severity'] = 'error'): void => {
    problems.push({ file: item.path, line, code, message, severity })
  }
  for (const item of items) {
    for (const target of item.supersedes) {
      const other = byId.get(target)
      if (other === undefined) problem(item, item.relationLines.supersedes, 'broken-supersedes', `supersedes "${target}", which does not exist`)
      else if (!other.supersededBy.includes(item.id)) {
        problem(
          item,
          item.relationLines.supersedes,
          'one-way-supersedes',
          `supersedes "${target}", but ${other.path} does not list "${item.id}" in superseded_by`,
          'warning',
        )
      }
    }
    for (const target of item.supersededBy) {
      const other = byId.get(target)
      if (other === undefined) problem(item, item.relationLines.supersededBy, 'broken-superseded-by', `superseded_by "${target}", which does not exist`)
      else if (!other.supersedes.includes(item.id)) {
        problem(
          item,
          item.relationLines.supersededBy,
          'one-way-superseded-by',
          `superseded_by "${target}", but ${other.path} does not list "${item.id}" in supersedes`,
          'warning',
        )
      }
    }
    if (item.status === 'superseded' && item.supersededBy.length === 0) {
      problem(item, item.relationLines.supersededBy, 'superseded-without-successor', 'status is superseded but superseded_by names no item', 'warning')
    }
  }
  return problems
}

/** A constraint id names one constraint: waivers and the baseline refer to it, so a second item using it would be waived with the first. */
function constraintIdProblems(items: readonly KnowledgeItem[]): KnowledgeProblem[] {
  const firstById = new Map<string, KnowledgeItem>()
  const problems: KnowledgeProblem[] = []
  for (const item of items) {
    for (const constraint of item.constraints) {
      const first = firstById.get(constraint.id)
      if (first === undefined) firstById.set(constraint.id, item)
      else if (first !== item) {
        problems.push({
          file: item.path,
          line: constraint.line,
          code: 'duplicate-constraint-id',
          message: `constraint id "${constraint.id}" is also used in ${first.path}; give each constraint its own id, or one waiver waives both`,
          severity: 'error',
        })
      }
    }
  }
  return problems
}

/** An item whose constraints wait for acceptance: not a fault, but `knowledge check` passes without them, so lint says so. */
function pendingConstraintNotes(items: readonly KnowledgeItem[]): KnowledgeProblem[] {
  return items
    .filter((item) => isPending(item.status) && item.constraints.length > 0)
    .map((item) => ({
      file: item.path,
      line: item.constraints[0]?.line ?? 1,
      code: 'constraints-not-enforced',
      message: `status ${item.status}: its ${item.constraints.length === 1 ? 'constraint' : `${item.constraints.length} constraints`} (${item.constraints.map((constraint) => constraint.id).join(', ')}) ${item.constraints.length === 1 ? 'is' : 'are'} not enforced until the item is accepted`,
      severity: 'info',
    }))
}

function compareProblems(a: KnowledgeProblem, b: KnowledgeProblem): number {
  return a.file.localeCompare(b.file) || a.line - b.line || a.code.localeCompare(b.code)
}

/** Every problem in the knowledge base: per file (from parsing) and across files. */
export function lintKnowledge(base: KnowledgeBase): KnowledgeProblem[] {
  return [...base.problems, ...relationProblems(base.allItems), ...constraintIdProblems(base.allItems), ...pendingConstraintNotes(base.allItems)].sort(
    compareProblems,
  )
}
