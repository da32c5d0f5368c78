import { join, resolve } from 'node:path'
import * as Flags from '@oclif/core/flags'
import { locateWorkspace } from '../../src/config/locate.js'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { writeJson, writeText } from '../../src/hosts/cli/render.js'
import { siteBuild } from '../../src/tools/site/build.js'

export default class SiteServe extends MkCommand {
  static override summary = 'Build the knowledge site and preview it on 127.0.0.1'
  static override description =
    'Runs `mk site build` and serves the folder read-only on 127.0.0.1 (never another interface) until stopped with Ctrl-C. For a team, publish the built folder on any static host or use `mk serve`.'
  static override examples = ['<%= config.bin %> site serve', '<%= config.bin %> site serve --port 8080 --out public/knowledge']
  static override flags = {
    out: Flags.string({ description: 'Folder to build the site into (default .mk/site of the workspace).' }),
    port: Flags.integer({ description: 'TCP port on 127.0.0.1; 0 picks a free one.', default: 7412, min: 0, max: 65_535 }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(SiteServe)
    const cwd = flags.cwd ?? process.cwd()
    const out = flags.out === undefined ? join(locateWorkspace(cwd).stateDir, 'site') : resolve(process.cwd(), flags.out)
    // With --json, stdout carries two lines: the build's result, then {url, out} once the preview listens.
    await this.callTool(siteBuild, { out }, flags)
    if (process.exitCode !== undefined && process.exitCode !== 0) return
    const { serveSite } = await import('../../src/site/static-server.js')
    const site = await serveSite(out, flags.port)
    if (flags.json) writeJson(process.stdout, { url: site.url, out })
    else writeText(process.stdout, process.env, `mk site serve: ${site.url} (Ctrl-C stops)`)
    await new Promise<void>((done) => {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void site.close().then(done))
    })
  }
}
