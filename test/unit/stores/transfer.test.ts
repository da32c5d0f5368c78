import { describe, expect, it } from 'vitest'
import { MkError } from '../../../src/errors.js'
import { formatTransfer, parseTransfer, transferFormat, type TransferItem } from '../../../src/stores/transfer.js'
import { memoryPathKey } from '../../../src/stores/files/transfer-history.js'

const header = { format: transferFormat, version: 1, tenant: 'acme', scope: 'default', from: 'files', exported_at: '2026-11-27T00:00:00.000Z' } as const
const memory = [
  '---',
  'id: mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3',
  'layer: project',
  'tags: []',
  "created: '2026-11-01T00:00:00.000Z'",
  "updated: '2026-11-01T00:00:00.000Z'",
  'lane: shared',
  '---',
  'Deploys need two approvals',
  '',
].join('\n')
const items: TransferItem[] = [
  { kind: 'memory', folder: 'project', text: memory },
  { kind: 'tier', folder: 'project', id: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3', tier: 'warm' },
  {
    kind: 'history',
    commit: 'a'.repeat(40),
    at: '2026-11-01T00:00:00.000Z',
    author: null,
    message: 'add',
    op: 'add',
    folder: 'project',
    memory_id: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3',
    text: memory,
  },
  { kind: 'receipt_salt', salt: Buffer.alloc(32, 7).toString('base64') },
]
const text = (lines: string[]): string => `${lines.join('\n')}\n`

function refusal(content: string): MkError {
  try {
    parseTransfer(content)
  } catch (error) {
    if (error instanceof MkError) return error
    throw error
  }
  throw new Error('the file was accepted')
}

describe('the portable form of a tenant', () => {
  it('reads back what it wrote', () => {
    expect(parseTransfer(text(formatTransfer(header, items)))).toEqual({ header, items })
  })

  it('refuses another format version, a bad line (naming it) and a cut-off file', () => {
    const lines = formatTransfer(header, items)
    expect(refusal(text([lines[0]?.replace('"version":1', '"version":7') ?? '', ...lines.slice(1)])).message).toMatch(/^line 1: format version 7/)
    const torn = [...lines]
    torn[2] = '{"kind":"tier","folder":"project","id":"mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3","tier":"lukewarm"}'
    expect(refusal(text(torn))).toMatchObject({ code: 'INVALID_INPUT', details: { line: 3 } })
    const escaped = [...lines]
    escaped[1] = JSON.stringify({ kind: 'memory', folder: '../../etc', text: memory })
    expect(refusal(text(escaped)).message).toMatch(/^line 2: .* is not a memory folder/)
    expect(refusal(text(lines.slice(0, -2))).message).toMatch(/end line|cut off/)
    expect(refusal('').message).toMatch(/^line 1/)
    const twice = formatTransfer(header, [...items, items[0] as TransferItem])
    expect(refusal(text(twice))).toMatchObject({ code: 'INVALID_INPUT', message: 'line 6: repeats the memory mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3 of project' })
  })

  it('names the folder of a memory file by its path in MK_HOME, as the folders are placed', () => {
    expect(memoryPathKey('memory/user/mem_1.md')).toEqual({ folder: 'user', id: 'mem_1' })
    expect(memoryPathKey('memory/agent/alice/mem_1.md')).toEqual({ folder: 'agent/alice', id: 'mem_1' })
    expect(memoryPathKey('memory/agent-user/alice/mem_1.md')).toEqual({ folder: 'user/alice', id: 'mem_1' })
    expect(memoryPathKey('memory/agent-session/alice/s1/mem_1.md')).toEqual({ folder: 'session/alice/s1', id: 'mem_1' })
    expect(memoryPathKey('deleted/mem_1.md')).toBeUndefined()
  })
})
