import { z } from 'zod'
import { hookAgents } from '../../hook/agent-settings.js'
import { defineTool } from '../define.js'

/** How the agent starts mk unless told otherwise: the project's own install, found by npx. */
export const defaultLauncher = 'npx mk-knowledge'

/**
 * Write the agent's hook settings (Claude Code's .claude/settings.json, Cursor's .cursor/hooks.json).
 * Not in the registry, like the hooks themselves: a person runs it once per project.
 */
export const hookInstallAgent = defineTool({
  name: 'hook_install_agent',
  title: 'Install the agent hooks',
  description:
    "Add mk's hooks to an agent's project settings: Claude Code (.claude/settings.json: PreToolUse, UserPromptSubmit, SessionStart run `mk hook claude`) or Cursor (.cursor/hooks.json: beforeShellExecution, beforeMCPExecution, afterFileEdit run `mk hook cursor`). Merges into the existing file without touching other hooks or settings; running it again changes nothing.",
  tier: 'workspace',
  idempotent: true,
  input: z.strictObject({
    agent: z.enum(hookAgents).describe('The agent whose settings are written'),
    launcher: z.string().min(1).default(defaultLauncher).describe('How the agent starts mk (e.g. "mk" when it is installed globally)'),
  }),
  output: z.strictObject({
    path: z.string().describe('The settings file, relative to the workspace'),
    action: z.enum(['created', 'updated', 'unchanged']),
    command: z.string().describe('The hook command written'),
    events: z.array(z.string()),
  }),
  examples: [
    {
      title: 'Claude Code hooks in a project',
      input: { agent: 'claude' },
      output: {
        path: '.claude/settings.json',
        action: 'created',
        command: 'npx mk-knowledge hook claude',
        events: ['PreToolUse', 'UserPromptSubmit', 'SessionStart'],
      },
    },
  ],
  async run(input, ctx) {
    const { installAgentHooks } = await import('../../hook/agent-install.js')
    const installed = await installAgentHooks(ctx.workspace, input.agent, `${input.launcher} hook ${input.agent}`)
    return { output: installed }
  },
  render: (installed, style) => `${style.green(installed.action)} ${installed.path}: ${installed.events.join(', ')} run \`${installed.command}\``,
})
