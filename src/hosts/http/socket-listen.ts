import { existsSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, rename, rm, unlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { MkError } from '../../errors.js'
import { socketAnswers } from './socket.js'

/**
 * Listen on a Unix socket only this user may connect to. The socket is bound in a fresh folder of
 * mode 0700, set to 0600 there and then renamed into place: bound at its final path, it would be
 * reachable with the umask's mode until the chmod, and a connection made in that moment stays open.
 * A socket file left by a server that died is removed; one a running server answers on is not taken over.
 */
export async function listenOnSocket(app: FastifyInstance, socket: string): Promise<void> {
  if (existsSync(socket)) {
    if (await socketAnswers(socket)) {
      throw new MkError('CONFLICT', `an mk server already listens on ${socket}`, { details: { hint: 'stop it first (SIGTERM), or pass another --socket' } })
    }
    await unlink(socket)
  }
  await mkdir(dirname(socket), { recursive: true })
  // A short name: a socket's path is limited to about 104 bytes, and this one is bound at `<folder>/.sXXXXXX/s`.
  const privateFolder = await mkdtemp(join(dirname(socket), '.s'))
  const bound = join(privateFolder, 's')
  try {
    await app.listen({ path: bound })
    await chmod(bound, 0o600)
    await rename(bound, socket)
  } finally {
    await rm(privateFolder, { recursive: true, force: true })
  }
}

/** Node removes a socket file when its server closes only at the path it was bound to, which was renamed. */
export async function removeSocket(socket: string): Promise<void> {
  await unlink(socket).catch(() => undefined)
}
