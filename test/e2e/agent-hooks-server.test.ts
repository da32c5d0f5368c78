import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readdir } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { claudeFixtures, cursorFixtures, hookFiles, hookKnowledge, recorded } from '../helpers/hook-workspace.js'
import { runMk, type MkRun } from '../helpers/mk.js'
import { startServe, type RunningServe } from '../helpers/serve.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/*
 * Issue 28: `mk hook claude` and `mk hook cursor` hand the edit check to the workspace's local
 * `mk serve --socket` when one runs, and check in-process otherwise: the same decision either way,
 * and a server that misbehaves never lets a denied edit through (run npm run build first).
 */

let workspace: TempWorkspace
beforeAll(async () => {
  workspace = await makeWorkspace({ ...hookKnowledge, ...hookFiles })
})
afterAll(async () => workspace.cleanup())

const socketOf = (root: string): string => join(root, '.mk', 'serve.sock')

async function fixtureNames(folder: string): Promise<string[]> {
  return (await readdir(folder)).filter((name) => name.endsWith('.json')).map((name) => name.replace(/\.json$/, ''))
}

async function hook(agent: 'claude' | 'cursor', name: string): Promise<MkRun> {
  const input = await recorded(name, workspace.root, agent === 'claude' ? claudeFixtures : cursorFixtures)
  return runMk(['hook', agent], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome }, input })
}

/** What a hook answered: its exit code, stdout and the violations it reported on stderr. */
const decision = (run: MkRun): { exitCode: number; stdout: string; reports: string[] } => ({
  exitCode: run.exitCode,
  stdout: run.stdout,
  reports: run.stderr.split('\n').filter((line) => line.includes(' breaks ')),
})

describe('mk hook through the local server', () => {
  it('gives the same decisions for every recorded input with the server running as without it, and the server answered them', async () => {
    const inputs = [
      ...(await fixtureNames(claudeFixtures)).map((name) => ['claude', name] as const),
      ...(await fixtureNames(cursorFixtures)).map((name) => ['cursor', name] as const),
    ]
    const inProcess = await Promise.all(inputs.map(([agent, name]) => hook(agent, name)))
    expect(inProcess.filter((run) => run.stdout.includes('"deny"')).length).toBeGreaterThanOrEqual(6)
    let server: RunningServe | undefined = await startServe({ cwd: workspace.root, args: ['--socket', '.mk/serve.sock'], env: { MK_HOME: workspace.mkHome } })
    try {
      for (const [index, [agent, name]] of inputs.entries()) {
        const viaServer = await hook(agent, name)
        expect(decision(viaServer), `${agent} ${name}: ${viaServer.stderr}`).toEqual(decision(inProcess[index] as MkRun))
      }
      // Every edit decision came from the server; a context event may fall back when a loaded machine keeps it past the hook's patience.
      const running = server
      const served = (tool: string) =>
        running
          .stderr()
          .split('\n')
          .filter((line) => line.includes(`"tool":"${tool}"`)).length
      const edits = (await Promise.all(inputs.map(([agent, name]) => recorded(name, '', agent === 'claude' ? claudeFixtures : cursorFixtures)))).filter(
        (input) => input.includes('"PreToolUse"'),
      )
      await expect.poll(() => served('hook_claude')).toBeGreaterThanOrEqual(edits.length)
      await expect.poll(() => served('hook_cursor')).toBe(inputs.filter(([agent]) => agent === 'cursor').length)
      expect(await server.stop()).toBe(0)
      server = undefined
    } finally {
      await server?.stop()
    }
  }, 180_000)

  it('is not offered by a server on a TCP port', async () => {
    const server = await startServe({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    try {
      const answer = await server.post('/v1/tools/hook_claude', { event: { hook_event_name: 'SessionStart' } })
      expect(answer.status).toBe(404)
    } finally {
      await server.stop()
    }
  }, 60_000)
})

/** A server on the workspace socket that misbehaves as told, standing in for an `mk serve` gone wrong. */
async function misbehavingServer(root: string, behaviour: (request: import('node:http').IncomingMessage, reply: import('node:http').ServerResponse) => void) {
  const server: Server = createServer((request, reply) => {
    request.resume()
    request.on('end', () => behaviour(request, reply))
  })
  await mkdir(join(root, '.mk'), { recursive: true })
  await new Promise<void>((resolve) => server.listen(socketOf(root), resolve))
  let calls = 0
  server.on('request', () => (calls += 1))
  return {
    calls: () => calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

describe('mk hook when the local server misbehaves', () => {
  const denied = ['write-console-log', 'manifest-adds-moment']
  const behaviours: [string, Parameters<typeof misbehavingServer>[1]][] = [
    [
      'dies in the middle of its answer',
      (_request, reply) => {
        reply.writeHead(200, { 'content-type': 'application/json' })
        reply.write('{"output":{"event":"PreToolUse","decision":"no')
        reply.socket?.destroy()
      },
    ],
    ['answers garbage', (_request, reply) => reply.end('<html>not mk</html>')],
    // Well-formed, and wrong: an answer that is not the tool's output is not trusted.
    [
      'answers an allow that is not a hook answer',
      (_request, reply) => reply.end(JSON.stringify({ output: { decision: 'none' }, display: '', exitCode: 0, warnings: [] })),
    ],
    [
      'answers an error',
      (_request, reply) => {
        reply.statusCode = 500
        reply.end(JSON.stringify({ success: false, errorCode: 'INTERNAL_ERROR', message: 'boom', retryable: false }))
      },
    ],
    ['never answers', () => undefined],
  ]

  for (const [what, behaviour] of behaviours) {
    it(`checks in-process when the server ${what}, and still denies`, async () => {
      const server = await misbehavingServer(workspace.root, behaviour)
      try {
        for (const name of denied) {
          const run = await hook('claude', name)
          expect(run.exitCode, run.stderr).toBe(0)
          expect(JSON.parse(run.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } })
        }
        expect(server.calls()).toBe(denied.length)
      } finally {
        await server.close()
      }
    }, 60_000)
  }

  it('ignores a socket file a dead server left behind', async () => {
    const socket = socketOf(workspace.root)
    // A server killed without a chance to clean up leaves its socket file: nothing listens on it.
    const child = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(socket)}, () => console.log('up'))`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    await new Promise((resolve) => child.stdout.once('data', resolve))
    child.kill('SIGKILL')
    await new Promise((resolve) => child.once('exit', resolve))
    expect(existsSync(socket)).toBe(true)
    const run = await hook('claude', 'write-console-log')
    expect(run.exitCode, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } })
    expect(run.stderr).toBe('')
  }, 60_000)
})
