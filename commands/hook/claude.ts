import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { hookProjectFolder } from '../../src/hosts/cli/hook-input.js'
import { parseJsonObject, readJsonObjectFile, readStdin } from '../../src/hosts/cli/json-input.js'
import { hookClaude } from '../../src/tools/hook/claude.js'

const eventHint = 'mk hook claude reads the JSON Claude Code sends a hook on stdin; mk hook install --agent claude configures it in .claude/settings.json'

export default class HookClaude extends MkCommand {
  static override summary = 'Claude Code hook: refuse denied tools and edits that break a decision, add the rules that apply'
  static override description = `${hookClaude.description}\n\nReads the hook input on stdin and prints the hook's answer on stdout (nothing when there is none). mk hook install --agent claude adds it to .claude/settings.json for PreToolUse, UserPromptSubmit and SessionStart. On PreToolUse an error exits 2, which Claude Code takes as a refusal: a broken rule never lets a denied tool or edit through; on the other events an error is a warning and adds nothing.`
  static override examples = [
    `echo '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}' | <%= config.bin %> hook claude`,
    '<%= config.bin %> hook claude --context .claude/mk-context.json --team platform',
  ]
  static override flags = {
    context: Flags.string({ description: 'More context for the rules: a JSON file (environment, ...).' }),
    agent: Flags.string({ description: 'The agent id the rules see (default: MK_AGENT_ID).' }),
    team: Flags.string({ description: 'The team id the rules see.' }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(HookClaude)
    const event = parseJsonObject(await readStdin(), 'stdin', eventHint)
    const context = flags.context === undefined ? {} : await readJsonObjectFile(flags.context, '--context', 'pass a file holding one JSON object')
    const cwd = flags.cwd ?? hookProjectFolder('claude', event, process.env)
    await this.callTool(hookClaude, { event, context, agent_id: flags.agent, team_id: flags.team }, { ...flags, cwd })
  }
}
