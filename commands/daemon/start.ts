import { join } from 'node:path'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { writeJson, writeText } from '../../src/hosts/cli/render.js'

export default class DaemonStart extends MkCommand {
  static override summary = 'Start mk serve on this workspace’s socket in the background'
  static override description =
    'Runs `mk serve --socket .mk/serve.sock` detached, so mk memory search, knowledge query and rules answer from a warm server. Its request log goes to .mk/serve.log. Does nothing when it already runs.'
  static override examples = ['<%= config.bin %> daemon start', '<%= config.bin %> daemon start --json']

  async run(): Promise<void> {
    const { flags } = await this.parse(DaemonStart)
    const { startDaemon } = await import('../../src/hosts/http/daemon.js')
    const state = await startDaemon({ cwd: flags.cwd ?? process.cwd(), env: process.env, mkBin: join(this.config.root, 'bin', 'run.js') })
    if (flags.json) writeJson(process.stdout, state)
    else writeText(process.stdout, process.env, `mk serve runs on ${state.socket}${state.pid === undefined ? '' : ` (pid ${state.pid})`}; log: ${state.log}`)
  }
}
