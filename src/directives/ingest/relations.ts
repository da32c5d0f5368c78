import type { Directive } from '../model.js'

/**
 * How an ingested item relates to others: `shares_globs` when two ingested items are scoped to a
 * common glob, `duplicates` when it states the same directive as another item (the same rule
 * copied into AGENTS.md and CLAUDE.md, or already in an ADR or policy).
 */
export interface RuleRelation {
  kind: 'shares_globs' | 'duplicates'
  from: string
  to: string
  /** The common globs, or the duplicated directive texts. */
  shared: string[]
}

export interface RelatedItem {
  id: string
  appliesTo: readonly string[]
  directives: readonly Directive[]
}

/** Directive texts compare without case, spacing or a closing full stop. */
export function comparable(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[.!;:]+$/, '')
    .trim()
}

function common(left: readonly string[], right: readonly string[]): string[] {
  const other = new Set(right)
  return [...new Set(left.filter((entry) => other.has(entry)))].sort()
}

/** Relations of the ingested items among themselves and to the existing items, sorted by kind, from, to. */
export function findRelations(ingested: readonly RelatedItem[], existing: readonly RelatedItem[]): RuleRelation[] {
  const relations: RuleRelation[] = []
  const ingestedIds = new Set(ingested.map((item) => item.id))
  const textsOf = (item: RelatedItem): Map<string, string> => new Map(item.directives.map((directive) => [comparable(directive.text), directive.text]))
  for (const item of ingested) {
    const texts = textsOf(item)
    for (const other of [...ingested, ...existing.filter((candidate) => !ingestedIds.has(candidate.id))]) {
      // A pair of ingested items is reported once, from the smaller id.
      if (other.id === item.id || (ingestedIds.has(other.id) && other.id < item.id)) continue
      const globs = ingestedIds.has(other.id) ? common(item.appliesTo, other.appliesTo) : []
      if (globs.length > 0) relations.push({ kind: 'shares_globs', from: item.id, to: other.id, shared: globs })
      const otherTexts = textsOf(other)
      const duplicated = [...texts.keys()].filter((key) => otherTexts.has(key)).map((key) => texts.get(key) ?? key)
      if (duplicated.length > 0) relations.push({ kind: 'duplicates', from: item.id, to: other.id, shared: duplicated })
    }
  }
  return relations.sort((a, b) => a.kind.localeCompare(b.kind) || a.from.localeCompare(b.from) || a.to.localeCompare(b.to))
}
