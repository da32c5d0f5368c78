import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { writeJson, writeText } from '../../src/hosts/cli/render.js'

export default class DaemonStop extends MkCommand {
  static override summary = 'Stop the background mk serve of this workspace'
  static override description =
    'Sends SIGTERM to the server mk daemon start started (calls in flight finish) and waits for it to exit. Does nothing when none runs.'
  static override examples = ['<%= config.bin %> daemon stop']

  async run(): Promise<void> {
    const { flags } = await this.parse(DaemonStop)
    const { stopDaemon } = await import('../../src/hosts/http/daemon.js')
    const state = await stopDaemon({ cwd: flags.cwd ?? process.cwd(), env: process.env })
    if (flags.json) writeJson(process.stdout, state)
    else writeText(process.stdout, process.env, state.pid === undefined ? 'no mk serve was running' : `stopped mk serve (pid ${state.pid})`)
  }
}
