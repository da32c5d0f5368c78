import { z } from 'zod'
import { defineTool } from '../define.js'

export const hookInstall = defineTool({
  name: 'hook_install',
  title: 'Install the pre-commit hook',
  description:
    'Write .git/hooks/pre-commit so that every commit runs `mk knowledge check --staged` and is blocked by violations at or above check.failOn. ' +
    'Refuses to replace a hook mk did not write unless force is true (the old hook is then kept as pre-commit.mk-backup). Also returns the husky and lefthook equivalents.',
  tier: 'workspace',
  idempotent: true,
  input: z.strictObject({
    force: z.boolean().default(false).describe('Replace an existing pre-commit hook that mk did not write'),
  }),
  output: z.strictObject({
    path: z.string().describe('The hook file, relative to the git root'),
    action: z.enum(['created', 'updated', 'unchanged', 'replaced']),
    backup: z.string().optional().describe('Where a replaced foreign hook was saved'),
    hooksPath: z.string().optional().describe('core.hooksPath of the repository; when set, git does not run .git/hooks'),
    husky: z.string().describe('The same hook for husky'),
    lefthook: z.string().describe('The same hook for lefthook'),
  }),
  examples: [
    {
      title: 'Install the hook in a fresh clone',
      input: {},
      output: {
        path: '.git/hooks/pre-commit',
        action: 'created',
        husky: 'echo "npx mk-knowledge knowledge check --staged" > .husky/pre-commit',
        lefthook: '# lefthook.yml\npre-commit:\n  commands:\n    mk-knowledge-check:\n      run: npx mk-knowledge knowledge check --staged',
      },
    },
  ],
  async run(input, ctx) {
    const { installPreCommitHook, huskyEquivalent, lefthookEquivalent } = await import('../../hook/pre-commit.js')
    const { findGitRoot } = await import('../../config/locate.js')
    const installed = await installPreCommitHook(ctx.workspace.root, findGitRoot(ctx.workspace.root), input.force)
    const output = {
      path: installed.path,
      action: installed.action,
      ...(installed.backup === undefined ? {} : { backup: installed.backup }),
      ...(installed.hooksPath === undefined ? {} : { hooksPath: installed.hooksPath }),
      husky: huskyEquivalent,
      lefthook: lefthookEquivalent,
    }
    return { output }
  },
  render(output, style) {
    return [
      `${style.green(output.action)} ${output.path}: commits now run mk knowledge check --staged`,
      ...(output.backup === undefined ? [] : [`the previous hook is saved as ${output.backup}`]),
      ...(output.hooksPath === undefined
        ? []
        : [style.yellow(`git runs hooks from core.hooksPath=${output.hooksPath}, not .git/hooks: add the command below to that hook manager instead`)]),
      '',
      style.bold('husky:'),
      `  ${output.husky}`,
      style.bold('lefthook:'),
      ...output.lefthook.split('\n').map((line) => `  ${line}`),
    ].join('\n')
  },
})
