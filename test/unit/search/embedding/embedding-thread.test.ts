import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { bundledModelLoaded, createBundledProvider, setEmbeddingThread } from '../../../../src/search/embedding/bundled.js'
import { openIndex } from '../../../../src/search/search-index.js'
import type { IndexDocument, SearchHit } from '../../../../src/search/types.js'

// The embedding thread runs the compiled worker (dist/src/search/embedding/bundled-worker.js): `npm run build` first.
const compiledWorker = resolve('dist/src/search/embedding/bundled-worker.js')

const questions = ['which database is read-only', 'who owns billing', 'when does on-call escalate']
const facts = [
  'The staging database is read-only on Fridays',
  'The billing service is owned by the platform team',
  'On-call pages the secondary after 10 minutes',
  'Release notes are written by the author',
  'CI runners have two cores',
  'Every deploy needs two approvals',
]

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mk-embedding-thread-'))
})
afterEach(async () => {
  setEmbeddingThread(false)
  await rm(dir, { recursive: true, force: true })
})

function memory(n: number, content: string): IndexDocument {
  return { id: `m${n}`, kind: 'memory', layer: 'project', content, tags: [], source: 'project', updatedAt: 1_700_000_000_000 + n }
}

/** Hybrid searches of `questions` over an index of `facts`, everything embedded on the embedding thread or in this one. */
async function rankings(onThread: boolean): Promise<{ hits: SearchHit[][]; modelHere: boolean }> {
  setEmbeddingThread(onThread)
  const provider = createBundledProvider()
  const index = openIndex(join(dir, `${String(onThread)}.db`), { embedder: provider })
  index.upsert(facts.map((content, n) => memory(n, content)))
  await index.embedPending()
  const hits: SearchHit[][] = []
  for (const text of questions) hits.push(await index.search({ text, mode: 'hybrid', limit: 10 }))
  const modelHere = bundledModelLoaded()
  index.close()
  await provider.close?.()
  return { hits, modelHere }
}

describe('the embedding thread of a long-lived process', () => {
  it('embeds a question to the same vector as this thread does, without loading a model here', async () => {
    expect(existsSync(compiledWorker)).toBe(true)
    setEmbeddingThread(true)
    const threaded = createBundledProvider()
    const onThread = await threaded.embed(questions, 'query')
    expect(bundledModelLoaded()).toBe(false)
    await threaded.close?.()
    setEmbeddingThread(false)
    const here = createBundledProvider()
    const inThisThread = await here.embed(questions, 'query')
    expect(bundledModelLoaded()).toBe(true)
    await here.close?.()
    onThread.forEach((vector, n) => {
      const same = inThisThread[n] as Float32Array
      expect(vector).toHaveLength(512)
      expect(Math.max(...vector.map((value, i) => Math.abs(value - (same[i] ?? 0))))).toBeLessThan(1e-5)
    })
  }, 60_000)

  it('ranks a hybrid search the same whether its question was embedded on the thread or here', async () => {
    const threaded = await rankings(true)
    const here = await rankings(false)
    expect(threaded.modelHere).toBe(false)
    expect(threaded.hits.map((hits) => hits.map((hit) => hit.id))).toEqual(here.hits.map((hits) => hits.map((hit) => hit.id)))
    expect(threaded.hits[0]?.[0]?.id).toBe('m0')
    threaded.hits.flat().forEach((hit, n) => expect(hit.score).toBeCloseTo(here.hits.flat()[n]?.score ?? NaN, 5))
  }, 60_000)

  it('leaves no thread behind: a process that embedded on it and never closed its provider exits by itself', async () => {
    const script = join(dir, 'embed-and-leave.mjs')
    const bundled = resolve('dist/src/search/embedding/bundled.js')
    await writeFile(
      script,
      `const { createBundledProvider, setEmbeddingThread, bundledModelLoaded } = await import(${JSON.stringify(bundled)})
setEmbeddingThread(true)
const [vector] = await createBundledProvider().embed(['who owns billing'], 'query')
console.log(JSON.stringify({ dimensions: vector.length, modelHere: bundledModelLoaded() }))
`,
    )
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 50_000 })
    expect(run.signal).toBeNull()
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({ dimensions: 512, modelHere: false })
  }, 60_000)
})
