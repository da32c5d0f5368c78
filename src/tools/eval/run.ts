import { z } from 'zod'
import { defineTool } from '../define.js'
import { oneOrMany } from '../knowledge/schemas.js'
import { renderEvalReport } from './display.js'
import { evalReportSchema, searchModeSchema } from './schemas.js'

export const evalRun = defineTool({
  name: 'eval_run',
  title: 'Measure search quality on a retrieval benchmark',
  description:
    'Build temporary search indexes (never the workspace index) from a BEIR dataset folder (corpus.jsonl, queries.jsonl, qrels/test.tsv: reports nDCG@10 and Recall@100) ' +
    'or a LoCoMo conversation file (one index per conversation, one memory per dialog turn: reports Recall@5/10/25 overall and per question category), ' +
    'or a team memory set (JSON {memories: [{id, content}], questions: [{text, kind, answers}]}: reports P@1, R@3, R@10 and MRR@10 overall and per kind of question), ' +
    'search every query in each mode (fulltext, vector, hybrid) and report the scores, index build time and search latency (p50, p95). ' +
    "Uses the configured embedding model. Slow on large corpora (embedding thousands of documents takes minutes), so document vectors are cached in the temp folder between runs (through mk serve: in the workspace's .mk folder, and refused when the server is read-only).",
  tier: 'read_only',
  idempotent: true,
  timeoutMs: 6 * 60 * 60 * 1000,
  input: z.strictObject({
    dataset: z
      .string()
      .min(1)
      .describe(
        'beir:DIR, locomo:FILE or team:FILE (relative to the working directory; through mk serve, relative to the workspace and inside it); bare "beir" or "locomo" is SciFact or LoCoMo dev in the benchmark folder ($MK_BENCH_DIR, default ../shared/bench), bare "team" the team-dev set in the mk repository',
      ),
    mode: oneOrMany(searchModeSchema).default(['hybrid']).describe('Search modes to measure; default hybrid'),
    limitQueries: z.number().int().min(1).optional().describe('Score only the first N queries (a quick run)'),
    textWeight: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe('Weight of full text in hybrid ranking; default from the config: search.textWeight for beir, search.memoryTextWeight for locomo and team'),
  }),
  output: evalReportSchema,
  examples: [
    {
      title: 'Full text against hybrid on LoCoMo',
      input: { dataset: 'locomo:../shared/bench/locomo/locomo-dev.json', mode: ['fulltext', 'hybrid'] },
      output: {
        dataset: { spec: 'locomo:../shared/bench/locomo/locomo-dev.json', kind: 'locomo', documents: 2760, queries: 999, indexes: 5 },
        model: 'bundled:universal-sentence-encoder-lite@1',
        textWeight: 0.7,
        build: { totalMs: 64000, indexMs: 120, embedMs: 63880, embeddedDocuments: 2760, cachedDocuments: 0 },
        results: [
          {
            mode: 'fulltext',
            metrics: { recallAt5: 0.565, recallAt10: 0.641, recallAt25: 0.72 },
            abstention: {
              threshold: 0.7,
              answerable: 999,
              unanswerable: 0,
              falseAbstentionRate: 0.082,
              metricsAtThreshold: { recallAt5: 0.53, recallAt10: 0.601, recallAt25: 0.663 },
              wrong: {
                answerableLeftEmpty: [
                  { text: "Would Caroline still want to pursue counseling as a career if she hadn't received support growing up?", bestConfidence: 0.637 },
                ],
                unanswerableAnswered: [],
              },
            },
            latency: { p50Ms: 1.4, p95Ms: 5.8 },
          },
          {
            mode: 'hybrid',
            metrics: { recallAt5: 0.595, recallAt10: 0.685, recallAt25: 0.775 },
            abstention: {
              threshold: 0.7,
              answerable: 999,
              unanswerable: 0,
              falseAbstentionRate: 0.068,
              metricsAtThreshold: { recallAt5: 0.569, recallAt10: 0.65, recallAt25: 0.726 },
              wrong: {
                answerableLeftEmpty: [
                  { text: "Would Caroline still want to pursue counseling as a career if she hadn't received support growing up?", bestConfidence: 0.689 },
                ],
                unanswerableAnswered: [],
              },
            },
            latency: { p50Ms: 21, p95Ms: 31 },
          },
        ],
      },
    },
  ],
  async run(input, ctx) {
    const { runWorkspaceEval } = await import('../../eval/run-in-workspace.js')
    const request = { dataset: input.dataset, modes: input.mode, limitQueries: input.limitQueries, textWeight: input.textWeight }
    const progress = (phase: string, done: number, total: number): void => ctx.progress?.({ phase, done, total })
    return { output: await runWorkspaceEval(request, { ...ctx, signal: ctx.signal, progress }) }
  },
  render: renderEvalReport,
})
