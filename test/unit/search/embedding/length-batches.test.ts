import { describe, expect, it } from 'vitest'
import { lengthSortedBatches } from '../../../../src/search/embedding/bundled.js'

describe('lengthSortedBatches', () => {
  it('groups positions of texts of similar length, every position once', () => {
    const texts = ['a long text here', 'b', 'medium one', 'cc', 'the longest text of them all', 'ddd']
    const groups = lengthSortedBatches(texts, 2)
    expect(groups).toEqual([
      [1, 3],
      [5, 2],
      [0, 4],
    ])
    expect(groups.flat().sort()).toEqual([0, 1, 2, 3, 4, 5])
  })
})
