import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { candidateList, selectionContext } from '../../src/hosts/cli/selection-flags.js'
import { toolsFeedback } from '../../src/tools/policy-rules/feedback.js'

const contextHint = 'pass the JSON object you passed to mk tools select, in a file or on stdin with --context -'

export default class ToolsFeedback extends MkCommand {
  static override summary = toolsFeedback.title
  static override description = `${toolsFeedback.description}\n\nThe outcomes are committed in MK_HOME: git -C "$MK_HOME" log -p -- rule-outcomes shows them.`
  static override examples = [
    '<%= config.bin %> tools feedback --context context.json --candidates shell,grep,rg --tool rg --outcome positive --input-text "find the session timeout"',
    '<%= config.bin %> tools feedback --context context.json --candidates grep,rg --tool grep --outcome negative --target all --run-id run-42 --input-sha256 <hex>',
  ]
  static override flags = {
    context: Flags.string({ description: 'The context the tool was selected for: a JSON file, or - for stdin (default: an empty context).' }),
    candidates: Flags.string({ description: 'The candidate tools, comma-separated.', required: true }),
    tool: Flags.string({ description: 'The tool that was used.', required: true }),
    outcome: Flags.string({ description: 'How it worked out.', options: ['positive', 'negative', 'neutral'], required: true }),
    target: Flags.string({ description: 'Credit the rules naming the tool, or naming any candidate.', options: ['tool', 'all'] }),
    'include-shadow': Flags.boolean({ description: 'Also credit matching shadow rules.' }),
    'run-id': Flags.string({ description: "The planner's run id." }),
    note: Flags.string({ description: 'A short note on what happened.' }),
    'input-text': Flags.string({ description: 'The task the tool was selected for (only its hash is kept).' }),
    'input-sha256': Flags.string({ description: 'The SHA-256 of the task, instead of --input-text.' }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(ToolsFeedback)
    const context = await selectionContext(flags.context, contextHint)
    const candidates = candidateList(flags.candidates)
    await this.callTool(
      toolsFeedback,
      {
        context,
        candidates,
        selected_tool: flags.tool,
        outcome: flags.outcome,
        target: flags.target,
        include_shadow: flags['include-shadow'],
        run_id: flags['run-id'],
        note: flags.note,
        input_text: flags['input-text'],
        input_sha256: flags['input-sha256'],
      },
      flags,
    )
  }
}
