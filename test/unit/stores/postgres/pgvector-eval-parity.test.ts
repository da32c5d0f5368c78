import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Pool } from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configSchema } from '../../../../src/config/schema.js'
import { runEval, type EvalReport } from '../../../../src/eval/run.js'
import { createEmbeddingProvider } from '../../../../src/search/embedding/create.js'
import { postgresScratchIndexes } from '../../../../src/stores/postgres/eval-index.js'
import { vectorPath } from '../../../../src/stores/postgres/pgvector.js'
import { ReplicaVectors } from '../../../../src/stores/postgres/vectors.js'
import { throwawayVectorDatabase, vectorPool } from '../../../helpers/pglite.js'

const database = throwawayVectorDatabase({ extension: true })
/** mk's realistic team set: 125 memories, 134 questions of every kind. */
const teamDev = { kind: 'team' as const, path: fileURLToPath(new URL('../../../../bench/recall/team-dev.json', import.meta.url)) }

/* Issue 31: the team-memory eval through the file store's index and through pgvector's (eval-parity.test.ts runs it on the Debian cluster's replica-memory path). */
describe('the team-memory eval on pgvector and on the file store', () => {
  let workDir: string
  let pool: Pool
  let vectors: ReplicaVectors

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'mk-pgvector-eval-'))
    pool = await vectorPool(database.database().url)
    vectors = new ReplicaVectors(async () => pool)
  }, 120_000)
  afterAll(async () => {
    await vectors.close()
    await pool.end()
    await rm(workDir, { recursive: true, force: true })
  })

  it.each([
    ['as the planner chooses (an exact scan at this size)', false],
    ['through the HNSW index (every other way to order priced out)', true],
  ])(
    'vector and hybrid with the bundled model, %s: P@1 and MRR within 0.02, no vector held',
    async (_, forceIndex) => {
      expect(await vectorPath(pool)).toMatchObject({ kind: 'pgvector' })
      // PGlite is one session: a session setting holds for every connection.
      await pool.query(forceIndex ? 'SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off' : 'RESET ALL')
      const embedder = await createEmbeddingProvider(configSchema.parse({}).search.embedding, { workspaceRoot: workDir })
      try {
        const store = { url: database.database().url, pool: async () => pool, vectors }
        const modes = ['vector', 'hybrid'] as const
        const request = { dataset: teamDev, modes, textWeight: configSchema.parse({}).search.textWeight, embedder, workDir }
        const files = await runEval(request)
        const postgres = await runEval({ ...request, openIndex: postgresScratchIndexes(store, 'eval', workDir) })
        for (const mode of modes) {
          const metrics = (report: EvalReport) => report.results.find((result) => result.mode === mode)?.metrics ?? {}
          const theirs = metrics(files)
          const mine = metrics(postgres)
          const shown = `${mode}: ${JSON.stringify({ files: theirs, pgvector: mine })}`
          console.log(shown)
          expect(theirs.precisionAt1).toBeGreaterThan(0.4)
          expect(Math.abs((mine.precisionAt1 ?? 0) - (theirs.precisionAt1 ?? 0)), shown).toBeLessThanOrEqual(0.02)
          expect(Math.abs((mine.mrrAt10 ?? 0) - (theirs.mrrAt10 ?? 0)), shown).toBeLessThanOrEqual(0.02)
        }
        expect(await vectors.size()).toEqual({ scopes: 0, vectors: 0 })
      } finally {
        await embedder?.close?.()
      }
    },
    600_000,
  )
})
