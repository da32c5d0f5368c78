import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { siteBuild } from '../../src/tools/site/build.js'

export default class SiteBuild extends MkCommand {
  static override summary = siteBuild.title
  static override description = siteBuild.description
  static override examples = ['<%= config.bin %> site build', '<%= config.bin %> site build --out public/knowledge']
  static override flags = {
    out: Flags.string({ description: 'Folder to write the site into (default .mk/site of the workspace).' }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(SiteBuild)
    await this.callTool(siteBuild, { out: flags.out }, flags)
  }
}
