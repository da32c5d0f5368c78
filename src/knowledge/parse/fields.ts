import { basename, extname } from 'node:path'
import type { KnowledgeFormat, KnowledgeType } from '../model.js'

const typeByFolder: Readonly<Record<string, KnowledgeType>> = {
  adr: 'adr',
  adrs: 'adr',
  decisions: 'adr',
  decision: 'adr',
  policy: 'policy',
  policies: 'policy',
  pattern: 'pattern',
  patterns: 'pattern',
  spec: 'spec',
  specs: 'spec',
  rule: 'rule',
  rules: 'rule',
}

export function stemOf(path: string): string {
  return basename(path, extname(path))
}

/** A frontmatter list written as a list or as a comma-separated string; undefined when it is neither. */
export function asStringList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return []
  if (typeof value === 'string')
    return value
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '')
  if (Array.isArray(value) && value.every((entry) => typeof entry === 'string' || typeof entry === 'number')) return value.map(String)
  return undefined
}

export function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (values as readonly string[]).includes(value)
}

/** ADR files are named `0001-…`, `adr-001-…` or `ADR001-…`. */
const numberedFileName = /^(?:adr[-_]?)?\d+[-_]/i

export function inferType(path: string, format: KnowledgeFormat): KnowledgeType {
  if (format !== 'mk') return 'adr'
  const folders = path.split('/').slice(0, -1).reverse()
  for (const folder of folders) {
    const type = typeByFolder[folder.toLowerCase()]
    if (type !== undefined) return type
  }
  return numberedFileName.test(stemOf(path)) ? 'adr' : 'policy'
}
