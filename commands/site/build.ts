import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { siteBuild } from '../../src/tools/site/build.js'

export default class SiteBuild extends MkCommand {
  static override summary = siteBuild.title
  static override description = siteBuild.description
  static override examples = ['<%= config.bin %> site build', '<%= config.bin %> site build --out public/knowledge', '<%= config.bin %> site build --memories']
  static override flags = {
    out: Flags.string({ description: 'Folder to write the site into (default .mk/site of the workspace).' }),
    memories: Flags.boolean({ description: 'Add the memory graph of the layers you may read (never anyone else’s private memories).' }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(SiteBuild)
    await this.callTool(siteBuild, { out: flags.out, memories: flags.memories }, flags)
  }
}
