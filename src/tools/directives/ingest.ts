import { join, resolve } from 'node:path'
import { z } from 'zod'
import type { Workspace } from '../../config/workspace.js'
import { realPath } from '../../fs/path-guard.js'
import { resolveSources } from '../../knowledge/sources.js'
import { defineTool } from '../define.js'
import { ruleFormats } from '../../directives/ingest/formats.js'

/**
 * The workspace folders no rules file may be read from: the memory folders, whose private lanes only
 * their owners may read (a CLAUDE.md `@knowledge/memory/<id>.md` import would copy another agent's
 * private memory into a rule item everyone reads), and mk's state folder (the index, site builds).
 */
function privateFolders(workspace: Workspace): string[] {
  const memories = [resolve(workspace.root, workspace.config.memory.dir), ...resolveSources(workspace).map((source) => join(source.directory, 'memory'))]
  return [...memories, workspace.stateDir].map((folder) => realPath(resolve(folder)))
}

function inFolder(folder: string, path: string): boolean {
  return path === folder || path.startsWith(`${folder}/`)
}

const countsSchema = z.strictObject({
  rules: z.number().int().describe('Rule items created or changed'),
  sections: z.number().int().describe('Headings in those items'),
  directives: z.number().int().describe('Normative statements in those items'),
  patterns: z.number().int().describe('Path globs (applies_to) recorded in those items'),
})

export const rulesUpsertMarkdown = defineTool({
  name: 'rules_upsert_markdown',
  title: 'Ingest agent rules files',
  description:
    'Import rules files written for coding agents (AGENTS.md, CLAUDE.md, .cursor/rules/*.mdc, .github/copilot-instructions.md, .github/instructions/*.instructions.md, .windsurfrules, .clinerules, .kilocode/rules/*.md) as rule items in knowledge/rules/, one item per file, with a deterministic id from the file path. Cursor globs and Copilot applyTo become applies_to. A folder stands for the rules files in it. Ingesting the same files again changes nothing. Reports the counts written, how items relate (shared globs, duplicated directives) and warnings.',
  tier: 'workspace',
  idempotent: true,
  input: z.strictObject({
    documents: z
      .array(
        z.strictObject({
          path: z.string().min(1).describe('Path of the rules file or folder, relative to the workspace root'),
          content: z
            .string()
            .max(1_000_000)
            .optional()
            .describe('The file text (at most 256 KiB, as for a file read from disk); when given, the path is only recorded, not read'),
        }),
      )
      .min(1)
      .max(10_000)
      .describe('The rules files to ingest'),
    options: z
      .strictObject({
        overwrite: z.boolean().default(true).describe('Rewrite an ingested item that differs from its source now (default true)'),
        batchSize: z.number().int().min(1).max(1000).default(100).describe('Files written per hold of the knowledge lock (default 100)'),
      })
      .default({ overwrite: true, batchSize: 100 }),
  }),
  output: z.strictObject({
    upserted: countsSchema,
    items: z.array(
      z.strictObject({
        id: z.string(),
        path: z.string().describe('Workspace-relative path of the rule item'),
        sourcePath: z.string().describe('The rules file it came from'),
        format: z.enum(ruleFormats),
        action: z.enum(['created', 'updated', 'unchanged', 'skipped']),
      }),
    ),
    relations: z.array(
      z.strictObject({
        kind: z.enum(['shares_globs', 'duplicates']),
        from: z.string().describe('An ingested item'),
        to: z.string().describe('Another ingested item (shares_globs, duplicates) or an existing accepted item (duplicates)'),
        shared: z.array(z.string()).describe('The common globs, or the duplicated directive texts'),
      }),
    ),
    warnings: z.array(z.string()),
  }),
  examples: [
    {
      title: 'Ingest the Cursor rules of a repository',
      input: { documents: [{ path: '.cursor/rules' }] },
      output: {
        upserted: { rules: 1, sections: 2, directives: 5, patterns: 1 },
        items: [
          {
            id: 'cursor-rules-testing',
            path: 'knowledge/rules/cursor-rules-testing.md',
            sourcePath: '.cursor/rules/testing.mdc',
            format: 'cursor',
            action: 'created',
          },
        ],
        relations: [],
        warnings: [],
      },
    },
  ],
  async run(input, ctx) {
    const { loadKnowledge } = await import('../../knowledge/load.js')
    const { readSourceDocuments } = await import('../../directives/ingest/read-documents.js')
    const { upsertRuleDocuments } = await import('../../directives/ingest/upsert.js')
    const folders = privateFolders(ctx.workspace)
    const sources = (await readSourceDocuments(ctx.workspace.root, input.documents)).filter((source) => {
      const path = realPath(join(ctx.workspace.root, source.path))
      if (!folders.some((folder) => inFolder(folder, path))) return true
      ctx.warn(`${source.path} is not read: it lies in a memory folder or in mk's state folder, which no rules file may import`)
      return false
    })
    const base = await loadKnowledge(ctx.workspace)
    const result = await upsertRuleDocuments(ctx.workspace, base, sources, input.options)
    return { output: result }
  },
  render(result, style) {
    const lines = result.items.map((item) => `${item.action.padEnd(9)} ${style.cyan(item.path)} ${style.dim(`from ${item.sourcePath}`)}`)
    for (const relation of result.relations) {
      lines.push(`${style.dim(relation.kind)} ${relation.from} ${style.dim('~')} ${relation.to}: ${relation.shared.length} shared`)
    }
    for (const warning of result.warnings) lines.push(`${style.yellow('warning')} ${warning}`)
    const { rules, sections, directives, patterns } = result.upserted
    lines.push(
      rules === 0
        ? style.green('✓ nothing to change')
        : `${rules} rule item${rules === 1 ? '' : 's'} written: ${sections} sections, ${directives} directives, ${patterns} globs`,
    )
    return lines.join('\n')
  },
})
