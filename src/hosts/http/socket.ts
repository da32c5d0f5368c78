import { existsSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'

/** Where a workspace's local `mk serve --socket` listens. */
export function localSocketPath(stateDir: string): string {
  return join(stateDir, 'serve.sock')
}

/** Whether a server accepts connections on the Unix socket (a file left by a dead one does not). */
export function socketAnswers(socket: string): Promise<boolean> {
  if (!existsSync(socket)) return Promise.resolve(false)
  return new Promise((resolveAnswer) => {
    const connection = connect(socket)
    connection.once('connect', () => {
      connection.destroy()
      resolveAnswer(true)
    })
    connection.once('error', () => resolveAnswer(false))
  })
}
