import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { rulesDetectContext } from '../../src/tools/directives/context.js'

export default class RulesContext extends MkCommand {
  static override summary = rulesDetectContext.title
  static override description = rulesDetectContext.description
  static override examples = ['<%= config.bin %> rules context "add a new endpoint that stores customer addresses in Postgres"']
  static override args = { text: Args.string({ description: 'The task text.', required: true }) }
  static override flags = {
    mode: Flags.string({ description: 'The agent mode (code, architect, debug, test, review, ask).' }),
    'no-keywords': Flags.boolean({ description: 'Leave out the keywords.' }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RulesContext)
    await this.callTool(rulesDetectContext, { text: args.text, modeSlug: flags.mode, returnKeywords: flags['no-keywords'] ? false : undefined }, flags)
  }
}
