import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configSchema } from '../../../../src/config/schema.js'
import { runEval, type EvalReport, type OpenEvalIndex } from '../../../../src/eval/run.js'
import { createEmbeddingProvider } from '../../../../src/search/embedding/create.js'
import type { EmbeddingProvider } from '../../../../src/search/embedding/provider.js'
import type { SearchMode } from '../../../../src/search/types.js'
import { closeDatabases, postgresDatabase } from '../../../../src/stores/postgres/databases.js'
import { postgresScratchIndexes } from '../../../../src/stores/postgres/eval-index.js'
import { noPostgres, throwawayCluster } from '../../../helpers/postgres.js'

const postgres = throwawayCluster()
/** mk's realistic team set: 125 memories, 134 questions of every kind. */
const teamDev = { kind: 'team' as const, path: fileURLToPath(new URL('../../../../bench/recall/team-dev.json', import.meta.url)) }

/* Issue 31: the same eval suite through the file store's index and the PostgreSQL store's search. */
describe.skipIf(noPostgres !== undefined)('the team-memory eval on PostgreSQL and on the file store', () => {
  let workDir: string
  let openPostgres: OpenEvalIndex

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'mk-eval-parity-'))
    openPostgres = postgresScratchIndexes(postgresDatabase(postgres.cluster().createDatabase(), 4), 'eval', workDir)
  })
  afterAll(async () => {
    await closeDatabases()
    await rm(workDir, { recursive: true, force: true })
  })

  const both = async (modes: SearchMode[], embedder: EmbeddingProvider | undefined): Promise<{ files: EvalReport; postgres: EvalReport }> => {
    const request = { dataset: teamDev, modes, textWeight: configSchema.parse({}).search.textWeight, embedder, workDir }
    return { files: await runEval(request), postgres: await runEval({ ...request, openIndex: openPostgres }) }
  }

  const expectWithin = (reports: { files: EvalReport; postgres: EvalReport }, mode: SearchMode): void => {
    const metrics = (report: EvalReport) => report.results.find((result) => result.mode === mode)?.metrics ?? {}
    const files = metrics(reports.files)
    const other = metrics(reports.postgres)
    expect(files.precisionAt1).toBeGreaterThan(0.4)
    expect(Math.abs((other.precisionAt1 ?? 0) - (files.precisionAt1 ?? 0)), `P@1 ${mode}: ${JSON.stringify({ files, postgres: other })}`).toBeLessThanOrEqual(
      0.02,
    )
    expect(Math.abs((other.mrrAt10 ?? 0) - (files.mrrAt10 ?? 0)), `MRR ${mode}: ${JSON.stringify({ files, postgres: other })}`).toBeLessThanOrEqual(0.02)
    // Issue 29: the calibrated confidence is the same fusion's, so the default threshold abstains alike (one question of 28 or 106 at most).
    const abstention = (report: EvalReport) => report.results.find((result) => result.mode === mode)?.abstention
    const filesAbstention = abstention(reports.files)
    const otherAbstention = abstention(reports.postgres)
    const rates = JSON.stringify({ files: filesAbstention, postgres: otherAbstention })
    expect(Math.abs((otherAbstention?.abstentionRate ?? 0) - (filesAbstention?.abstentionRate ?? 0)), `abstention ${mode}: ${rates}`).toBeLessThanOrEqual(0.04)
    expect(
      Math.abs((otherAbstention?.falseAbstentionRate ?? 0) - (filesAbstention?.falseAbstentionRate ?? 0)),
      `false abstention ${mode}: ${rates}`,
    ).toBeLessThanOrEqual(0.02)
  }

  it('full text: P@1 and MRR within 0.02, abstention alike', async () => {
    expectWithin(await both(['fulltext'], undefined), 'fulltext')
  }, 120_000)

  it('hybrid and vector with the bundled model (the default configuration): P@1 and MRR within 0.02, abstention alike', async () => {
    const embedder = await createEmbeddingProvider(configSchema.parse({}).search.embedding, { workspaceRoot: workDir })
    try {
      const reports = await both(['vector', 'hybrid'], embedder)
      expectWithin(reports, 'vector')
      expectWithin(reports, 'hybrid')
    } finally {
      await embedder?.close?.()
    }
  }, 240_000)
})
