import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chatMemories } from '../../../scripts/bench/chat-memories.js'
import { benchMemoryDocument, benchQuestion, type BenchTexts } from '../../../scripts/bench/mcp-search.js'
import { defaultThreshold } from '../../../src/search/calibration.js'
import { createBundledProvider } from '../../../src/search/embedding/bundled.js'
import { openIndex, type SearchIndex } from '../../../src/search/search-index.js'
import type { IndexDocument } from '../../../src/search/types.js'

/** As many questions as a compare of 10 rounds asks: 10 cold, 60 warm. */
const asked = 70

const memories: Record<BenchTexts, () => IndexDocument[]> = {
  bench: () => Array.from({ length: 64 }, (_, n) => benchMemoryDocument(n)),
  chat: () => chatMemories(300).map((content, n) => ({ ...benchMemoryDocument(n), content })),
}

// A warm search that returns nothing never reads or packs a row: the bench's new questions must be ones the memories answer.
describe.each(['bench', 'chat'] as const)("the bench's new questions of its %s memories", (texts) => {
  let base: string
  let index: SearchIndex
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'mk-bench-questions-'))
    index = openIndex(join(base, 'index.db'), { embedder: createBundledProvider() })
    index.upsert(memories[texts]())
    await index.embedPending()
  }, 120_000)
  afterAll(async () => {
    index.close()
    await rm(base, { recursive: true, force: true })
  })

  it('are each worded differently, so no cache of question vectors answers one', () => {
    const questions = Array.from({ length: asked * 4 }, (_, n) => benchQuestion(n, texts))
    expect(new Set(questions).size).toBe(questions.length)
  })

  it('are answered by the memories at the default threshold', async () => {
    const unanswered: string[] = []
    for (let n = 0; n < asked; n++) {
      const hits = await index.search({ text: benchQuestion(n, texts), mode: 'hybrid', limit: 10 })
      if (!hits.some((hit) => hit.confidence >= defaultThreshold)) unanswered.push(benchQuestion(n, texts))
    }
    expect(unanswered).toEqual([])
  }, 120_000)
})
