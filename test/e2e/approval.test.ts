import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mkBin, parseJson, runMk, type MkRun } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/*
 * issue 11.10: deleting a memory from a shared layer (project or wider) needs a
 * person's approval: a terminal prompt or --yes on the CLI, MCP elicitation
 * through a client; refused with FORBIDDEN where nobody can be asked. Private
 * layers (agent, session, user) are deleted without asking.
 */

let ws: TempWorkspace
const clients: Client[] = []

beforeEach(async () => {
  ws = await makeWorkspace()
})
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
  await ws.cleanup()
})

const env = (): Record<string, string> => ({ MK_HOME: ws.mkHome })

async function add(content: string, layer: 'project' | 'user'): Promise<string> {
  const run = await runMk(['memory', 'add', content, '--layer', layer, '--json'], { cwd: ws.root, env: env() })
  expect(run.exitCode, run.stderr).toBe(0)
  return parseJson<{ memoryId: string }>(run).memoryId
}

function projectFile(id: string): string {
  return join(ws.root, 'knowledge', 'memory', `${id}.md`)
}

/** `mk` on a real pseudo-terminal (util-linux `script`), typing `answer` at its prompt. */
function onTerminal(args: readonly string[], answer: string): Promise<MkRun> {
  return new Promise((resolve, reject) => {
    const command = [process.execPath, mkBin, ...args].map((word) => `'${word}'`).join(' ')
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: ws.root,
      env: { ...process.env, ...env(), NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let answered = false
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
      if (!answered && stdout.includes('[y/N]')) {
        answered = true
        child.stdin.write(`${answer}\r`)
      }
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ stdout, stderr: '', exitCode: code ?? -1 }))
  })
}

describe('mk memory delete of a shared memory', () => {
  it('is refused with FORBIDDEN and the fix when nobody can be asked (no terminal, no --yes); the memory stays', async () => {
    const id = await add('Staging deploys need a second reviewer', 'project')
    const run = await runMk(['memory', 'delete', id, '--json'], { cwd: ws.root, env: env() })
    expect(run.exitCode).toBe(2)
    const error = parseJson<{ errorCode: string; message: string; details: { hint: string } }>(run)
    expect(error.errorCode).toBe('FORBIDDEN')
    expect(error.message).toContain(`deleting ${id} from the shared project layer needs a person's approval`)
    expect(error.details.hint).toContain('--yes')
    expect(existsSync(projectFile(id))).toBe(true)

    const human = await runMk(['memory', 'delete', id], { cwd: ws.root, env: env() })
    expect(human.exitCode).toBe(2)
    expect(human.stderr).toMatch(/FORBIDDEN/)
    expect(human.stderr).not.toMatch(/\n\s+at /)
  })

  it('is done with --yes', async () => {
    const id = await add('Staging deploys need a second reviewer', 'project')
    const run = await runMk(['memory', 'delete', id, '--yes', '--json'], { cwd: ws.root, env: env() })
    expect(run.exitCode, run.stdout + run.stderr).toBe(0)
    expect(parseJson<{ message: string }>(run).message).toContain('from the project layer')
    expect(existsSync(projectFile(id))).toBe(false)
  })

  it('asks on a terminal: "y" deletes, anything else keeps it', async () => {
    const id = await add('Staging deploys need a second reviewer', 'project')
    const declined = await onTerminal(['memory', 'delete', id], 'n')
    expect(declined.stdout).toContain(`Delete memory ${id} from the shared project layer? "Staging deploys need a second reviewer" [y/N]`)
    expect(declined.exitCode).toBe(2)
    expect(declined.stdout).toContain('was not approved')
    expect(existsSync(projectFile(id))).toBe(true)

    const approved = await onTerminal(['memory', 'delete', id], 'y')
    expect(approved.exitCode, approved.stdout).toBe(0)
    expect(existsSync(projectFile(id))).toBe(false)
  })

  it('deletes a private (user) memory without asking anyone', async () => {
    const id = await add('I prefer small pull requests', 'user')
    const run = await runMk(['memory', 'delete', id, '--json'], { cwd: ws.root, env: env() })
    expect(run.exitCode, run.stdout + run.stderr).toBe(0)
  })
})

async function mcpClient(elicitation: 'accept' | 'decline' | undefined): Promise<{ client: Client; asked: string[] }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [mkBin, 'mcp', '--profile', 'main'],
    cwd: ws.root,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env() },
    stderr: 'pipe',
  })
  const client = new Client({ name: 'approval-test', version: '1.0.0' }, elicitation === undefined ? {} : { capabilities: { elicitation: {} } })
  const asked: string[] = []
  if (elicitation !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message)
      return elicitation === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' }
    })
  }
  await client.connect(transport)
  clients.push(client)
  return { client, asked }
}

function errorCodeOf(result: Awaited<ReturnType<Client['callTool']>>): string | undefined {
  if (result.isError !== true) return undefined
  const [first] = result.content as { text: string }[]
  return (JSON.parse(first?.text ?? '{}') as { errorCode: string }).errorCode
}

describe('memory_delete of a shared memory through mk mcp', () => {
  it('asks the person through elicitation and deletes when they accept', async () => {
    const id = await add('Staging deploys need a second reviewer', 'project')
    const { client, asked } = await mcpClient('accept')
    const result = await client.callTool({ name: 'memory_delete', arguments: { memoryId: id } })
    expect(result.isError).toBe(false)
    expect(asked).toEqual([`Delete memory ${id} from the shared project layer? "Staging deploys need a second reviewer"`])
    expect(existsSync(projectFile(id))).toBe(false)
  })

  it('keeps the memory when the person declines', async () => {
    const id = await add('Staging deploys need a second reviewer', 'project')
    const { client, asked } = await mcpClient('decline')
    expect(errorCodeOf(await client.callTool({ name: 'memory_delete', arguments: { memoryId: id } }))).toBe('FORBIDDEN')
    expect(asked).toHaveLength(1)
    expect(existsSync(projectFile(id))).toBe(true)
  })

  it('is refused with FORBIDDEN by a client that cannot ask, while a private memory is deleted without asking', async () => {
    const shared = await add('Staging deploys need a second reviewer', 'project')
    const own = await add('I prefer small pull requests', 'user')
    const { client } = await mcpClient(undefined)
    expect(errorCodeOf(await client.callTool({ name: 'memory_delete', arguments: { memoryId: shared } }))).toBe('FORBIDDEN')
    expect(existsSync(projectFile(shared))).toBe(true)
    expect((await client.callTool({ name: 'memory_delete', arguments: { memoryId: own } })).isError).toBe(false)
  })
})
