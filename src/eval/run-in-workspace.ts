import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { RuntimeEnv, Workspace } from '../config/workspace.js'
import { MkError } from '../errors.js'
import type { SearchMode } from '../search/types.js'
import type { DatasetSpec } from './dataset.js'
import type { EvalReport } from './run.js'

export interface WorkspaceEvalRequest {
  /** beir:DIR, locomo:FILE, team:FILE or a bare suite name, as the caller wrote it. */
  dataset: string
  modes: readonly SearchMode[]
  limitQueries?: number | undefined
  /** When absent, the workspace's search.textWeight for documents (beir) and search.memoryTextWeight for memories (locomo, team). */
  textWeight?: number | undefined
}

/** Where and for whom the evaluation runs: the call's environment and folder, and whether a server runs it. */
export interface EvalPlace {
  workspace: Workspace
  env: Readonly<Record<string, string | undefined>>
  cwd: string
  runtime: Pick<RuntimeEnv, 'served' | 'readOnly'>
  signal?: AbortSignal | undefined
  progress?: ((phase: string, done: number, total: number) => void) | undefined
}

/** An evaluation report with the dataset as the caller named it and how many vectors came from the cache. */
export interface WorkspaceEvalReport extends Omit<EvalReport, 'dataset' | 'build'> {
  dataset: Omit<EvalReport['dataset'], 'path'> & { spec: string }
  build: EvalReport['build'] & { cachedDocuments: number }
}

/**
 * Where the dataset is read from and the temporary indexes and vector cache are written.
 * In the CLI: a path anywhere (relative to the working directory), and the system temp folder.
 * In `mk serve`: only the tenant's workspace (or a suite the operator provides), and
 * scratch space in the workspace's .mk folder, so a read-only server refuses the run.
 */
async function evalPlaces(spec: string, place: EvalPlace): Promise<{ dataset: DatasetSpec; scratch: string }> {
  const { parseDatasetSpec, parseServedDatasetSpec } = await import('./dataset.js')
  const { root, stateDir } = place.workspace
  const benchDir = place.env.MK_BENCH_DIR
  if (!place.runtime.served) {
    return { dataset: parseDatasetSpec(spec, { cwd: place.cwd, benchDir: resolve(root, benchDir ?? join('..', 'shared', 'bench')) }), scratch: tmpdir() }
  }
  if (place.runtime.readOnly) {
    throw new MkError('FORBIDDEN', 'eval_run writes temporary indexes into the workspace, and this server is read-only', {
      details: { tool: 'eval_run', hint: 'run mk eval on your own machine, or ask the operator for a server that is not read-only' },
    })
  }
  const dataset = parseServedDatasetSpec(spec, { root, benchDir: benchDir === undefined || benchDir === '' ? undefined : resolve(benchDir) })
  const scratch = join(stateDir, 'eval')
  await mkdir(scratch, { recursive: true })
  return { dataset, scratch }
}

/**
 * Evaluate search on a benchmark with the workspace's embedding model, its vectors cached in the
 * scratch folder between runs; the temporary indexes are removed afterwards.
 */
export async function runWorkspaceEval(request: WorkspaceEvalRequest, place: EvalPlace): Promise<WorkspaceEvalReport> {
  const [{ runEval }, { withVectorCache }, { createEmbeddingProvider }] = await Promise.all([
    import('./run.js'),
    import('./vector-cache.js'),
    import('../search/embedding/create.js'),
  ])
  const { config, root } = place.workspace
  const { dataset, scratch } = await evalPlaces(request.dataset, place)
  const needsVectors = request.modes.some((mode) => mode !== 'fulltext')
  const provider = needsVectors ? await createEmbeddingProvider(config.search.embedding, { workspaceRoot: root }) : undefined
  const embedder = provider === undefined ? undefined : await withVectorCache(provider, join(scratch, 'mk-eval-vectors'))
  const workDir = await mkdtemp(join(scratch, 'mk-eval-'))
  try {
    const report = await runEval({
      dataset,
      modes: request.modes,
      limitQueries: request.limitQueries,
      textWeight: request.textWeight ?? (dataset.kind === 'beir' ? config.search.textWeight : config.search.memoryTextWeight),
      embedder,
      workDir,
      signal: place.signal,
      progress: place.progress,
    })
    const { kind, documents, queries, indexes } = report.dataset
    return {
      ...report,
      dataset: { spec: request.dataset, kind, documents, queries, indexes },
      build: { ...report.build, embeddedDocuments: embedder?.stats.embedded ?? 0, cachedDocuments: embedder?.stats.cached ?? 0 },
    }
  } finally {
    await embedder?.close?.()
    await rm(workDir, { recursive: true, force: true })
  }
}
