import { z } from 'zod'
import { defineTool } from './define.js'

export const init = defineTool({
  name: 'init',
  title: 'Set up mk in a workspace',
  description:
    'Create .mkrc and a knowledge/ folder with one example ADR carrying a constraint and one policy, and add .mk/ to .gitignore. ' +
    'A repository that keeps decision records already (doc/adr, docs/adr, docs/decisions, ...) gets those folders as knowledge sources, read unchanged, instead of the example ADR. ' +
    'Existing files are left untouched, so running it again changes nothing.',
  tier: 'workspace',
  idempotent: true,
  input: z.strictObject({}),
  output: z.strictObject({
    root: z.string().describe('The workspace folder'),
    created: z.array(z.string()).describe('Files written or changed, workspace-relative'),
    unchanged: z.array(z.string()).describe('Files that already existed'),
    decisionFolders: z
      .array(z.string())
      .describe('Folders of decision records the repository already had, now knowledge sources (read where they are, unchanged)'),
  }),
  examples: [
    {
      title: 'Initialise a repository',
      input: {},
      output: {
        root: '/home/dev/service',
        created: ['.mkrc', 'knowledge/adr/adr-0001-use-postgresql.md', 'knowledge/policies/policy-no-eval.md', '.gitignore'],
        unchanged: [],
        decisionFolders: [],
      },
    },
    {
      title: 'Initialise a repository that keeps adr-tools decisions in doc/adr',
      input: {},
      output: {
        root: '/home/dev/service',
        created: ['.mkrc', 'knowledge/policies/policy-no-eval.md', '.gitignore'],
        unchanged: [],
        decisionFolders: ['doc/adr'],
      },
    },
  ],
  async run(_input, ctx) {
    const { initWorkspace } = await import('../knowledge/init.js')
    const result = await initWorkspace(ctx.workspace.root)
    return { output: { root: ctx.workspace.root, ...result } }
  },
  render(result, style) {
    const lines = [
      ...result.created.map((path) => `${style.green('created')}   ${path}`),
      ...result.unchanged.map((path) => `${style.dim('unchanged')} ${path}`),
      ...result.decisionFolders.map((folder) => `${style.green('reading')}   ${folder}/ (your decision records, as they are)`),
      '',
      result.created.length === 0 ? 'Already set up; nothing changed.' : `Next: ${style.cyan('mk knowledge list')}, then ${style.cyan('mk knowledge check')}.`,
    ]
    return lines.join('\n')
  },
})
