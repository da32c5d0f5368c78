import { z } from 'zod'
import { defineTool } from '../define.js'

const problemSchema = z.strictObject({
  file: z.string(),
  line: z.number().int().describe('1-based; 0 when the problem is the whole file or folder'),
  code: z.string(),
  message: z.string(),
  severity: z.enum(['error', 'warning']),
})

export const knowledgeLint = defineTool({
  name: 'knowledge_lint',
  title: 'Lint knowledge files',
  description:
    'Check every knowledge file for problems: malformed frontmatter, unknown type, status, operator or target, invalid constraint patterns, duplicate ids, and supersedes links that are broken or one-way. Each problem names file and line. Fails (exit 2) when any error is found.',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({}),
  output: z.strictObject({
    problems: z.array(problemSchema),
    errorCount: z.number().int(),
    warningCount: z.number().int(),
    filesChecked: z.number().int(),
  }),
  examples: [
    {
      title: 'Lint the knowledge folder',
      input: {},
      output: {
        problems: [
          {
            file: 'knowledge/adr/adr-0003-queue.md',
            line: 4,
            code: 'unknown-status',
            message: 'unknown status "aproved"; expected one of draft, proposed, accepted, rejected, deprecated, superseded',
            severity: 'error',
          },
        ],
        errorCount: 1,
        warningCount: 0,
        filesChecked: 12,
      },
    },
  ],
  async run(_input, ctx) {
    const { loadKnowledge } = await import('../../knowledge/load.js')
    const { lintKnowledge } = await import('../../knowledge/lint.js')
    const base = await loadKnowledge(ctx.workspace)
    const problems = lintKnowledge(base)
    const errorCount = problems.filter((problem) => problem.severity === 'error').length
    const warningCount = problems.length - errorCount
    const { style } = ctx
    const lines = problems.map(
      (problem) =>
        `${problem.file}${problem.line > 0 ? `:${problem.line}` : ''}: ${problem.severity === 'error' ? style.red('error') : style.yellow('warning')} ${problem.message} ${style.dim(`[${problem.code}]`)}`,
    )
    const files = `${base.filesRead} file${base.filesRead === 1 ? '' : 's'}`
    lines.push(
      problems.length === 0
        ? style.green(`✓ ${files} checked, no problems`)
        : `${files} checked: ${errorCount} error${errorCount === 1 ? '' : 's'}, ${warningCount} warning${warningCount === 1 ? '' : 's'}`,
    )
    return {
      output: { problems, errorCount, warningCount, filesChecked: base.filesRead },
      display: lines.join('\n'),
      ...(errorCount > 0 ? { exitCode: 2 as const } : {}),
    }
  },
})
