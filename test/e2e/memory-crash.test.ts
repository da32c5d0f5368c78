import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
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

// Issue 25 item 15: a rehydrate killed between writing its files and committing them. The history
// lock is held by a live process, so the kill lands exactly there: the files are written and the
// commit waits. mk doctor reports the left-over file, and the next write commits it.
describe('memory rehydrate killed between its write and its commit', () => {
  let ws: TempWorkspace
  beforeAll(async () => {
    ws = await makeWorkspace({ 'knowledge/.keep': '', '.mkrc': 'search:\n  embedding:\n    provider: none\n' })
  })
  afterAll(() => ws.cleanup())

  it('is reported by mk doctor and committed by the next write', async () => {
    const mk = (args: string[]): Promise<MkRun> => runMk(args, { cwd: ws.root, env: { MK_HOME: ws.mkHome, MK_AGENT_ID: undefined, MK_SESSION_ID: undefined } })
    expect((await mk(['memory', 'add', 'the first fact', '--json'])).exitCode).toBe(0)
    const id = 'mem_01JC01DFACT000000000000000'
    const file = join(ws.mkHome, 'memory', 'user', `${id}.md`)
    await writeFile(file, `---\nid: ${id}\nlayer: user\ntier: cold\ncreated: 2026-01-01T00:00:00.000Z\n---\nthe staging DB is read-only on Fridays\n`)
    const git = (args: string[]): string => {
      const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: ws.mkHome, encoding: 'utf8' })
      expect(run.status, run.stderr).toBe(0)
      return run.stdout
    }
    git(['add', '-A', 'memory'])
    git(['commit', '-q', '-m', 'a cold memory'])
    const before = readFileSync(file, 'utf8')

    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' })
    await once(holder, 'spawn')
    const historyLock = join(ws.mkHome, '.locks', 'history')
    await mkdir(join(ws.mkHome, '.locks'), { recursive: true })
    await writeFile(historyLock, `${holder.pid}\n${hostname()}\nheldbythetest\n`)
    const env = { ...process.env, MK_HOME: ws.mkHome, NO_COLOR: '1', MK_AGENT_ID: '', MK_SESSION_ID: '' }
    const rehydrate = spawn(process.execPath, [mkBin, 'memory', 'rehydrate', id, '--to', 'hot', '--json'], { cwd: ws.root, env, stdio: 'ignore' })
    try {
      while (readFileSync(file, 'utf8') === before) await new Promise((resolve) => setTimeout(resolve, 20))
      rehydrate.kill('SIGKILL')
      await once(rehydrate, 'close')
    } finally {
      holder.kill()
      await rm(historyLock, { force: true })
    }
    expect(readFileSync(file, 'utf8')).toContain('last_rehydrated_to: hot')
    expect(git(['status', '--porcelain', 'memory'])).toContain(`memory/user/${id}.md`)

    const doctor = parseJson<{ checks: { name: string; status: string; message: string; fix?: string }[] }>(await mk(['doctor', '--json']))
    const history = doctor.checks.find((check) => check.name === 'memory history')
    expect(history).toMatchObject({ status: 'warn' })
    expect(history?.message).toContain(`memory/user/${id}.md`)

    expect((await mk(['memory', 'add', 'the next write', '--json'])).exitCode).toBe(0)
    expect(git(['status', '--porcelain', 'memory'])).toBe('')
    expect(git(['log', '-1', '--format=%B', '--', `memory/user/${id}.md`])).toContain('rehydrate 1 to hot')
    const after = parseJson<{ checks: { name: string; status: string }[] }>(await mk(['doctor', '--json']))
    expect(after.checks.find((check) => check.name === 'memory history')).toMatchObject({ status: 'ok' })
  }, 120_000)
})
