import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { identityFlags } from '../../src/hosts/cli/memory-flags.js'
import { memoryAdd } from '../../src/tools/memory/add.js'

export default class MemoryAdd extends MkCommand {
  static override summary = memoryAdd.title
  static override description = memoryAdd.description
  static override examples = [
    '<%= config.bin %> memory add "The staging DB is read-only on Fridays"',
    '<%= config.bin %> memory add "We store everything in Postgres" --layer project --tag database',
  ]
  static override args = { content: Args.string({ description: 'The fact to remember.', required: true }) }
  static override flags = {
    layer: Flags.string({ description: 'agent, session, user (default), project, team, org or company.' }),
    tag: Flags.string({ description: 'A tag (repeatable).', multiple: true, multipleNonGreedy: true }),
    ref: Flags.string({
      description: 'A knowledge id (or workspace file) this memory relates to (repeatable); one that names nothing yet is kept, with a warning.',
      multiple: true,
      multipleNonGreedy: true,
    }),
    expires: Flags.string({ description: 'ISO date, in the future, after which searches no longer return it.' }),
    lane: Flags.string({ description: 'private (only its owners see it) or shared; private in project and wider layers needs --owner-agent or --owner-team.' }),
    'owner-agent': Flags.string({ description: 'The agent a private memory belongs to.' }),
    'owner-team': Flags.string({ description: 'The team a private memory belongs to (its agents see it).' }),
    ...identityFlags,
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(MemoryAdd)
    await this.callTool(
      memoryAdd,
      {
        content: args.content,
        layer: flags.layer,
        tags: flags.tag,
        refs: flags.ref,
        expires: flags.expires,
        lane: flags.lane,
        owner_agent_id: flags['owner-agent'],
        owner_team_id: flags['owner-team'],
        agent: flags.agent,
        session: flags.session,
      },
      flags,
    )
  }
}
