import { z } from 'zod'
import { defineTool } from '../define.js'
import { knowledgeProblemSchema, toProblemOutput } from './schemas.js'

export const knowledgeLint = defineTool({
  name: 'knowledge_lint',
  title: 'Lint knowledge files',
  description:
    'Check every knowledge file for problems: malformed frontmatter, unknown type, operator or target, invalid constraint patterns, duplicate ids, broken supersedes links and malformed policy rules — unknown JSON Logic operators, an invalid then, a private rule without owner, priority or weight out of range, and memory files of shared layers that cannot be served — malformed, or private with no owner (errors); statuses that map to no canonical status and one-way supersedes links (warnings); files without a status and proposed or draft items whose constraints are not enforced yet (info). Each problem names file and line. Fails (exit 2) when any error is found.',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({}),
  output: z.strictObject({
    problems: z.array(knowledgeProblemSchema),
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
            code: 'unmapped-status',
            message:
              'status "aproved" maps to none of draft, proposed, accepted, rejected, deprecated, superseded; it loads as written and its constraints are not enforced (map it with knowledge.statusMap in .mkrc)',
            severity: 'warning',
          },
        ],
        errorCount: 0,
        warningCount: 1,
        filesChecked: 12,
      },
    },
  ],
  async run(_input, ctx) {
    const { loadKnowledge } = await import('../../knowledge/load.js')
    const { lintKnowledge } = await import('../../knowledge/lint.js')
    const base = await loadKnowledge(ctx.workspace)
    const memories = await ctx.store.memories.lint()
    const problems = [...lintKnowledge(base), ...memories.problems]
    const errorCount = problems.filter((problem) => problem.severity === 'error').length
    const warningCount = problems.filter((problem) => problem.severity === 'warning').length
    return {
      output: { problems: problems.map(toProblemOutput), errorCount, warningCount, filesChecked: base.filesRead + memories.read },
      ...(errorCount > 0 ? { exitCode: 2 as const } : {}),
    }
  },
  render(output, style) {
    const { problems, errorCount, warningCount, filesChecked } = output
    const lines = problems.map(
      (problem) =>
        `${problem.file}${problem.line > 0 ? `:${problem.line}` : ''}: ${problem.severity === 'error' ? style.red('error') : problem.severity === 'warning' ? style.yellow('warning') : style.dim('info')} ${problem.message} ${style.dim(`[${problem.code}]`)}`,
    )
    const files = `${filesChecked} file${filesChecked === 1 ? '' : 's'}`
    lines.push(
      problems.length === 0
        ? style.green(`✓ ${files} checked, no problems`)
        : `${files} checked: ${errorCount} error${errorCount === 1 ? '' : 's'}, ${warningCount} warning${warningCount === 1 ? '' : 's'}, ${problems.length - errorCount - warningCount} info`,
    )
    return lines.join('\n')
  },
})
