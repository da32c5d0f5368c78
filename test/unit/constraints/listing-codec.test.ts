import { serialize, deserialize } from 'node:v8'
import { describe, expect, it } from 'vitest'
import { decodeListings, encodeListings } from '../../../src/constraints/cache/listing-codec.js'
import type { FileListing, StoredFinding } from '../../../src/constraints/pipeline/contribution.js'

const finding = (file: string, rule: number, seq: number, subject: string): StoredFinding => ({
  rule,
  seq,
  file,
  line: 3 + seq,
  column: 5,
  subject,
  message: `rule ${rule} forbids ${subject}`,
  lineHash: `hash-${file}-${seq}`,
})

const empty = { waived: [], invalidWaivers: [], refusals: [], unmatchedWaivers: [], overBudget: [] }

function listings(): Map<string, FileListing> {
  const problem = { kind: 'expired' as const, constraintId: 'adr-1#1', file: 'src/b.ts', line: 2, message: 'expired on 2020-01-01' }
  return new Map<string, FileListing>([
    ['src/a.ts', { ...empty, kept: [finding('src/a.ts', 0, 0, 'console.log('), finding('src/a.ts', 2, 1, 'console.log(')] }],
    ['src/b.ts', { ...empty, kept: [], invalidWaivers: [problem], overBudget: [{ rule: 1, reason: 'time' }] }],
    ['package.json', { ...empty, kept: [finding('package.json', 1, 0, 'moment'), { ...finding('package.json', 1, 1, 'left-pad'), file: 'other.json' }] }],
  ])
}

describe('the stored listings codec', () => {
  it('gives back every listing, in order, through the V8 serializer', () => {
    const original = listings()
    const decoded = decodeListings(deserialize(serialize(encodeListings(original))))
    expect(decoded).toEqual(original)
    expect([...(decoded ?? new Map<string, FileListing>()).keys()]).toEqual(['src/a.ts', 'src/b.ts', 'package.json'])
  })

  it('keeps a repeated message once', () => {
    const { strings, cells } = encodeListings(listings())
    expect(strings.filter((text) => text === 'rule 1 forbids moment')).toHaveLength(1)
    expect(cells.filter((cell) => typeof cell === 'string' && cell.startsWith('rule '))).toEqual([])
  })

  it('refuses what it did not write', () => {
    const encoded = encodeListings(listings())
    expect(decodeListings(new Map())).toBeUndefined()
    expect(decodeListings({ ...encoded, cells: ['src/a.ts', 1, 0, 0, -1, 3, 5, 'x(', 99, 'h'] })).toBeUndefined()
    expect(decodeListings({ ...encoded, cells: ['src/a.ts', 1, 0, 0, -1, 3, 5, 7, 0, 'h'] })).toBeUndefined()
    expect(decodeListings({ ...encoded, cells: ['src/a.ts', 'two'] })).toBeUndefined()
    expect(decodeListings({ ...encoded, cells: [...encoded.cells.slice(0, 9)] })).toBeUndefined()
  })
})
