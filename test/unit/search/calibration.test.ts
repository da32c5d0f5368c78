import { describe, expect, it } from 'vitest'
import { answerConfidence, calibrate, defaultThreshold } from '../../../src/search/calibration.js'
import { fuse } from '../../../src/search/fusion.js'

// Issue 29 / ADR 0031: a calibrated score means the same for every query, so the default threshold drops what does not answer.
describe('calibrated scores', () => {
  it('puts the default threshold at a best hit of 0.3 fused evidence, the cut measured on team-dev', () => {
    expect(defaultThreshold).toBe(0.7)
    expect(answerConfidence(0.3)).toBeCloseTo(0.7)
    expect(answerConfidence(0.25)).toBeCloseTo(0.55)
    expect(answerConfidence(0)).toBe(0)
    expect(answerConfidence(0.6)).toBe(1)
    expect(answerConfidence(0.95)).toBe(1)
  })

  it('never lowers the confidence as the evidence of the best hit rises', () => {
    const evidence = Array.from({ length: 101 }, (_, step) => step / 100)
    const confidences = evidence.map(answerConfidence)
    confidences.slice(1).forEach((confidence, step) => expect(confidence).toBeGreaterThanOrEqual(confidences[step] ?? 0))
  })

  it('keeps the order of a ranking, and the answers below a confident best hit above the threshold', () => {
    const confidences = calibrate([0.9, 0.5, 0.1])
    expect(confidences[0]).toBe(1)
    expect(confidences[1]).toBeLessThan(confidences[0] ?? 0)
    expect(confidences[2]).toBeLessThan(confidences[1] ?? 0)
    // A hit at half the best one's evidence, under a confident best hit, still passes 0.7.
    expect(confidences[1]).toBeGreaterThan(defaultThreshold)
  })

  it('scores every hit of a query that matches nothing well under the threshold', () => {
    const confidences = calibrate([0.24, 0.2, 0.19])
    expect(Math.max(...confidences)).toBeLessThan(defaultThreshold)
  })

  // ADR 0031 (2026-11-28): the further answers of an answered question count in R@10 only when they pass.
  it('keeps the further answers of a confident query above the threshold, down to a twenty-fifth of the best evidence', () => {
    const confidences = calibrate([0.5, 0.1, 0.02])
    expect(Math.min(...confidences)).toBeGreaterThan(defaultThreshold)
  })

  it('gives nothing for an empty ranking and zero for a ranking of zero evidence', () => {
    expect(calibrate([])).toEqual([])
    expect(calibrate([0, 0])).toEqual([0, 0])
  })
})

describe('fusion', () => {
  it('gives every fused hit its calibrated confidence, computed on the whole ranking', () => {
    const fused = fuse(
      [
        { rowid: 1, score: 0.9 },
        { rowid: 2, score: 0.2 },
      ],
      [{ rowid: 3, score: 0.5 }],
      0.8,
    )
    expect(fused.map((hit) => hit.rowid)).toEqual([1, 2, 3])
    expect(fused.map((hit) => hit.confidence)).toEqual(calibrate(fused.map((hit) => hit.score)))
    expect(fused[0]?.confidence).toBe(1)
  })
})
