import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MkError } from '../../../src/errors.js'
import { runEval } from '../../../src/eval/run.js'
import { wordEmbedder } from '../../helpers/word-embedder.js'

const fixtures = fileURLToPath(new URL('../../fixtures/eval/', import.meta.url))
const beir = { kind: 'beir' as const, path: join(fixtures, 'beir-tiny') }
const locomo = { kind: 'locomo' as const, path: join(fixtures, 'locomo-tiny.json') }
const team = { kind: 'team' as const, path: join(fixtures, 'team-tiny.json') }

let workDir: string
beforeEach(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'mk-eval-test-'))
})
afterEach(() => rm(workDir, { recursive: true, force: true }))

describe('runEval through the real search index', () => {
  it('scores a BEIR dataset in every mode', async () => {
    const embedder = wordEmbedder({ synonyms: { postgresql: 'database', databases: 'database' } })
    const report = await runEval({ dataset: beir, modes: ['fulltext', 'vector', 'hybrid'], textWeight: 0.7, embedder, workDir })
    expect(report.dataset).toMatchObject({ kind: 'beir', documents: 4, queries: 2, indexes: 1 })
    expect(report.model).toBe('test-words')
    expect(report.build.embeddedDocuments).toBe(4)
    expect(report.results.map((result) => result.mode)).toEqual(['fulltext', 'vector', 'hybrid'])
    for (const result of report.results) {
      expect(result.metrics).toEqual({ ndcgAt10: 1, recallAt100: 1 })
      expect(result.latency.p95Ms).toBeGreaterThanOrEqual(result.latency.p50Ms)
      expect(result.categories).toBeUndefined()
    }
  })

  it('full text alone needs no embedder and embeds nothing', async () => {
    const report = await runEval({ dataset: beir, modes: ['fulltext'], textWeight: 0.7, embedder: undefined, workDir })
    expect(report.model).toBeUndefined()
    expect(report.build.embeddedDocuments).toBe(0)
    expect(report.results[0]?.metrics.ndcgAt10).toBe(1)
  })

  it('scores LoCoMo with one index per conversation, overall and per category', async () => {
    const report = await runEval({ dataset: locomo, modes: ['fulltext'], textWeight: 0.7, embedder: undefined, workDir })
    expect(report.dataset).toMatchObject({ kind: 'locomo', documents: 7, queries: 6, indexes: 2 })
    const [result] = report.results
    expect(Object.keys(result?.metrics ?? {})).toEqual(['recallAt5', 'recallAt10', 'recallAt25'])
    expect(result?.categories?.map(({ category, name, questions }) => ({ category, name, questions }))).toEqual([
      { category: 1, name: 'multi-hop', questions: 1 },
      { category: 2, name: 'temporal', questions: 1 },
      { category: 3, name: 'open-domain', questions: 1 },
      { category: 4, name: 'single-hop', questions: 2 },
      { category: 5, name: 'adversarial', questions: 1 },
    ])
    // Full text finds only turns sharing a word with the question: "When did Di move to Oslo?" finds D1:2 but
    // not its other evidence D1:1 ("My sister lives in Lisbon"), so 0.5; the other five count 1 (one has no evidence).
    expect(result?.metrics).toEqual({ recallAt5: 5.5 / 6, recallAt10: 5.5 / 6, recallAt25: 5.5 / 6 })
    expect(result?.categories?.find((category) => category.category === 2)?.metrics.recallAt5).toBe(0.5)
  })

  // Issue 29: the abstention rate beside P@1 and MRR, from the calibrated scores and the default threshold.
  it('reports how often the default threshold abstains, on unanswerable and on answerable questions', async () => {
    const report = await runEval({ dataset: team, modes: ['fulltext'], textWeight: 0.7, embedder: undefined, workDir })
    const [result] = report.results
    // Ranking metrics count the three answerable questions only.
    expect(result?.metrics).toEqual({ precisionAt1: 1, recallAt3: 1, recallAt10: 1, mrrAt10: 1 })
    expect(result?.abstention).toEqual({
      threshold: 0.7,
      answerable: 3,
      unanswerable: 3,
      abstentionRate: 1,
      falseAbstentionRate: 0,
      metricsAtThreshold: { precisionAt1: 1, recallAt3: 1, recallAt10: 1, mrrAt10: 1 },
      wrong: { answerableLeftEmpty: [], unanswerableAnswered: [] },
    })
    expect(result?.categories?.map(({ name, questions, metrics }) => [name, questions, metrics.abstained])).toEqual([
      ['lexical', 3, 0],
      ['none', 2, 1],
      ['gibberish', 1, 1],
    ])
  })

  // Which questions the threshold got wrong, so that a miss can be read, not only counted.
  it('names the answerable questions left empty and the unanswerable ones answered, with their best confidence', async () => {
    const dataset = { kind: 'team' as const, path: join(workDir, 'team.json') }
    await writeFile(
      dataset.path,
      JSON.stringify({
        memories: [
          { id: 'm1', content: 'We store everything in Postgres 15, one cluster per region.' },
          { id: 'm2', content: 'Pipelines run on GitHub Actions; the workflows live in .github/workflows.' },
          { id: 'm3', content: 'Metrics and dashboards live in Grafana, fed by Prometheus.' },
        ],
        questions: [
          { text: 'which Postgres version do we run?', kind: 'lexical', answers: ['m1'] },
          { text: 'how do we ship a change?', kind: 'paraphrase', answers: ['m2'] },
          { text: 'how many Postgres clusters per region?', kind: 'none', answers: [] },
          { text: 'what is the parental leave policy?', kind: 'none', answers: [] },
        ],
      }),
    )
    const report = await runEval({ dataset, modes: ['fulltext'], textWeight: 0.7, embedder: undefined, workDir })
    const wrong = report.results[0]?.abstention.wrong
    expect(wrong?.answerableLeftEmpty).toEqual([{ text: 'how do we ship a change?', bestConfidence: 0 }])
    expect(wrong?.unanswerableAnswered.map(({ text }) => text)).toEqual(['how many Postgres clusters per region?'])
    expect(wrong?.unanswerableAnswered[0]?.bestConfidence).toBeGreaterThanOrEqual(0.7)
  })

  it('a set without unanswerable questions reports no abstention rate', async () => {
    const report = await runEval({ dataset: beir, modes: ['fulltext'], textWeight: 0.7, embedder: undefined, workDir })
    expect(report.results[0]?.abstention).toMatchObject({ answerable: 2, unanswerable: 0, falseAbstentionRate: 0 })
    expect(report.results[0]?.abstention.abstentionRate).toBeUndefined()
  })

  it('stops after the first N queries, building only the indexes they need', async () => {
    const report = await runEval({ dataset: locomo, modes: ['fulltext'], limitQueries: 3, textWeight: 0.7, embedder: undefined, workDir })
    expect(report.dataset).toMatchObject({ queries: 3, indexes: 1, documents: 5 })
  })

  it('refuses vector modes without an embedding model', async () => {
    const error: unknown = await runEval({ dataset: beir, modes: ['fulltext', 'vector'], textWeight: 0.7, embedder: undefined, workDir }).catch(
      (thrown: unknown) => thrown,
    )
    expect(error).toBeInstanceOf(MkError)
    expect((error as MkError).code).toBe('INVALID_INPUT')
    expect((error as MkError).message).toBe('mode vector needs an embedding model, and search.embedding.provider is none')
  })
})
