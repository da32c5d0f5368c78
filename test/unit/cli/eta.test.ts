import { describe, expect, it } from 'vitest'
import { etaEstimator } from '../../../src/hosts/cli/progress.js'

describe('etaEstimator', () => {
  it('says nothing until a second has passed, then extrapolates the rate seen in the phase', () => {
    let now = 0
    const eta = etaEstimator(() => now)
    expect(eta({ phase: 'embedding', done: 0, total: 1000 })).toBeUndefined()
    now = 500
    expect(eta({ phase: 'embedding', done: 50, total: 1000 })).toBeUndefined()
    now = 2000
    expect(eta({ phase: 'embedding', done: 200, total: 1000 })).toBe('ETA 8s')
    now = 10_000
    expect(eta({ phase: 'embedding', done: 210, total: 10_000 })).toBe('ETA 7m 47s')
  })

  it('starts again with each phase and is silent when the work is done', () => {
    let now = 0
    const eta = etaEstimator(() => now)
    eta({ phase: 'reading files', done: 0, total: 10 })
    now = 5000
    expect(eta({ phase: 'embedding', done: 0, total: 10 })).toBeUndefined()
    now = 7000
    expect(eta({ phase: 'embedding', done: 10, total: 10 })).toBeUndefined()
  })
})
