import type { FileListing, StoredFinding } from '../pipeline/contribution.js'

/**
 * A stored result's listings as flat arrays of primitives: V8's serializer
 * writes every object's property names again, so tens of thousands of
 * findings as objects took twice as long to write and five times as long to
 * read back as the same values in one array (10,000 files, 20,000 findings:
 * 21 ms and 56 ms as objects). A constraint's message repeats across its
 * findings and is kept once, in `strings`; subjects mostly differ and are kept
 * in place.
 */
export interface EncodedListings {
  strings: string[]
  /** Per file: its path, its kept findings' count, then per finding: rule, seq, file (-1: the listing's path), line, column, subject, message, lineHash. */
  cells: (string | number)[]
  /** The listings' other lists, for the few files that have any. */
  others: Map<string, Omit<FileListing, 'kept'>>
}

const cellsPerFinding = 8

const hasOthers = (listing: FileListing): boolean =>
  listing.waived.length + listing.invalidWaivers.length + listing.refusals.length + listing.unmatchedWaivers.length + listing.overBudget.length > 0

export function encodeListings(listings: ReadonlyMap<string, FileListing>): EncodedListings {
  const strings: string[] = []
  const stringIndex = new Map<string, number>()
  const ref = (text: string): number => {
    let index = stringIndex.get(text)
    if (index === undefined) {
      index = strings.push(text) - 1
      stringIndex.set(text, index)
    }
    return index
  }
  const cells: (string | number)[] = []
  const others = new Map<string, Omit<FileListing, 'kept'>>()
  for (const [path, listing] of listings) {
    cells.push(path, listing.kept.length)
    for (const finding of listing.kept) {
      cells.push(
        finding.rule,
        finding.seq,
        finding.file === path ? -1 : ref(finding.file),
        finding.line,
        finding.column,
        finding.subject,
        ref(finding.message),
        finding.lineHash,
      )
    }
    if (hasOthers(listing)) {
      const { kept: _kept, ...rest } = listing
      others.set(path, rest)
    }
  }
  return { strings, cells, others }
}

const noOthers: Omit<FileListing, 'kept'> = { waived: [], invalidWaivers: [], refusals: [], unmatchedWaivers: [], overBudget: [] }

function stringAt(strings: readonly string[], index: unknown): string {
  const text = typeof index === 'number' ? strings[index] : undefined
  if (text === undefined) throw new TypeError('a string reference outside the table')
  return text
}

function numberAt(cells: readonly unknown[], at: number): number {
  const value = cells[at]
  if (typeof value !== 'number') throw new TypeError(`cell ${at} is not a number`)
  return value
}

/** The listings back, in their order; undefined when the encoding is not one this code wrote. */
export function decodeListings(value: unknown): Map<string, FileListing> | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { strings, cells, others } = value as Partial<EncodedListings>
  if (!Array.isArray(strings) || !Array.isArray(cells) || !(others instanceof Map)) return undefined
  const listings = new Map<string, FileListing>()
  try {
    for (let at = 0; at < cells.length;) {
      const path = cells[at]
      if (typeof path !== 'string') return undefined
      const count = numberAt(cells, at + 1)
      at += 2
      const kept: StoredFinding[] = []
      for (let finding = 0; finding < count; finding++, at += cellsPerFinding) {
        const file = numberAt(cells, at + 2)
        const [subject, lineHash] = [cells[at + 5], cells[at + 7]]
        if (typeof subject !== 'string' || typeof lineHash !== 'string') return undefined
        kept.push({
          rule: numberAt(cells, at),
          seq: numberAt(cells, at + 1),
          file: file === -1 ? path : stringAt(strings, file),
          line: numberAt(cells, at + 3),
          column: numberAt(cells, at + 4),
          subject,
          message: stringAt(strings, cells[at + 6]),
          lineHash,
        })
      }
      listings.set(path, { kept, ...(others.get(path) ?? noOthers) })
    }
  } catch {
    return undefined
  }
  return listings
}
