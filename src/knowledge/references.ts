import { dirname } from 'node:path'
import type { KnowledgeItem } from './model.js'

const idNumber = /^(?:adr[-_]?)?0*(\d+)(?:[-_]|$)/i
const referenceNumber = /^(?:adr[-_ ]?)?#?0*(\d+)(?:[-_]|$)/i

/**
 * `Superseded by ADR-0057` names an ADR by number, not by id, and links go stale when a file is renamed
 * (`ADR045-use-forms-api.md` for `ADR045-remove-forms-api.md`). Once every file is loaded, a reference to no
 * id becomes the id of the one item whose file name carries its number; otherwise it stays as written.
 */
export function resolveNumberedReferences(items: readonly KnowledgeItem[]): void {
  const ids = new Set(items.map((item) => item.id))
  const byNumber = new Map<string, KnowledgeItem[]>()
  for (const item of items) {
    const number = idNumber.exec(item.id)?.[1]
    if (number !== undefined) byNumber.set(number, [...(byNumber.get(number) ?? []), item])
  }
  for (const item of items) {
    // Several ADR folders may each have an ADR 5; the one beside the referring file is meant.
    const resolve = (reference: string): string => {
      if (ids.has(reference)) return reference
      const number = referenceNumber.exec(reference.trim())?.[1]
      const candidates = number === undefined ? [] : (byNumber.get(number) ?? [])
      const nearby = candidates.length > 1 ? candidates.filter((candidate) => dirname(candidate.path) === dirname(item.path)) : candidates
      return nearby.length === 1 && nearby[0] !== undefined ? nearby[0].id : reference
    }
    item.supersedes = [...new Set(item.supersedes.map(resolve))]
    item.supersededBy = [...new Set(item.supersededBy.map(resolve))]
  }
}
