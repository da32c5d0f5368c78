import { execFile, spawn } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

const gitEnv = {
  GIT_AUTHOR_NAME: 'Remote Author',
  GIT_AUTHOR_EMAIL: 'remote@example.com',
  GIT_COMMITTER_NAME: 'Remote Author',
  GIT_COMMITTER_EMAIL: 'remote@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: tmpdir(),
}

async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, env: { ...process.env, ...gitEnv } })
  return stdout.trim()
}

/** A repository served by the test server, with a working copy the test commits from. */
export interface RemoteRepo {
  name: string
  /** The smart-HTTP URL mk clones. */
  url: string
  /** Commit these changes (path -> content, or null to delete) and push; returns the new commit id. */
  commit(changes: Record<string, string | null>, message?: string): Promise<string>
  /** Rewrite the last commit with these changes and force-push: the remote's history is no longer a fast-forward. */
  rewrite(changes: Record<string, string | null>, message?: string): Promise<string>
  head(): Promise<string>
  /** Create an annotated tag at the current commit and push it. */
  tag(name: string): Promise<void>
}

export interface GitServerOptions {
  /** Require `Authorization: Basic` with this token as the password: none -> 401, a wrong one -> 403. */
  token?: string
  /** Serve the bare repositories in this folder (kept on close) instead of a fresh temp folder. */
  projectRoot?: string
  /** Default: any free port. */
  port?: number
}

/**
 * A real git smart-HTTP server on 127.0.0.1: node's http module in front of the
 * `git http-backend` CGI, serving bare repositories the test creates.
 */
export interface GitServer {
  url: string
  port: number
  /** Every request, as `METHOD /path?query`. */
  readonly requests: string[]
  /** Emits 'request' for each request before it is answered. */
  readonly events: EventEmitter
  createRepo(name: string, files: Record<string, string>, options?: { branch?: string }): Promise<RemoteRepo>
  /** Hold requests (those `which` picks, default all) until the returned function is called: to interrupt a client mid-transfer. */
  hold(which?: (method: string, url: string) => boolean): () => void
  close(): Promise<void>
}

function isAuthorized(request: IncomingMessage, token: string): 'ok' | 'missing' | 'wrong' {
  const header = request.headers.authorization
  if (header === undefined || !header.startsWith('Basic ')) return 'missing'
  const decoded = Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8')
  const password = decoded.slice(decoded.indexOf(':') + 1)
  return password === token ? 'ok' : 'wrong'
}

function serveCgi(projectRoot: string, request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1')
  const backend = spawn('git', ['http-backend'], {
    env: {
      ...process.env,
      ...gitEnv,
      GIT_PROJECT_ROOT: projectRoot,
      GIT_HTTP_EXPORT_ALL: '1',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      REQUEST_METHOD: request.method ?? 'GET',
      CONTENT_TYPE: request.headers['content-type'] ?? '',
      CONTENT_LENGTH: request.headers['content-length'] ?? '',
      HTTP_CONTENT_ENCODING: request.headers['content-encoding'] ?? '',
      GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
      REMOTE_ADDR: '127.0.0.1',
    },
  })
  request.pipe(backend.stdin)
  let buffered = Buffer.alloc(0)
  let headersDone = false
  backend.stdout.on('data', (chunk: Buffer) => {
    if (headersDone) {
      response.write(chunk)
      return
    }
    buffered = Buffer.concat([buffered, chunk])
    const end = buffered.indexOf('\r\n\r\n')
    if (end < 0) return
    headersDone = true
    let status = 200
    for (const line of buffered.subarray(0, end).toString('utf8').split('\r\n')) {
      const colon = line.indexOf(':')
      const key = line.slice(0, colon).trim()
      const value = line.slice(colon + 1).trim()
      if (key.toLowerCase() === 'status') status = Number.parseInt(value, 10)
      else response.setHeader(key, value)
    }
    response.writeHead(status)
    response.write(buffered.subarray(end + 4))
  })
  backend.on('close', () => response.end())
  backend.on('error', () => {
    response.writeHead(500)
    response.end()
  })
}

export async function startGitServer(options: GitServerOptions = {}): Promise<GitServer> {
  const base = await mkdtemp(join(tmpdir(), 'mk-git-server-'))
  const projectRoot = options.projectRoot ?? join(base, 'repos')
  await mkdir(projectRoot, { recursive: true })
  const requests: string[] = []
  const events = new EventEmitter()
  let held: { which: (method: string, url: string) => boolean; queue: (() => void)[] } | undefined

  const server = createServer((request, response) => {
    const line = `${request.method ?? 'GET'} ${request.url ?? '/'}`
    requests.push(line)
    events.emit('request', line)
    const answer = (): void => {
      if (options.token !== undefined) {
        const auth = isAuthorized(request, options.token)
        if (auth !== 'ok') {
          response.writeHead(auth === 'missing' ? 401 : 403, auth === 'missing' ? { 'WWW-Authenticate': 'Basic realm="test"' } : {})
          response.end()
          return
        }
      }
      serveCgi(projectRoot, request, response)
    }
    if (held !== undefined && held.which(request.method ?? 'GET', request.url ?? '/')) held.queue.push(answer)
    else answer()
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`

  async function createRepo(name: string, files: Record<string, string>, repoOptions: { branch?: string } = {}): Promise<RemoteRepo> {
    const branch = repoOptions.branch ?? 'main'
    const bare = join(projectRoot, `${name}.git`)
    const work = join(base, 'work', name)
    await mkdir(bare, { recursive: true })
    await git(bare, 'init', '--bare', '--quiet', `--initial-branch=${branch}`)
    await mkdir(work, { recursive: true })
    await git(work, 'init', '--quiet', `--initial-branch=${branch}`)
    await git(work, 'remote', 'add', 'origin', bare)

    async function apply(changes: Record<string, string | null>): Promise<void> {
      for (const [path, content] of Object.entries(changes)) {
        const target = join(work, path)
        if (content === null) {
          await rm(target, { force: true })
        } else {
          await mkdir(dirname(target), { recursive: true })
          await writeFile(target, content)
        }
      }
      await git(work, 'add', '--all')
    }

    const repo: RemoteRepo = {
      name,
      url: `${url}/${name}.git`,
      async commit(changes, message = 'update') {
        await apply(changes)
        await git(work, 'commit', '--quiet', '--allow-empty', '-m', message)
        await git(work, 'push', '--quiet', 'origin', branch)
        return git(work, 'rev-parse', 'HEAD')
      },
      async rewrite(changes, message = 'rewritten') {
        await apply(changes)
        await git(work, 'commit', '--quiet', '--amend', '--allow-empty', '-m', message)
        await git(work, 'push', '--quiet', '--force', 'origin', branch)
        return git(work, 'rev-parse', 'HEAD')
      },
      head: () => git(work, 'rev-parse', 'HEAD'),
      async tag(tagName) {
        await git(work, 'tag', '-a', tagName, '-m', tagName)
        await git(work, 'push', '--quiet', 'origin', tagName)
      },
    }
    await repo.commit(files, 'initial')
    return repo
  }

  return {
    url,
    port,
    requests,
    events,
    createRepo,
    hold(which = () => true) {
      const queue: (() => void)[] = []
      held = { which, queue }
      return () => {
        held = undefined
        for (const answer of queue.splice(0)) answer()
      }
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await rm(base, { recursive: true, force: true })
    },
  }
}

/** A port on 127.0.0.1 that nothing listens on. */
export async function unusedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
