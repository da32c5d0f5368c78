import { z } from 'zod'
import { knowledgeLayers } from '../../config/layers.js'
import {
  constraintOperators,
  constraintTargets,
  knowledgeStatuses,
  knowledgeTypes,
  severities,
  type KnowledgeItem,
  type KnowledgeProblem,
} from '../../knowledge/model.js'

export const knowledgeTypeSchema = z.enum(knowledgeTypes)
/** Filters take the canonical statuses mk's logic uses. */
export const knowledgeStatusSchema = z.enum(knowledgeStatuses)
/** An item's status: canonical when its words map to one, else the written words (`on hold`). */
export const itemStatusSchema = z
  .string()
  .describe(`One of ${knowledgeStatuses.join(', ')}, or the status as written when it maps to none of them (e.g. "on hold")`)
export const knowledgeLayerSchema = z.enum(knowledgeLayers)

/** Accepts one value or a list, so `--status accepted` and `{"status": ["accepted"]}` both work. */
export function oneOrMany<T extends z.ZodType>(schema: T) {
  return z.union([schema, z.array(schema)]).transform((value) => (Array.isArray(value) ? value : [value]) as z.output<T>[])
}

export const statusRawSchema = z
  .string()
  .optional()
  .describe('The status as written in the file, when it differs from status (e.g. "Approved", "Superseded by ADR-0007")')

/** The written status, only when it says more than the status itself. */
export function statusRawOf(item: Pick<KnowledgeItem, 'status' | 'statusRaw'>): { statusRaw?: string } {
  return item.statusRaw === undefined || item.statusRaw.toLowerCase() === item.status ? {} : { statusRaw: item.statusRaw }
}

export const knowledgeSummarySchema = z.strictObject({
  id: z.string(),
  type: knowledgeTypeSchema,
  layer: knowledgeLayerSchema,
  title: z.string(),
  summary: z.string().optional(),
  status: itemStatusSchema,
  statusRaw: statusRawSchema,
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
    ...statusRawOf(item),
    tags: item.tags,
    hasConstraints: item.constraints.length > 0,
    path: item.path,
  }
}

export const knowledgeProblemSchema = z.strictObject({
  file: z.string(),
  line: z.number().int().describe('1-based; 0 when the problem is the whole file or folder'),
  code: z.string(),
  message: z.string(),
  severity: z.enum(['error', 'warning', 'info']),
})

export function toProblemOutput({ file, line, code, message, severity }: KnowledgeProblem): z.output<typeof knowledgeProblemSchema> {
  return { file, line, code, message, severity }
}

/** Files the reading tools could not fully load: listed in `problems`, and one stderr line each. */
export const loadProblemsSchema = z
  .array(knowledgeProblemSchema)
  .optional()
  .describe('Files that could not be fully loaded; every other item is still answered')

export function reportLoadProblems(
  problems: readonly KnowledgeProblem[],
  warn: (message: string) => void,
): { problems?: z.output<typeof knowledgeProblemSchema>[] } {
  for (const problem of problems) warn(`${problem.file}${problem.line > 0 ? `:${problem.line}` : ''}: ${problem.message}`)
  return loadProblemsOutput(problems)
}

/** The `problems` of a reading tool's output, for problems already warned about. */
export function loadProblemsOutput(problems: readonly KnowledgeProblem[]): { problems?: z.output<typeof knowledgeProblemSchema>[] } {
  return problems.length === 0 ? {} : { problems: problems.map(toProblemOutput) }
}
