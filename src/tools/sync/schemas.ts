import { z } from 'zod'
import { memoryLayers } from '../../config/layers.js'
import { errorCodes } from '../../errors.js'
import { knowledgeLayerSchema } from '../knowledge/schemas.js'

export const syncFailureSchema = z.strictObject({
  source: z.string().describe('The knowledge source that failed'),
  path: z.string().optional().describe('The file inside the source, when one item failed rather than the whole source'),
  errorCode: z.enum(errorCodes),
  message: z.string(),
  retryable: z.boolean().describe('True when the same sync may succeed later (network trouble); false when something must be fixed first'),
  hint: z.string().optional().describe('What fixes it'),
})

export const sourceKindSchema = z.enum(['path', 'git'])

export const sourceReportSchema = z.strictObject({
  name: z.string(),
  layer: knowledgeLayerSchema,
  kind: sourceKindSchema,
  action: z.enum(['cloned', 'updated', 'unchanged', 'scanned', 'failed', 'removed']),
  commit: z.string().optional().describe('Commit now in use (git sources)'),
  previousCommit: z.string().optional().describe('Commit of the previous successful sync'),
  added: z.number().int(),
  updated: z.number().int(),
  deleted: z.number().int(),
  unchanged: z.number().int(),
})

export const itemChangeSchema = z.strictObject({
  source: z.string(),
  path: z.string().describe('Path inside the source'),
  id: z.string().optional(),
  change: z.enum(['added', 'updated', 'deleted']),
})

export const staleMemorySchema = z.strictObject({
  memoryId: z.string(),
  layer: z.enum(memoryLayers),
  reason: z.string().describe('e.g. "refers to adr-0007, which is superseded"'),
})
