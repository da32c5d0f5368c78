import { z } from 'zod'
import { knowledgeLayers } from '../../config/layers.js'
import { constraintOperators, constraintTargets, knowledgeStatuses, knowledgeTypes, severities, type KnowledgeItem } from '../../knowledge/model.js'

export const knowledgeTypeSchema = z.enum(knowledgeTypes)
export const knowledgeStatusSchema = z.enum(knowledgeStatuses)
export const knowledgeLayerSchema = z.enum(knowledgeLayers)

/** Accepts one value or a list, so `--status accepted` and `{"status": ["accepted"]}` both work. */
export function oneOrMany<T extends z.ZodType>(schema: T) {
  return z.union([schema, z.array(schema)]).transform((value) => (Array.isArray(value) ? value : [value]) as z.output<T>[])
}

export const knowledgeSummarySchema = z.strictObject({
  id: z.string(),
  type: knowledgeTypeSchema,
  layer: knowledgeLayerSchema,
  title: z.string(),
  summary: z.string().optional(),
  status: knowledgeStatusSchema,
  tags: z.array(z.string()),
  hasConstraints: z.boolean(),
  path: z.string().describe('Workspace-relative path of the file'),
})

export type KnowledgeSummary = z.output<typeof knowledgeSummarySchema>

/** The item the knowledge tools' examples show, so their examples agree with each other. */
export const exampleKnowledgeSummary: KnowledgeSummary = {
  id: 'adr-0001-use-postgresql',
  type: 'adr',
  layer: 'project',
  title: 'Use PostgreSQL for relational data',
  summary: 'New services store relational data in PostgreSQL.',
  status: 'accepted',
  tags: ['database'],
  hasConstraints: true,
  path: 'knowledge/adr/adr-0001-use-postgresql.md',
}

export const constraintSchema = z.strictObject({
  id: z.string(),
  operator: z.enum(constraintOperators),
  target: z.enum(constraintTargets),
  pattern: z.string(),
  paths: z.array(z.string()),
  exclude: z.array(z.string()),
  severity: z.enum(severities),
  message: z.string().optional(),
  waivable: z.boolean(),
})

export function toSummary(item: KnowledgeItem): KnowledgeSummary {
  return {
    id: item.id,
    type: item.type,
    layer: item.layer,
    title: item.title,
    ...(item.summary === undefined ? {} : { summary: item.summary }),
    status: item.status,
    tags: item.tags,
    hasConstraints: item.constraints.length > 0,
    path: item.path,
  }
}
