import { describe, expect, it } from 'vitest'
import { mean, ndcgAtK, percentile, recallAtK } from '../../../src/eval/metrics.js'

describe('nDCG@k', () => {
  it('discounts a relevant document by log2(rank + 1) against the ideal order', () => {
    // DCG = 1/log2(2) + 1/log2(4) = 1.5; ideal = 1 + 1/log2(3) = 1.63093
    expect(
      ndcgAtK(
        ['a', 'x', 'b'],
        new Map([
          ['a', 1],
          ['b', 1],
        ]),
        10,
      ),
    ).toBeCloseTo(1.5 / (1 + 1 / Math.log2(3)), 10)
    expect(
      ndcgAtK(
        ['a', 'x', 'b'],
        new Map([
          ['a', 1],
          ['b', 1],
        ]),
        10,
      ),
    ).toBeCloseTo(0.91972, 5)
  })

  it('uses the relevance grade as gain', () => {
    // DCG = 1 + 2/log2(3) = 2.26186; ideal = 2 + 1/log2(3) = 2.63093
    expect(
      ndcgAtK(
        ['b', 'a'],
        new Map([
          ['a', 2],
          ['b', 1],
        ]),
        10,
      ),
    ).toBeCloseTo(0.85972, 5)
  })

  it('is 1 for the ideal ranking and 0 when nothing relevant is in the top k', () => {
    expect(
      ndcgAtK(
        ['a', 'b', 'x'],
        new Map([
          ['a', 1],
          ['b', 1],
        ]),
        10,
      ),
    ).toBe(1)
    expect(ndcgAtK(['x', 'y', 'a'], new Map([['a', 1]]), 2)).toBe(0)
  })

  it('counts only grades above 0 in the ideal ranking, and only the top k of them', () => {
    expect(
      ndcgAtK(
        ['a'],
        new Map([
          ['a', 1],
          ['z', 0],
        ]),
        10,
      ),
    ).toBe(1)
    // Three relevant documents, k = 1: the ideal is one relevant document at rank 1.
    expect(
      ndcgAtK(
        ['a', 'b', 'c'],
        new Map([
          ['a', 1],
          ['b', 1],
          ['c', 1],
        ]),
        1,
      ),
    ).toBe(1)
    expect(ndcgAtK(['x'], new Map(), 10)).toBe(0)
  })
})

describe('Recall@k', () => {
  it('is the share of relevant documents in the top k', () => {
    const relevant = new Set(['a', 'b', 'c'])
    expect(recallAtK(['x', 'a', 'y', 'b'], relevant, 2)).toBeCloseTo(1 / 3, 10)
    expect(recallAtK(['x', 'a', 'y', 'b'], relevant, 4)).toBeCloseTo(2 / 3, 10)
  })

  it('counts a document once even when it is listed twice', () => {
    expect(recallAtK(['a', 'a'], new Set(['a', 'b']), 2)).toBe(0.5)
  })

  it('counts 1 when nothing is relevant (the LoCoMo protocol)', () => {
    expect(recallAtK(['x'], new Set(), 5)).toBe(1)
  })
})

describe('mean and percentile', () => {
  it('averages, and 0 for nothing', () => {
    expect(mean([1, 2, 6])).toBe(3)
    expect(mean([])).toBe(0)
  })

  it('takes the nearest rank', () => {
    const values = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    expect(percentile(values, 50)).toBe(5)
    expect(percentile(values, 95)).toBe(10)
    expect(percentile([3, 1, 2], 50)).toBe(2)
    expect(percentile([], 95)).toBe(0)
  })
})
