import { describe, expect, it } from 'vitest'
import { embedWithModel, loadBundledModel, type BundledModel } from '../../../../src/search/embedding/bundled-model.js'
import type { KernelPlan, PlanTensor } from '../../../../src/search/embedding/kernel-plan.js'
import { planTemplate } from '../../../../src/search/embedding/plan-template.js'

const words = ['the', 'team', 'code', 'database', 'on', 'budget', 'deploy', 'review', 'who', 'service']

/** A text of `length` one-piece words, its words varied by `variant`. */
const textOf = (length: number, variant: number): string => Array.from({ length }, (_, at) => words[(at * 3 + variant * 7) % words.length]).join(' ')

/** What a plan does, comparable across models: its kernels, their inputs and attributes, and its constants' values. */
function described(plan: KernelPlan): unknown {
  const constantAt = (tensor: PlanTensor): string => {
    const index = plan.constants.indexOf(tensor)
    return index === -1 ? 'weight' : `constant ${index}`
  }
  return {
    steps: plan.steps.map((step) => ({
      ...step,
      sources: step.sources.map((source) => (source !== undefined && 'tensor' in source ? constantAt(source.tensor) : source)),
    })),
    output: plan.output,
    constants: plan.constants.map((constant) => ({ shape: constant.shape, dtype: constant.dtype, values: Array.from(constant.dataSync()) })),
  }
}

describe('the plan template of the bundled model', () => {
  it('is learnt from the first two lengths, and gives at every length up to 128 word pieces the plan and vectors a recording gives', async () => {
    const templated = await loadBundledModel()
    const recorded: BundledModel = { ...(await loadBundledModel()), template: 'none' }
    embedWithModel(templated, [textOf(5, 0)])
    expect(templated.template).toBeUndefined()
    embedWithModel(templated, [textOf(9, 0)])
    expect(typeof templated.template).toBe('object')
    let worst = 0
    for (let length = 1; length <= 128; length++) {
      const text = textOf(length, 1)
      expect(templated.tokenizer.encode(text)).toHaveLength(length)
      const fromTemplate = embedWithModel(templated, [text])[0] as Float32Array
      const fromRecording = embedWithModel(recorded, [text])[0] as Float32Array
      worst = Math.max(worst, ...fromTemplate.map((value, index) => Math.abs(value - (fromRecording[index] ?? 0))))
      expect(described(templated.plans.get(length) as KernelPlan)).toEqual(described(recorded.plans.get(length) as KernelPlan))
    }
    expect(worst).toBeLessThan(1e-6)
  }, 120_000)

  it('is not made from plans that differ in more than their lengths', () => {
    const tensor = (values: number[]): PlanTensor => ({ shape: [values.length], dtype: 'int32', dataSync: () => Int32Array.from(values), dispose: () => {} })
    const plan = (shape: number[], constant: number[]): KernelPlan => {
      const held = tensor(constant)
      return {
        steps: [{ kernel: 'Reshape', names: ['x'], sources: [{ input: 'values' }, { tensor: held }], attrs: { shape }, outputs: [0] }],
        slots: 1,
        output: { slot: 0 },
        constants: [held],
      }
    }
    expect(planTemplate(plan([1, 5, 64], [5]), 5, plan([1, 9, 64], [9]), 9)?.lengthInAttrs).toEqual([[['shape', 1]]])
    expect(planTemplate(plan([1, 5, 64], [5]), 5, plan([1, 9, 64], [9]), 9)?.lengthInConstants).toEqual([[0]])
    // Twice the length is not the length: the template would be wrong for every other length.
    expect(planTemplate(plan([1, 10, 64], [5]), 5, plan([1, 18, 64], [9]), 9)).toBeUndefined()
    expect(planTemplate(plan([1, 5, 64], [5]), 5, plan([1, 9, 32], [9]), 9)).toBeUndefined()
    expect(planTemplate(plan([1, 5, 64], [5]), 5, plan([1, 5, 64], [5]), 5)).toBeUndefined()
  })
})
