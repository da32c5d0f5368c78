import { z } from 'zod'

export const searchModeSchema = z.enum(['fulltext', 'vector', 'hybrid'])

const metricsSchema = z.record(z.string(), z.number()).describe('Each metric averaged over the queries, in [0, 1]')
const wrongQuestionSchema = z.strictObject({
  text: z.string(),
  bestConfidence: z.number().describe('The calibrated score of its best hit (0 when it had none)'),
})

export const evalReportSchema = z.strictObject({
  dataset: z.strictObject({
    spec: z.string().describe('The dataset as given'),
    kind: z.enum(['beir', 'locomo', 'team']),
    documents: z.number().int(),
    queries: z.number().int(),
    indexes: z.number().int().describe('Temporary indexes built: 1 for BEIR and team sets, one per conversation for LoCoMo'),
  }),
  model: z.string().optional().describe('Embedding model id; absent when only full text ran'),
  textWeight: z.number(),
  build: z.strictObject({
    totalMs: z.number(),
    indexMs: z.number().describe('Writing documents into the index (full text and metadata)'),
    embedMs: z.number().describe('Embedding documents; small when their vectors came from the cache'),
    embeddedDocuments: z.number().int().describe('Documents embedded by the model in this run'),
    cachedDocuments: z.number().int().describe('Documents whose vectors were read from the vector cache'),
  }),
  results: z.array(
    z.strictObject({
      mode: searchModeSchema,
      metrics: metricsSchema.describe('Each metric averaged over the answerable queries, in [0, 1], on the ranking before any threshold'),
      abstention: z
        .strictObject({
          threshold: z.number().describe("The default threshold of memory_search (0.7): a query abstains when none of its hits' calibrated scores reaches it"),
          answerable: z.number().int(),
          unanswerable: z.number().int().describe('Questions no document answers (team sets: kinds none and gibberish)'),
          abstentionRate: z
            .number()
            .optional()
            .describe('Share of the unanswerable questions that got no result (higher is better); absent when there are none'),
          falseAbstentionRate: z.number().describe('Share of the answerable questions that got no result (lower is better)'),
          metricsAtThreshold: metricsSchema.describe('The metrics of the answerable queries on the hits that pass the threshold'),
          wrong: z
            .strictObject({
              answerableLeftEmpty: z.array(wrongQuestionSchema).describe('Answerable questions that got no result'),
              unanswerableAnswered: z.array(wrongQuestionSchema).describe('Unanswerable questions that got a result'),
            })
            .describe("The questions the threshold got wrong, in the set's order, the first 50 of each"),
        })
        .describe('What the default threshold does: abstention on questions without an answer, and what it costs the ones with one'),
      categories: z
        .array(z.strictObject({ category: z.number().int(), name: z.string(), questions: z.number().int(), metrics: metricsSchema }))
        .optional()
        .describe(
          'LoCoMo and team sets: the metrics per question category (LoCoMo) or kind (team: lexical, paraphrase, category, multi, none, gibberish), with "abstained", the share of its questions that got no result',
        ),
      latency: z.strictObject({ p50Ms: z.number(), p95Ms: z.number() }).describe('Search time per query, query embedding included'),
    }),
  ),
})

export type EvalReportOutput = z.output<typeof evalReportSchema>
