import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { readJsonObjectFile } from '../../src/hosts/cli/json-input.js'
import { rulesEvaluate } from '../../src/tools/policy-rules/evaluate.js'

const contextHint =
  'pass a JSON object, e.g. {"agent":{"id":"planner-1","team_id":"platform"},"environment":"production"}, in a file or on stdin with --context -'

export default class RulesEvaluate extends MkCommand {
  static override summary = rulesEvaluate.title
  static override description = `${rulesEvaluate.description}\n\nThe context is a JSON object in a file (relative to where you run mk), or on stdin with --context -.`
  static override examples = [
    '<%= config.bin %> rules evaluate --context context.json',
    `echo '{"agent":{"id":"planner-1"},"environment":"production"}' | <%= config.bin %> rules evaluate --context - --json`,
  ]
  static override flags = {
    context: Flags.string({ description: 'The context: a JSON file, or - for stdin.', required: true }),
    shadow: Flags.boolean({ description: 'List matching shadow rules (never applied).', default: true, allowNo: true }),
    limit: Flags.integer({ description: 'Most rules listed in active and in shadow (1-200).' }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(RulesEvaluate)
    const context = await readJsonObjectFile(flags.context, '--context', contextHint)
    await this.callTool(rulesEvaluate, { context, include_shadow: flags.shadow, limit: flags.limit }, flags)
  }
}
