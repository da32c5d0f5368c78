import { appendFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { appendLedger, ledgerFile, readCounters } from '../../../src/memory/activations.js'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mk-ledger-'))
})
afterEach(async () => rm(dir, { recursive: true, force: true }))

describe('activation ledger', () => {
  it('folds uses, outcomes and rehydrations into counters', async () => {
    await appendLedger({ dir }, [
      { id: 'm1', at: '2026-11-01T00:00:00.000Z', event: 'activate', outcome: 'positive' },
      { id: 'm1', at: '2026-11-03T00:00:00.000Z', event: 'activate', outcome: 'negative' },
      { id: 'm2', at: '2026-11-02T00:00:00.000Z', event: 'rehydrate', reason: 'needed' },
    ])
    const counters = await readCounters({ dir })
    expect(counters.get('m1')).toEqual({
      activations: 2,
      feedbackPositive: 1,
      feedbackNegative: 1,
      lastActivated: '2026-11-03T00:00:00.000Z',
      lastUseful: '2026-11-01T00:00:00.000Z',
      lastRehydrated: undefined,
    })
    expect(counters.get('m2')?.lastRehydrated).toBe('2026-11-02T00:00:00.000Z')
  })

  it('loses only a line torn by a crash, not the next one appended', async () => {
    await appendFile(ledgerFile({ dir }), '{"id":"m1","at":"2026-11-01T00:00:00.000Z","event":"acti')
    await appendLedger({ dir }, [{ id: 'm1', at: '2026-11-02T00:00:00.000Z', event: 'activate', outcome: 'neutral' }])
    expect((await readCounters({ dir })).get('m1')?.activations).toBe(1)
  })

  it('reads a missing ledger as no use at all', async () => {
    expect((await readCounters({ dir })).size).toBe(0)
  })
})
