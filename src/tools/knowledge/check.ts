import { z } from 'zod'
import { failOnSeverities } from '../../config/schema.js'
import { checkResultSchema, toCheckResult } from '../../constraints/contract.js'
import { reportFormats } from '../../constraints/reporters/formats.js'
import { severities } from '../../knowledge/model.js'
import { defineTool } from '../define.js'
import { readPackageInfo } from '../generate/project.js'

export const knowledgeCheck = defineTool({
  name: 'knowledge_check',
  title: 'Check constraints',
  description:
    'Check files and dependencies against the machine-checkable constraints of accepted ADRs and policies (forbidden or required dependencies, imports, code patterns, files). ' +
    'Without input it checks the working tree. To ask before acting ("would adding mysql2 violate anything?"), pass the proposed `files` (path + full content) and/or `dependencies`: nothing is written. ' +
    '`staged` checks the git index, `paths` only the named files on disk. passed=false means a violation at or above failOn remains; each violation names the knowledge item and constraint that forbid it. notEnforced counts the constraints of proposed and draft items, which wait for acceptance.',
  tier: 'read_only',
  idempotent: true,
  // Whole-repository checks of large monorepos take longer than the dispatcher's default.
  timeoutMs: 10 * 60 * 1000,
  input: z.strictObject({
    files: z
      .array(z.strictObject({ path: z.string().min(1).describe('Workspace-relative path'), content: z.string().describe('The whole proposed file content') }))
      .optional()
      .describe('Proposed files to check instead of the working tree; not written to disk'),
    dependencies: z
      .array(z.strictObject({ name: z.string().min(1), version: z.string().optional() }))
      .optional()
      .describe('Proposed dependencies, as if added to the root package.json'),
    paths: z.array(z.string().min(1)).optional().describe('Check only these files on disk (absolute or workspace-relative)'),
    staged: z.boolean().optional().describe('Check the content staged in the git index instead of the working tree'),
    minSeverity: z.enum(severities).default('warn').describe('Do not report violations below this severity'),
    failOn: z.enum(failOnSeverities).optional().describe('Lowest severity that fails the check (default check.failOn of .mkrc, else block)'),
    knowledgeItemIds: z.array(z.string().min(1)).optional().describe('Only the constraints of these knowledge items'),
    format: z.enum(reportFormats).default('text').describe('How the human rendering is written'),
  }),
  output: checkResultSchema,
  examples: [
    {
      title: 'An agent asks whether adding mysql2 is allowed',
      input: { dependencies: [{ name: 'mysql2', version: '^3.9.0' }] },
      output: {
        passed: false,
        violations: [
          {
            knowledgeItemId: 'adr-0042-database-selection',
            knowledgeItemTitle: 'Database selection for new services',
            knowledgeItemPath: 'knowledge/adr/adr-0042-database-selection.md',
            constraintId: 'no-mysql',
            constraint: { operator: 'must_not_use', target: 'dependency', pattern: '^(mysql|mysql2|mariadb)$' },
            severity: 'block',
            message: 'MySQL is not allowed for new services; use PostgreSQL. (dependency mysql2)',
            subject: 'mysql2',
            location: { file: 'package.json', line: 1, column: 1 },
          },
        ],
        summary: { info: 0, warn: 0, block: 1 },
        waived: [],
        waiverProblems: [],
        skipped: { binary: 0, tooLarge: 0, symlinks: 0, constraints: 2, overBudget: [] },
        checked: { paths: 0, files: 0, constraints: 7 },
        notEnforced: {
          constraints: 1,
          items: [{ id: 'adr-0051-queue', path: 'knowledge/adr/adr-0051-queue.md', status: 'proposed', constraints: ['no-rabbitmq'] }],
        },
      },
    },
  ],
  async run(input, ctx) {
    const [{ checkWorkspace }, { reporters }, { version }] = await Promise.all([
      import('../../constraints/check-request.js'),
      import('../../constraints/reporters/index.js'),
      readPackageInfo(),
    ])
    const report = await checkWorkspace(ctx.workspace, input, { version, gitIndexFile: ctx.runtime.gitIndexFile })
    const { describeUnloaded } = await import('../../constraints/knowledge-notes.js')
    for (const problem of report.knowledge.unloaded) ctx.warn(describeUnloaded(problem))
    return {
      output: toCheckResult(report),
      display: reporters[input.format](report, ctx.style, { version }),
      ...(report.passed ? {} : { exitCode: 1 as const }),
    }
  },
})
