import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { rulesQueryDirectives } from '../../src/tools/directives/directives.js'

export default class RulesDirectives extends MkCommand {
  static override summary = rulesQueryDirectives.title
  static override description = rulesQueryDirectives.description
  static override examples = [
    '<%= config.bin %> rules directives "add a new endpoint that stores customer addresses in Postgres"',
    '<%= config.bin %> rules directives "refactor the checkout page" --mode architect --budget 300 --diagnostics --json',
  ]
  static override args = { task: Args.string({ description: 'What you are about to do.', required: true }) }
  static override flags = {
    mode: Flags.string({ description: 'The agent mode (code, architect, debug, test, review, ask).' }),
    budget: Flags.integer({ description: 'Most tokens the block may take (default 900, at least 50).' }),
    'max-items': Flags.integer({ description: 'Most directives (3-12, default 8).' }),
    'no-strict-layer': Flags.boolean({ description: 'Rank rules for other layers lower instead of leaving them out.' }),
    'no-breadcrumbs': Flags.boolean({ description: 'Leave out the heading path of each rule.' }),
    'no-memories': Flags.boolean({ description: 'Leave out the "Remembered" section.' }),
    topic: Flags.string({ description: 'Treat this topic as detected (repeatable).', multiple: true, multipleNonGreedy: true }),
    'include-proposed': Flags.boolean({ description: 'Also serve rules of proposed items.' }),
    diagnostics: Flags.boolean({ description: 'Show what was detected, how it ranked and what was cut.' }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RulesDirectives)
    await this.callTool(
      rulesQueryDirectives,
      {
        taskDescription: args.task,
        modeSlug: flags.mode,
        options: {
          tokenBudget: flags.budget,
          maxItems: flags['max-items'],
          strictLayer: flags['no-strict-layer'] ? false : undefined,
          includeBreadcrumbs: flags['no-breadcrumbs'] ? false : undefined,
          includeMemories: flags['no-memories'] ? false : undefined,
          topicsBias: flags.topic,
          includeProposed: flags['include-proposed'] || undefined,
          includeDiagnostics: flags.diagnostics || undefined,
        },
      },
      flags,
    )
  }
}
