import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { configSchema } from '../../src/config/schema.js'
import { parseDatasetSpec } from '../../src/eval/dataset.js'
import { runEval, type EvalReport, type OpenEvalIndex } from '../../src/eval/run.js'
import { withVectorCache } from '../../src/eval/vector-cache.js'
import { createEmbeddingProvider } from '../../src/search/embedding/create.js'
import { closeDatabases, postgresDatabase } from '../../src/stores/postgres/databases.js'
import { postgresScratchIndexes } from '../../src/stores/postgres/eval-index.js'
import { startCluster } from '../postgres-cluster.js'
import { round } from './measure.js'

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url))

type Metrics = Record<string, Record<string, number>>

const metricsOf = (report: EvalReport): Metrics =>
  Object.fromEntries(
    report.results.map((result) => [result.mode, Object.fromEntries(Object.entries(result.metrics).map(([name, value]) => [name, round(value, 4)]))]),
  )

/** Per mode and metric: PostgreSQL's figure minus the file store's. */
const deltas = (files: Metrics, postgres: Metrics): Metrics =>
  Object.fromEntries(
    Object.entries(files).map(([mode, metrics]) => [
      mode,
      Object.fromEntries(Object.entries(metrics).map(([name, value]) => [name, round((postgres[mode]?.[name] ?? 0) - value, 4)])),
    ]),
  )

/**
 * The eval suites of `bench eval` (team-dev and LoCoMo dev; SciFact too with MK_BENCH_FULL=1) run twice
 * in the same process with the same embedder: on the file store's SQLite index and through the
 * PostgreSQL store's search on a throwaway cluster. Issue 31 asks the two within 0.02 of each other.
 */
export async function benchEvalPostgres(): Promise<Record<string, unknown>> {
  const benchDir = resolve(repoRoot, process.env.MK_BENCH_DIR ?? join('..', 'shared', 'bench'))
  const cluster = await startCluster()
  if ('skipped' in cluster) return { skipped: cluster.skipped }
  const { embedding, textWeight } = configSchema.parse({}).search
  const provider = await createEmbeddingProvider(embedding, { workspaceRoot: repoRoot })
  const embedder = provider === undefined ? undefined : await withVectorCache(provider, join(tmpdir(), 'mk-eval-vectors'))
  const names = ['team', ...(existsSync(benchDir) ? ['locomo', ...(process.env.MK_BENCH_FULL === '1' ? ['beir'] : [])] : [])]
  const results: Record<string, unknown> = { model: embedder?.modelId, text_weight: textWeight }
  const database = postgresDatabase(cluster.createDatabase(), 4)
  try {
    for (const name of names) {
      const workDir = await mkdtemp(join(tmpdir(), 'mk-bench-eval-pg-'))
      try {
        const evaluate = (openIndex?: OpenEvalIndex): Promise<EvalReport> =>
          runEval({
            dataset: parseDatasetSpec(name, { cwd: repoRoot, benchDir }),
            modes: ['fulltext', 'vector', 'hybrid'],
            textWeight,
            embedder,
            workDir,
            ...(openIndex === undefined ? {} : { openIndex }),
          })
        const files = await evaluate()
        const postgres = await evaluate(postgresScratchIndexes(database, 'bench', workDir))
        const latency = (report: EvalReport): Record<string, number> =>
          Object.fromEntries(report.results.map((result) => [result.mode, round(result.latency.p50Ms, 2)]))
        results[{ beir: 'scifact', locomo: 'locomo_dev', team: 'team_dev' }[name] ?? name] = {
          documents: files.dataset.documents,
          queries: files.dataset.queries,
          files: metricsOf(files),
          postgres: metricsOf(postgres),
          postgres_minus_files: deltas(metricsOf(files), metricsOf(postgres)),
          p50_ms: { files: latency(files), postgres: latency(postgres) },
        }
      } finally {
        await rm(workDir, { recursive: true, force: true })
      }
    }
  } finally {
    await closeDatabases()
    await embedder?.close?.()
    cluster.stop()
  }
  return results
}
