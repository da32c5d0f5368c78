import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { candidateList, selectionContext } from '../../src/hosts/cli/selection-flags.js'
import { toolsSelect } from '../../src/tools/policy-rules/select.js'

const contextHint = 'pass a JSON object, e.g. {"agent":{"id":"planner-1"},"environment":"production"}, in a file or on stdin with --context -'

export default class ToolsSelect extends MkCommand {
  static override summary = toolsSelect.title
  static override description = `${toolsSelect.description}\n\nThe context is a JSON object in a file (relative to where you run mk), or on stdin with --context -. Exit 2 with NO_TOOLS_ALLOWED when strict and nothing is allowed.`
  static override examples = [
    '<%= config.bin %> tools select --context context.json --candidates shell,grep,rg',
    '<%= config.bin %> tools select --context context.json --candidates shell,grep --no-strict --json',
  ]
  static override flags = {
    context: Flags.string({ description: 'The context: a JSON file, or - for stdin (default: an empty context).' }),
    candidates: Flags.string({ description: 'The candidate tools, comma-separated (1-200).', required: true }),
    strict: Flags.boolean({ description: 'Refuse when no candidate is allowed (--no-strict: fall back to deny-only).', default: true, allowNo: true }),
    'include-shadow': Flags.boolean({ description: 'Also report the selection shadow rules would make.' }),
    'rules-limit': Flags.integer({ description: 'Most rules listed (1-200).' }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(ToolsSelect)
    const context = await selectionContext(flags.context, contextHint)
    const candidates = candidateList(flags.candidates)
    await this.callTool(
      toolsSelect,
      { context, candidates, strict: flags.strict, include_shadow: flags['include-shadow'], rules_limit: flags['rules-limit'] },
      flags,
    )
  }
}
