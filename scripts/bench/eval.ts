import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { configSchema } from '../../src/config/schema.js'
import { parseDatasetSpec } from '../../src/eval/dataset.js'
import { runEval, type EvalReport } from '../../src/eval/run.js'
import { withVectorCache } from '../../src/eval/vector-cache.js'
import { createEmbeddingProvider } from '../../src/search/embedding/create.js'
import { round } from './measure.js'

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url))

function summary(report: EvalReport): Record<string, unknown> {
  return {
    documents: report.dataset.documents,
    queries: report.dataset.queries,
    build_ms: round(report.build.totalMs),
    embed_ms: round(report.build.embedMs),
    modes: Object.fromEntries(
      report.results.map((result) => [
        result.mode,
        {
          ...Object.fromEntries(Object.entries(result.metrics).map(([name, value]) => [name, round(value, 4)])),
          p50_ms: round(result.latency.p50Ms),
          p95_ms: round(result.latency.p95Ms),
        },
      ]),
    ),
  }
}

/**
 * Retrieval quality of the default configuration (bundled model, default text weight) on mk's team-dev set
 * and the public benchmarks in $MK_BENCH_DIR (default ../shared/bench): team-dev and LoCoMo dev always; SciFact, which
 * takes about ten minutes to embed the first time, only with MK_BENCH_FULL=1.
 * Document vectors are cached in the temp folder, so repeated runs are quick.
 */
export async function benchEval(): Promise<Record<string, unknown>> {
  const benchDir = resolve(repoRoot, process.env.MK_BENCH_DIR ?? join('..', 'shared', 'bench'))
  if (!existsSync(benchDir)) return { skipped: `no benchmark data in ${benchDir} (set MK_BENCH_DIR)` }
  const { embedding, textWeight } = configSchema.parse({}).search
  const provider = await createEmbeddingProvider(embedding, { workspaceRoot: repoRoot })
  const embedder = provider === undefined ? undefined : await withVectorCache(provider, join(tmpdir(), 'mk-eval-vectors'))
  const datasets = process.env.MK_BENCH_FULL === '1' ? ['team', 'locomo', 'beir'] : ['team', 'locomo']
  const results: Record<string, unknown> = { model: embedder?.modelId, text_weight: textWeight }
  try {
    for (const name of datasets) {
      const workDir = await mkdtemp(join(tmpdir(), 'mk-bench-eval-'))
      try {
        const report = await runEval({
          dataset: parseDatasetSpec(name, { cwd: repoRoot, benchDir }),
          modes: ['fulltext', 'vector', 'hybrid'],
          textWeight,
          embedder,
          workDir,
        })
        results[{ beir: 'scifact', locomo: 'locomo_dev', team: 'team_dev' }[name] ?? name] = summary(report)
      } finally {
        await rm(workDir, { recursive: true, force: true })
      }
    }
  } finally {
    await embedder?.close?.()
  }
  return results
}
