import { describe, expect, it } from 'vitest'
import { formatMemory, MemoryFormatError, parseMemory } from '../../../src/memory/format.js'
import type { MemoryRecord } from '../../../src/memory/model.js'

const record: MemoryRecord = {
  id: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3',
  layer: 'agent',
  content: 'Line one\n\n---\nstill content after a rule',
  tags: ['ops', 'db'],
  created: '2026-11-20T10:00:00.000Z',
  updated: '2026-11-21T10:00:00.000Z',
  source: 'agent:alice',
  refs: ['adr-0001'],
  supersedes: [],
  expires: '2027-01-01T00:00:00.000Z',
  lane: 'private',
  owner: 'alice',
  producerAgentId: 'alice',
  ownerAgentId: 'alice',
  ownerTeamId: 'platform',
  metadata: { confidence: 0.9, reviewed: true },
  tier: 'warm',
  lastRehydrated: { at: '2026-11-22T10:00:00.000Z', from: 'archive', to: 'warm', reason: 'needed again' },
}

describe('memory files', () => {
  it('round-trips every field but the tier, content with a markdown rule included', () => {
    expect(parseMemory(formatMemory(record))).toEqual({ ...record, tier: 'hot' })
  })

  it('leaves the tier to the folder tier table, and still reads the tier line of a file written before it', () => {
    expect(formatMemory(record)).not.toMatch(/^tier:/m)
    const older = formatMemory(record).replace(/^lane: /m, 'tier: cold\nlane: ')
    expect(parseMemory(older).tier).toBe('cold')
  })

  it('round-trips values YAML would otherwise read as booleans, numbers or dates', () => {
    const tricky = { ...record, tier: 'hot' as const, tags: ['yes', 'no', 'on', '1.0', '2026-01-01', 'null'], owner: 'true', metadata: { n: 'y' } }
    expect(parseMemory(formatMemory(tricky))).toEqual(tricky)
  })

  it('reads a hand-written file with only the required fields', () => {
    const parsed = parseMemory('---\nid: mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3\nlayer: user\ncreated: 2026-11-20\n---\nA fact\n')
    expect(parsed).toMatchObject({ layer: 'user', tags: [], lane: 'private', tier: 'hot', content: 'A fact', updated: parsed.created })
  })

  it.each([
    ['no frontmatter', 'just text', /no frontmatter/],
    ['malformed yaml', '---\nid: [x\n---\nbody', /malformed frontmatter/],
    ['a bad id', '---\nid: note-1\nlayer: user\ncreated: x\n---\nbody', /not a memory id/],
    ['an unknown layer', '---\nid: mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3\nlayer: galaxy\ncreated: x\n---\nbody', /"layer" galaxy is not one of/],
    ['no content', '---\nid: mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3\nlayer: user\ncreated: x\n---\n\n', /no content/],
    ['tags not a list', '---\nid: mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3\nlayer: user\ncreated: x\ntags: 3\n---\nbody', /"tags" must be a list/],
  ])('rejects %s with a message saying what is wrong', (_name, text, message) => {
    expect(() => parseMemory(text)).toThrow(MemoryFormatError)
    expect(() => parseMemory(text)).toThrow(message)
  })
})
