import { join } from 'node:path'
import { MkError } from '../errors.js'
import { defaultThreshold } from '../search/calibration.js'
import type { EmbeddingProvider } from '../search/embedding/provider.js'
import { openIndex } from '../search/search-index.js'
import type { IndexDocument, SearchHit, SearchMode, SearchRequest } from '../search/types.js'
import { loadBeir } from './beir.js'
import type { DatasetSpec } from './dataset.js'
import { loadLocomo } from './locomo.js'
import { mean, percentile } from './metrics.js'
import { beirSuite, limitQueries, locomoSuite, teamSuite, type Suite, type SuiteQuery } from './suites.js'
import { loadTeam } from './team.js'

/** One group's documents as the evaluation searches them: the SQLite index by default, or a store's index. */
export interface EvalIndex {
  upsert(documents: readonly IndexDocument[]): void | Promise<void>
  embedPending(onProgress?: (done: number, total: number) => void): Promise<number>
  search(request: SearchRequest): Promise<SearchHit[]>
  close(): void | Promise<void>
}

/** Opens the empty index of group `number` (a suite's groups are searched apart). */
export type OpenEvalIndex = (number: number, embedder: EmbeddingProvider | undefined) => EvalIndex | Promise<EvalIndex>

export interface EvalRequest {
  dataset: DatasetSpec
  modes: readonly SearchMode[]
  limitQueries?: number | undefined
  textWeight: number
  /** Needed for vector and hybrid modes. */
  embedder: EmbeddingProvider | undefined
  /** A scratch folder for the temporary indexes. */
  workDir: string
  progress?: (phase: string, done: number, total: number) => void
  signal?: AbortSignal
  /** Where the documents are indexed and searched; the SQLite index in `workDir` when absent. */
  openIndex?: OpenEvalIndex
}

export interface CategoryResult {
  category: number
  name: string
  questions: number
  metrics: Record<string, number>
}

/** What the default threshold does to a mode's results: a query abstains when no hit reaches it. */
export interface AbstentionResult {
  threshold: number
  answerable: number
  unanswerable: number
  /** Share of the unanswerable questions that got no result; absent when the set has none. */
  abstentionRate?: number
  /** Share of the answerable questions that got no result. */
  falseAbstentionRate: number
  /** The ranking metrics of the answerable questions on what passes the threshold. */
  metricsAtThreshold: Record<string, number>
  /** The questions the threshold got wrong, in the set's order (the first `wrongListed` of each). */
  wrong: { answerableLeftEmpty: WrongQuestion[]; unanswerableAnswered: WrongQuestion[] }
}

/** A question the threshold got wrong, and the calibrated score of its best hit (0 when it had none). */
export interface WrongQuestion {
  text: string
  bestConfidence: number
}

/** How many wrong questions of each side a report names: a large set's misses are counted in the rates. */
const wrongListed = 50

export interface ModeResult {
  mode: SearchMode
  /** Each metric averaged over the answerable queries, in [0, 1], on the ranking before any threshold. */
  metrics: Record<string, number>
  abstention: AbstentionResult
  categories?: CategoryResult[]
  latency: { p50Ms: number; p95Ms: number }
}

export interface EvalReport {
  dataset: { kind: DatasetSpec['kind']; path: string; documents: number; queries: number; indexes: number }
  model: string | undefined
  textWeight: number
  build: { totalMs: number; indexMs: number; embedMs: number; embeddedDocuments: number }
  results: ModeResult[]
}

async function loadSuite(dataset: DatasetSpec): Promise<Suite> {
  switch (dataset.kind) {
    case 'beir':
      return beirSuite(await loadBeir(dataset.path))
    case 'locomo':
      return locomoSuite(await loadLocomo(dataset.path))
    case 'team':
      return teamSuite(await loadTeam(dataset.path))
  }
}

function averages(rows: readonly Record<string, number>[]): Record<string, number> {
  const names = Object.keys(rows[0] ?? {})
  return Object.fromEntries(names.map((name) => [name, mean(rows.map((row) => row[name] ?? 0))]))
}

interface ScoredQuery {
  query: SuiteQuery
  /** The ranking metrics (none for an unanswerable query), then the same on what passes the threshold. */
  metrics: Record<string, number>
  atThreshold: Record<string, number>
  abstained: boolean
  bestConfidence: number
}

/** Per category: the ranking metrics of its answerable queries, and the share of its queries that abstained. */
function byCategory(scored: readonly ScoredQuery[], names: Readonly<Record<number, string>> = {}): CategoryResult[] | undefined {
  const categories = [...new Set(scored.flatMap(({ query }) => (query.category === undefined ? [] : [query.category])))].sort((a, b) => a - b)
  if (categories.length === 0) return undefined
  return categories.map((category) => {
    const rows = scored.filter(({ query }) => query.category === category)
    const answerable = rows.filter(({ query }) => query.unanswerable !== true).map(({ metrics }) => metrics)
    const abstained = mean(rows.map((row) => (row.abstained ? 1 : 0)))
    return { category, name: names[category] ?? `category ${category}`, questions: rows.length, metrics: { ...averages(answerable), abstained } }
  })
}

