import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { consumerFlags, identityFlags } from '../../src/hosts/cli/memory-flags.js'
import { memoryRecall } from '../../src/tools/memory/recall.js'

export default class MemoryRecall extends MkCommand {
  static override summary = memoryRecall.title
  static override description = memoryRecall.description
  static override examples = [
    '<%= config.bin %> memory recall "which database do the orders use"',
    '<%= config.bin %> memory recall "deploys" --hops 1 --budget 400 --json',
  ]
  static override args = { query: Args.string({ description: 'What you want to know.', required: true }) }
  static override flags = {
    layer: Flags.string({ description: 'Only this layer (repeatable).', multiple: true, multipleNonGreedy: true }),
    limit: Flags.integer({ description: 'Seed memories (1-200, default 30).' }),
    hops: Flags.integer({ description: 'How far to follow links: 1 or 2 (default).' }),
    'max-nodes': Flags.integer({ description: 'Most nodes in the graph (default 50, at most 200).' }),
    'max-edges': Flags.integer({ description: 'Most edges in the graph (default and most 100).' }),
    budget: Flags.integer({ description: 'Most tokens of the context text (default 1200).' }),
    'include-meta': Flags.boolean({ description: 'Add layer, tier, tags, refs and status to the nodes.' }),
    debug: Flags.boolean({ description: 'Debug channel: how the seeds were found (admin token, or none set outside production).' }),
    embeddings: Flags.boolean({ description: 'With --debug: the first 16 dimensions and sha256 of at most 5 seed vectors (limit 20 or less).' }),
    ...identityFlags,
    ...consumerFlags,
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(MemoryRecall)
    await this.callTool(
      memoryRecall,
      {
        query: args.query,
        layers: flags.layer,
        // Debug embeddings are answered only for at most 20 seeds (the server contract's cap).
        limit: flags.limit ?? (flags.debug && flags.embeddings ? 20 : undefined),
        neighborhood_hops: flags.hops,
        max_nodes: flags['max-nodes'],
        max_edges: flags['max-edges'],
        tokenBudget: flags.budget,
        include_meta: flags['include-meta'] || undefined,
        return_debug: flags.debug || undefined,
        include_embeddings: flags.embeddings || undefined,
        admin_token: process.env.MK_ADMIN_TOKEN,
        agent: flags.agent,
        session: flags.session,
        consumer_agent_id: flags['consumer-agent'],
        consumer_team_id: flags['consumer-team'],
      },
      flags,
    )
  }
}
