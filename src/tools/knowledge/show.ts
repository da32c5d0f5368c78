import { z } from 'zod'
import type { ShownItem } from '../../knowledge/show.js'
import { aliased } from '../aliases.js'
import { defineTool } from '../define.js'
import {
  constraintSchema,
  itemStatusSchema,
  knowledgeLayerSchema,
  knowledgeTypeSchema,
  loadProblemsSchema,
  reportLoadProblems,
  statusRawOf,
  statusRawSchema,
} from './schemas.js'

const versionSchema = z.strictObject({
  version: z.string().describe('Short commit id'),
  timestamp: z.string(),
  author: z.string(),
  message: z.string(),
})

export const knowledgeShow = defineTool({
  name: 'knowledge_show',
  title: 'Show a knowledge item',
  description:
    'Read one knowledge item in full by id: its content, constraints, status, supersedes/superseded_by links, and optionally its git history. ' +
    'A unique prefix of an id is enough (adr-0002 finds adr-0002-use-kafka); a prefix of several ids fails with INVALID_INPUT listing them. Unknown ids fail with NOT_FOUND and suggest the nearest ids.',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({
    id: z.string().min(1).describe('Knowledge item id, e.g. adr-0001-use-postgresql, or a unique prefix of one (adr-0001)'),
    history: z.boolean().optional().describe("Include the git log of the item's file (default false)"),
    includeHistory: z.boolean().optional().describe('Alias of history (the specification’s name)'),
    constraints: z.boolean().optional().describe('Include machine-checkable constraints (default true)'),
    includeConstraints: z.boolean().optional().describe('Alias of constraints (the specification’s name)'),
  }),
  output: z.strictObject({
    id: z.string(),
    type: knowledgeTypeSchema,
    title: z.string(),
    status: itemStatusSchema,
    statusRaw: statusRawSchema,
    layer: knowledgeLayerSchema,
    tags: z.array(z.string()),
    summary: z.string().optional(),
    date: z.string().optional().describe('Date written in the item itself'),
    created: z.string().optional().describe('First commit of the file (with history)'),
    updated: z.string().optional().describe('Last commit of the file (with history)'),
    supersedes: z.array(z.string()),
    supersededBy: z.array(z.string()),
    path: z.string(),
    source: z.string(),
    format: z.enum(['mk', 'madr', 'adr-tools']),
    content: z.string().describe('Markdown body without frontmatter'),
    constraints: z.array(constraintSchema).optional(),
    shadows: z
      .array(z.strictObject({ layer: knowledgeLayerSchema, path: z.string() }))
      .describe('Items of the same id in less specific layers that this one hides'),
    history: z.array(versionSchema).optional(),
    problems: loadProblemsSchema,
  }),
  examples: [
    {
      title: 'Read an ADR with its history',
      input: { id: 'adr-0001-use-postgresql', history: true },
      output: {
        id: 'adr-0001-use-postgresql',
        type: 'adr',
        title: 'Use PostgreSQL for relational data',
        status: 'accepted',
        layer: 'project',
        tags: ['database'],
        summary: 'New services store relational data in PostgreSQL.',
        created: '2026-01-12T09:30:00.000Z',
        updated: '2026-01-12T09:30:00.000Z',
        supersedes: [],
        supersededBy: [],
        path: 'knowledge/adr/adr-0001-use-postgresql.md',
        source: 'project',
        format: 'mk',
        content: '# Use PostgreSQL for relational data\n\n## Decision\n\nNew services use PostgreSQL.\n',
        constraints: [
          {
            id: 'no-mysql',
            operator: 'must_not_use',
            target: 'dependency',
            pattern: '^(mysql|mysql2)$',
            paths: [],
            exclude: [],
            severity: 'block',
            message: 'Use PostgreSQL, not MySQL.',
            waivable: true,
          },
        ],
        shadows: [],
        history: [{ version: '3f2a9c1', timestamp: '2026-01-12T09:30:00.000Z', author: 'Ada Lovelace', message: 'Record the database decision' }],
      },
    },
  ],
  async run(input, ctx) {
    const { showKnowledgeItem } = await import('../../knowledge/show.js')
    let problems: ReturnType<typeof reportLoadProblems> = {}
    const withHistory = aliased('history', 'includeHistory', input.history, input.includeHistory) ?? false
    const withConstraints = aliased('constraints', 'includeConstraints', input.constraints, input.includeConstraints) ?? true
    const shown = await showKnowledgeItem(ctx.workspace, { id: input.id, history: withHistory }, (found) => {
      problems = reportLoadProblems(found, ctx.warn)
    })
    return { output: { ...shownOutput(shown, withConstraints), ...problems } }
  },
  render(output, style) {
    const lines = [
      `${style.bold(output.title)}`,
      style.dim(
        `${output.id} · ${output.type} · ${output.layer} · ${output.status}${output.tags.length > 0 ? ` · ${output.tags.map((tag) => `#${tag}`).join(' ')}` : ''}`,
      ),
      style.dim(output.path),
    ]
    if (output.supersedes.length > 0) lines.push(`Supersedes: ${output.supersedes.join(', ')}`)
    if (output.supersededBy.length > 0) lines.push(style.yellow(`Superseded by: ${output.supersededBy.join(', ')}`))
    for (const hidden of output.shadows) lines.push(style.dim(`Shadows the ${hidden.layer} item in ${hidden.path}`))
    lines.push('', output.content.trim())
    const constraints = output.constraints ?? []
    if (constraints.length > 0) {
      lines.push('', style.bold('Constraints'))
      for (const constraint of constraints) {
        lines.push(
          `  ${constraint.severity === 'block' ? style.red(constraint.severity) : style.yellow(constraint.severity)} ${constraint.id}: ${constraint.operator} ${constraint.target} ${JSON.stringify(constraint.pattern)}${constraint.paths.length > 0 ? ` in ${constraint.paths.join(', ')}` : ''}`,
        )
        if (constraint.message !== undefined) lines.push(style.dim(`    ${constraint.message}`))
      }
    }
    if (output.history !== undefined) {
      lines.push('', style.bold('History'))
      if (output.history.length === 0) lines.push(style.dim('  not committed to git'))
      for (const version of output.history)
        lines.push(`  ${style.cyan(version.version)} ${version.timestamp.slice(0, 10)} ${version.author}: ${version.message.split('\n')[0] ?? ''}`)
    }
    return lines.join('\n')
  },
})

function shownOutput({ item, shadows, history }: ShownItem, withConstraints: boolean) {
  const constraints = item.constraints.map(({ line: _line, ...constraint }) => constraint)
  return {
    id: item.id,
    type: item.type,
    title: item.title,
    status: item.status,
    ...statusRawOf(item),
    layer: item.layer,
    tags: item.tags,
    ...(item.summary === undefined ? {} : { summary: item.summary }),
    ...(item.date === undefined ? {} : { date: item.date }),
    ...(history === undefined || history.length === 0 ? {} : { created: history.at(-1)?.timestamp, updated: history[0]?.timestamp }),
    supersedes: item.supersedes,
    supersededBy: item.supersededBy,
    path: item.path,
    source: item.source,
    format: item.format,
    content: item.body,
    ...(withConstraints ? { constraints } : {}),
    shadows,
    ...(history === undefined ? {} : { history }),
  }
}
