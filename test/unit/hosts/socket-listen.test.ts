import { existsSync, statSync } from 'node:fs'
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { listenOnSocket, removeSocket } from '../../../src/hosts/http/socket-listen.js'

let folder: string
const apps: FastifyInstance[] = []

async function server(): Promise<FastifyInstance> {
  const app = Fastify()
  app.get('/ping', () => ({ pong: true }))
  apps.push(app)
  return app
}

function get(socket: string): Promise<string> {
  return new Promise((resolve, reject) => {
    request({ socketPath: socket, path: '/ping' }, (response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
      response.on('end', () => resolve(body))
    })
      .on('error', reject)
      .end()
  })
}

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close()
  if (folder !== undefined) await rm(folder, { recursive: true, force: true })
})

describe('listenOnSocket', () => {
  it('never has the socket reachable with a wider mode than 0600, whatever the umask', async () => {
    folder = await mkdtemp(join(tmpdir(), 'mk-sock-'))
    const socket = join(folder, 'serve.sock')
    const app = await server()
    const seenAtListen: { finalMode?: number; boundFolderMode?: number } = {}
    app.server.once('listening', () => {
      // Called as soon as the socket is bound, before anything listenOnSocket does after listen().
      const address = app.server.address()
      if (typeof address === 'string') seenAtListen.boundFolderMode = statSync(dirname(address)).mode
      if (existsSync(socket)) seenAtListen.finalMode = statSync(socket).mode
    })
    const umask = process.umask(0)
    try {
      await listenOnSocket(app, socket)
    } finally {
      process.umask(umask)
    }
    // Bound first where only this user can enter, not at the final path with the umask's mode 0777.
    expect(seenAtListen.finalMode).toBeUndefined()
    expect((seenAtListen.boundFolderMode ?? 0) & 0o777).toBe(0o700)
    expect((await stat(socket)).mode & 0o777).toBe(0o600)
    expect(await get(socket)).toBe('{"pong":true}')
    expect(await readdir(folder)).toEqual(['serve.sock'])
  })

  it('takes over a socket file a dead server left, refuses one a live server answers on, and is removed on stop', async () => {
    folder = await mkdtemp(join(tmpdir(), 'mk-sock-'))
    const socket = join(folder, 'serve.sock')
    await writeFile(socket, '')
    const first = await server()
    await listenOnSocket(first, socket)
    expect(await get(socket)).toBe('{"pong":true}')
    await expect(listenOnSocket(await server(), socket)).rejects.toMatchObject({ code: 'CONFLICT' })
    expect(await get(socket)).toBe('{"pong":true}')
    await first.close()
    await removeSocket(socket)
    expect(existsSync(socket)).toBe(false)
  })
})
