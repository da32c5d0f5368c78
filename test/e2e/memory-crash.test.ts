import { spawn, spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkBin, parseJson, runMk, type MkRun } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

const kills = 40

interface Ended {
  exitCode: number | null
  stdout: string
}

/** Run mk and SIGKILL it after `delayMs` unless it ends first. */
function runKilledAfter(ws: TempWorkspace, args: string[], delayMs: number): Promise<Ended> {
  return new Promise((resolve) => {
    const env = { ...process.env, MK_HOME: ws.mkHome, NO_COLOR: '1', MK_AGENT_ID: '', MK_SESSION_ID: '' }
    const child = spawn(process.execPath, [mkBin, ...args], { cwd: ws.root, env, stdio: ['ignore', 'pipe', 'ignore'] })
    let stdout = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    const timer = setTimeout(() => child.kill('SIGKILL'), delayMs)
    child.on('close', (exitCode) => {
      clearTimeout(timer)
      resolve({ exitCode, stdout })
    })
  })
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return name === '.git' ? [] : statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

function committedPaths(home: string): string[] {
  const run = spawnSync('git', ['ls-tree', '-r', '--name-only', 'HEAD'], { cwd: home, encoding: 'utf8' })
  expect(run.status, run.stderr).toBe(0)
  return run.stdout.split('\n').filter((line) => line !== '')
}

// Issue 11.2: kill -9 at random moments of memory add and delete; after the next command every
// acknowledged memory is present, committed and restorable, and nothing is left behind.
describe('memory add and delete killed at random moments', () => {
  let ws: TempWorkspace
  let mk: (args: string[]) => Promise<MkRun>
  beforeAll(async () => {
    ws = await makeWorkspace({ 'knowledge/.keep': '', '.mkrc': 'search:\n  embedding:\n    provider: none\n' })
    mk = (args) => runMk(args, { cwd: ws.root, env: { MK_HOME: ws.mkHome, MK_AGENT_ID: undefined, MK_SESSION_ID: undefined } })
  })
  afterAll(() => ws.cleanup())

  it(`keeps every acknowledged change after ${kills} adds and ${kills} deletes killed at random`, async () => {
    const added: string[] = []
    for (let n = 0; n < kills; n++) {
      const run = await runKilledAfter(ws, ['memory', 'add', `crash fact number ${n}`, '--json'], n % 4 === 0 ? 10_000 : 200 + Math.floor(Math.random() * 900))
      if (run.exitCode === 0) added.push(parseJson<{ memoryId: string }>({ ...run, stderr: '', exitCode: 0 }).memoryId)
    }
    // Spread over start-up, the write and the commit; every fourth runs to the end.
    // Memories whose add was killed may exist too: delete from everything that is listed.
    const listed = parseJson<{ memories: { memoryId: string }[] }>(await mk(['memory', 'list', '--limit', '100', '--json'])).memories.map(
      (memory) => memory.memoryId,
    )
    const deleted: string[] = []
    for (const [n, id] of listed.slice(0, kills).entries()) {
      const run = await runKilledAfter(ws, ['memory', 'delete', id, '--json'], n % 4 === 0 ? 10_000 : 200 + Math.floor(Math.random() * 900))
      if (run.exitCode === 0) deleted.push(id)
    }
    // The next command runs recovery under the lock.
    const last = await mk(['memory', 'add', 'the command after the crashes', '--json'])
    expect(last.exitCode, last.stderr).toBe(0)

    const present = new Set(
      parseJson<{ memories: { memoryId: string }[] }>(await mk(['memory', 'list', '--limit', '100', '--json'])).memories.map((memory) => memory.memoryId),
    )
    const committed = new Set(committedPaths(ws.mkHome))
    const attempted = new Set(listed.slice(0, kills))
    // A killed delete may have finished: that memory is gone, and must be restorable like the others.
    for (const id of added) expect(present.has(id) || attempted.has(id), `${id} was acknowledged and never deleted`).toBe(true)
    for (const id of present) expect(committed.has(`memory/user/${id}.md`), `${id} is present but not committed`).toBe(true)
    for (const id of deleted) expect(present.has(id)).toBe(false)
    for (const id of [...attempted].filter((candidate) => !present.has(candidate))) {
      const restored = await mk(['memory', 'restore', id, '--json'])
      expect(restored.exitCode, `${id}: ${restored.stdout}${restored.stderr}`).toBe(0)
    }
    const leftovers = filesUnder(ws.mkHome)
      .map((file) => relative(ws.mkHome, file))
      .filter((file) => file.endsWith('.tmp') || file.startsWith('.pending/') || file.startsWith('.locks/'))
    expect(leftovers).toEqual([])
    expect(deleted.length).toBeGreaterThan(0)
  }, 240_000)

  it('restores a memory whose file was placed by hand and never committed', async () => {
    const id = 'mem_01JHANDP1ACED0000000000000'
    await ws.write('../home/memory/user/' + `${id}.md`, `---\nid: ${id}\nlayer: user\ncreated: 2026-01-01T00:00:00.000Z\n---\nplaced by hand\n`)
    expect((await mk(['memory', 'delete', id])).exitCode).toBe(0)
    const restored = await mk(['memory', 'restore', id, '--json'])
    expect(restored.exitCode, restored.stdout + restored.stderr).toBe(0)
    expect(parseJson<{ content?: string }>(await mk(['memory', 'show', id, '--json'])).content).toBe('placed by hand')
  })
})
