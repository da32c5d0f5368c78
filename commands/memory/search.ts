import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { consumerFlags, identityFlags } from '../../src/hosts/cli/memory-flags.js'
import { memorySearch } from '../../src/tools/memory/search.js'

export default class MemorySearch extends MkCommand {
  static override summary = memorySearch.title
  static override description = memorySearch.description
  static override examples = [
    '<%= config.bin %> memory search "what database do we use"',
    '<%= config.bin %> memory search deploys --layer project --limit 5 --json',
  ]
  static override args = { query: Args.string({ description: 'What to recall.', required: true }) }
  static override flags = {
    layer: Flags.string({ description: 'Only this layer (repeatable).', multiple: true, multipleNonGreedy: true }),
    limit: Flags.integer({ description: 'Most results (1-100, default 10).' }),
    threshold: Flags.string({ description: 'Only results scoring at least this (0-1, default 0.7; 0 shows the nearest whatever they score).' }),
    tag: Flags.string({ description: 'Only memories with this tag (repeatable).', multiple: true, multipleNonGreedy: true }),
    tier: Flags.string({
      description: 'Search this tier: hot, warm, cold, archive (repeatable; default hot and warm).',
      multiple: true,
      multipleNonGreedy: true,
    }),
    ...identityFlags,
    ...consumerFlags,
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(MemorySearch)
    await this.callTool(
      memorySearch,
      {
        query: args.query,
        layers: flags.layer,
        limit: flags.limit,
        threshold: flags.threshold === undefined ? undefined : Number(flags.threshold),
        tags: flags.tag,
        tiers: flags.tier,
        agent: flags.agent,
        session: flags.session,
        consumer_agent_id: flags['consumer-agent'],
        consumer_team_id: flags['consumer-team'],
      },
      flags,
    )
  }
}
