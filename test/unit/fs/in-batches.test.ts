import { describe, expect, it } from 'vitest'
import { inBatches } from '../../../src/fs/in-batches.js'

describe('inBatches', () => {
  it('keeps the order of results and never runs more than a batch at once', async () => {
    let running = 0
    let most = 0
    const results = await inBatches([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      running++
      most = Math.max(most, running)
      await new Promise((resolve) => setTimeout(resolve, 5 * (8 - item)))
      running--
      return item * 10
    })
    expect(results).toEqual([10, 20, 30, 40, 50, 60, 70])
    expect(most).toBe(3)
  })
})