function abstentionOf(scored: readonly ScoredQuery[]): AbstentionResult {
  const answerable = scored.filter(({ query }) => query.unanswerable !== true)
  const unanswerable = scored.filter(({ query }) => query.unanswerable === true)
  const rate = (rows: readonly ScoredQuery[]): number => mean(rows.map((row) => (row.abstained ? 1 : 0)))
  const named = (rows: readonly ScoredQuery[]): WrongQuestion[] =>
    rows.slice(0, wrongListed).map(({ query, bestConfidence }) => ({ text: query.text, bestConfidence }))
  return {
    threshold: defaultThreshold,
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    ...(unanswerable.length === 0 ? {} : { abstentionRate: rate(unanswerable) }),
    falseAbstentionRate: rate(answerable),
    metricsAtThreshold: averages(answerable.map(({ atThreshold }) => atThreshold)),
    wrong: {
      answerableLeftEmpty: named(answerable.filter((row) => row.abstained)),
      unanswerableAnswered: named(unanswerable.filter((row) => !row.abstained)),
    },
  }
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw new MkError('TIMEOUT', 'the evaluation was stopped before it finished')
}

/**
 * Builds the dataset's indexes with the real search index (in `workDir`),
 * then asks every query in every mode and scores the rankings.
 */
export async function runEval(request: EvalRequest): Promise<EvalReport> {
  const needsVectors = request.modes.some((mode) => mode !== 'fulltext')
  if (needsVectors && request.embedder === undefined) {
    throw new MkError(
      'INVALID_INPUT',
      `mode ${request.modes.filter((mode) => mode !== 'fulltext').join(', ')} needs an embedding model, and search.embedding.provider is none`,
      {
        details: { field: 'mode', hint: 'use --mode fulltext, or set search.embedding.provider to bundled or transformers in .mkrc' },
      },
    )
  }
  const suite = limitQueries(await loadSuite(request.dataset), request.limitQueries)
  const embedder = needsVectors ? request.embedder : undefined
  const build = { totalMs: 0, indexMs: 0, embedMs: 0, embeddedDocuments: 0 }
  const open: OpenEvalIndex = request.openIndex ?? ((number) => openIndex(join(request.workDir, `index-${number}.db`), { embedder }))
  const indexes: EvalIndex[] = []
  try {
    const totalDocuments = suite.groups.reduce((sum, group) => sum + group.documents.length, 0)
    let indexed = 0
    for (const [number, group] of suite.groups.entries()) {
      checkAborted(request.signal)
      const index = await open(number, embedder)
      indexes.push(index)
      let started = performance.now()
      for (let start = 0; start < group.documents.length; start += 500) await index.upsert(group.documents.slice(start, start + 500))
      build.indexMs += performance.now() - started
      started = performance.now()
      build.embeddedDocuments += await index.embedPending((done) => request.progress?.('embedding documents', indexed + done, totalDocuments))
      build.embedMs += performance.now() - started
      indexed += group.documents.length
    }
    build.totalMs = build.indexMs + build.embedMs
    const results: ModeResult[] = []
    const totalQueries = suite.groups.reduce((sum, group) => sum + group.queries.length, 0)
    for (const mode of request.modes) {
      const scored: ScoredQuery[] = []
      const latencies: number[] = []
      // One untimed search loads the query encoder, so the first timed query does not pay for it.
      const first = suite.groups[0]?.queries[0]
      if (first !== undefined) await indexes[0]?.search({ text: first.text, mode, limit: suite.depth, textWeight: request.textWeight })
      for (const [number, group] of suite.groups.entries()) {
        const index = indexes[number] as EvalIndex
        for (const query of group.queries) {
          checkAborted(request.signal)
          const started = performance.now()
          const hits = await index.search({ text: query.text, mode, limit: suite.depth, textWeight: request.textWeight })
          latencies.push(performance.now() - started)
          const kept = hits.filter((hit) => hit.confidence >= defaultThreshold).map((hit) => hit.id)
          const answerable = query.unanswerable !== true
          scored.push({
            query,
            metrics: answerable ? query.score(hits.map((hit) => hit.id)) : {},
            atThreshold: answerable ? query.score(kept) : {},
            abstained: kept.length === 0,
            bestConfidence: hits[0]?.confidence ?? 0,
          })
          request.progress?.(`searching (${mode})`, scored.length, totalQueries)
        }
      }
      const categories = byCategory(scored, suite.categoryNames)
      results.push({
        mode,
        metrics: averages(scored.filter(({ query }) => query.unanswerable !== true).map(({ metrics }) => metrics)),
        abstention: abstentionOf(scored),
        ...(categories === undefined ? {} : { categories }),
        latency: { p50Ms: percentile(latencies, 50), p95Ms: percentile(latencies, 95) },
      })
    }
    return {
      dataset: { kind: request.dataset.kind, path: request.dataset.path, documents: totalDocuments, queries: totalQueries, indexes: indexes.length },
      model: embedder?.modelId,
      textWeight: request.textWeight,
      build,
      results,
    }
  } finally {
    for (const index of indexes) await index.close()
  }
}
