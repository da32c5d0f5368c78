import { stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseJson, runMk, type MkRun } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

const ids = ['mem_01JSTAT0000000000000000001', 'mem_01JSTAT0000000000000000002', 'mem_01JSTAT0000000000000000003']

function memoryFile(id: string, content: string): string {
  return `---\nid: ${id}\nlayer: project\ncreated: 2026-01-01T00:00:00.000Z\nupdated: 2026-01-01T00:00:00.000Z\n---\n${content}\n`
}

/** Past the two-second window in which a file's time stamps cannot tell a later edit apart. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 2100))

/** Files last changed long ago: outside the window in which a same-size edit could carry the same time stamp. */
const longAgo = new Date('2025-03-01T10:00:00Z')

// Issue 18: `mk index update` decides from stat data (size, mtime, ctime, inode) which files to read.
describe('mk index update reads only the files whose stat data changed', () => {
  let ws: TempWorkspace | undefined
  afterEach(async () => {
    await ws?.cleanup()
    ws = undefined
  })

  async function setUp(settled: boolean): Promise<{ mk: (args: string[]) => Promise<MkRun>; path: (id: string) => string }> {
    const workspace = (ws = await makeWorkspace({ 'knowledge/.keep': '', '.mkrc': 'search:\n  embedding:\n    provider: none\n' }))
    const path = (id: string): string => join(workspace.root, 'knowledge', 'memory', `${id}.md`)
    for (const [n, id] of ids.entries()) {
      await workspace.write(`knowledge/memory/${id}.md`, memoryFile(id, `fact ${n} about the parking garage`))
      if (settled) await utimes(path(id), longAgo, longAgo)
    }
    // The change time cannot be set back: wait until it is out of the racy window too.
    if (settled) await settle()
    const mk = (args: string[]): Promise<MkRun> =>
      runMk(args, { cwd: workspace.root, env: { MK_HOME: workspace.mkHome, MK_AGENT_ID: undefined, MK_SESSION_ID: undefined } })
    return { mk, path }
  }

  async function update(mk: (args: string[]) => Promise<MkRun>): Promise<number> {
    const run = await mk(['index', 'update', '--json'])
    expect(run.exitCode, run.stderr).toBe(0)
    return parseJson<{ read: number }>(run).read
  }

  async function found(mk: (args: string[]) => Promise<MkRun>, query: string): Promise<string[]> {
    const run = await mk(['memory', 'search', query, '--json'])
    expect(run.exitCode, run.stderr).toBe(0)
    return parseJson<{ results: { content: string }[] }>(run).results.map((result) => result.content)
  }

  it('reads nothing when nothing changed, and only the edited file after an edit', async () => {
    const { mk, path } = await setUp(true)
    expect(await update(mk)).toBe(3)
    expect(await update(mk)).toBe(0)
    await writeFile(path(ids[1] as string), memoryFile(ids[1] as string, 'fact 1 about the bicycle shed, longer now'))
    expect(await update(mk)).toBe(1)
    expect(await found(mk, 'bicycle shed')).toEqual(['fact 1 about the bicycle shed, longer now'])
  }, 60_000)

  it('catches a same-size edit whose old modification time was put back (the change time moves)', async () => {
    const { mk, path } = await setUp(true)
    expect(await update(mk)).toBe(3)
    const file = path(ids[0] as string)
    const before = await stat(file)
    await writeFile(file, memoryFile(ids[0] as string, 'fact 0 about the parking karage'))
    await utimes(file, before.atime, before.mtime)
    const after = await stat(file)
    expect(after.size).toBe(before.size)
    expect(after.mtimeMs).toBe(before.mtimeMs)
    expect(await update(mk)).toBe(1)
    expect(await found(mk, 'karage')).toEqual(['fact 0 about the parking karage'])
  }, 60_000)

  it('reads files changed within two seconds of an update again next time (racily clean: a same-size edit in the same tick would look unchanged)', async () => {
    const { mk } = await setUp(false)
    expect(await update(mk)).toBe(3)
    expect(await update(mk)).toBe(3)
    await settle()
    expect(await update(mk)).toBe(3)
    expect(await update(mk)).toBe(0)
  }, 60_000)

  it('follows a tier table edited by hand without reading the unchanged memory files', async () => {
    const { mk } = await setUp(true)
    const table = join(ws?.root ?? '', 'knowledge', 'memory', '.tiers')
    await writeFile(table, `${ids[0]} archive\n`)
    expect(await update(mk)).toBe(3)
    expect(await found(mk, 'fact 0 parking garage')).not.toContain('fact 0 about the parking garage')
    // The line is dropped: the memory's file names no tier, so it is hot again, though no file is read.
    await writeFile(table, '')
    expect(await update(mk)).toBe(0)
    expect(await found(mk, 'fact 0 parking garage')).toContain('fact 0 about the parking garage')
  }, 60_000)
})
