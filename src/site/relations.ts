import type { KnowledgeItem } from '../knowledge/model.js'

/** Escapes a string for a RegExp. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * Items each item names in its text: by id (`adr-0007-memory-history`) or a markdown link to its file name.
 * Supersede links are left out: they have their own relation. The result is symmetric, so a page lists both
 * the items it names and the items that name it.
 */
export function relatedItems(items: readonly KnowledgeItem[]): Map<string, string[]> {
  const related = new Map<string, Set<string>>(items.map((item) => [item.id, new Set<string>()]))
  const patterns = items.map((item) => {
    const fileName = item.path.split('/').at(-1) ?? item.path
    return { id: item.id, pattern: new RegExp(`(^|[^\\w-])(${literal(item.id)}|${literal(fileName)})(?![\\w-])`) }
  })
  for (const item of items) {
    const superseding = new Set([...item.supersedes, ...item.supersededBy])
    for (const other of patterns) {
      if (other.id === item.id || superseding.has(other.id) || !other.pattern.test(item.body)) continue
      related.get(item.id)?.add(other.id)
      related.get(other.id)?.add(item.id)
    }
  }
  return new Map([...related].map(([id, ids]) => [id, [...ids].sort()]))
}

/** A file name for each item's page: its id made safe for any file system and URL, unique on the site. */
export function pageNames(items: readonly KnowledgeItem[]): Map<string, string> {
  const used = new Set<string>()
  const names = new Map<string, string>()
  for (const item of items) {
    const base =
      item.id
        .toLowerCase()
        .replace(/[^a-z0-9._-]+/g, '-')
        .replace(/^[-.]+|-+$/g, '')
        .slice(0, 80) || 'item'
    let name = base
    for (let suffix = 2; used.has(name); suffix++) name = `${base}-${suffix}`
    used.add(name)
    names.set(item.id, `${name}.html`)
  }
  return names
}
