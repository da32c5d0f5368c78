import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { hookProjectFolder } from '../../src/hosts/cli/hook-input.js'
import { parseJsonObject, readJsonObjectFile, readStdin } from '../../src/hosts/cli/json-input.js'
import { hookCursor } from '../../src/tools/hook/cursor.js'

const eventHint = 'mk hook cursor reads the JSON Cursor sends a hook on stdin; mk hook install --agent cursor configures it in .cursor/hooks.json'

export default class HookCursor extends MkCommand {
  static override summary = 'Cursor hook: refuse shell and MCP calls the policy rules deny, report edits that break a decision'
  static override description = `${hookCursor.description}\n\nReads the hook input on stdin and prints the answer on stdout ({} when there is none). An error exits 2.`
  static override examples = [`echo '{"hook_event_name":"beforeShellExecution","command":"ls","cwd":"."}' | <%= config.bin %> hook cursor`]
  static override flags = {
    context: Flags.string({ description: 'More context for the rules: a JSON file (environment, ...).' }),
    agent: Flags.string({ description: 'The agent id the rules see (default: MK_AGENT_ID).' }),
    team: Flags.string({ description: 'The team id the rules see.' }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(HookCursor)
    const event = parseJsonObject(await readStdin(), 'stdin', eventHint)
    const context = flags.context === undefined ? {} : await readJsonObjectFile(flags.context, '--context', 'pass a file holding one JSON object')
    const cwd = flags.cwd ?? hookProjectFolder('cursor', event, process.env)
    await this.callTool(hookCursor, { event, context, agent_id: flags.agent, team_id: flags.team }, { ...flags, cwd })
  }
}
