import Database from 'better-sqlite3'
import { rm, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { folderForLayer } from '../../../src/memory/locations.js'
import { openFilesStore } from '../../../src/stores/files/files-store.js'
import { Resources } from '../../../src/tools/context.js'
import { memoryRecord } from '../../helpers/memory-record.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

const ids = {
  a: 'mem_01M8EX2DNZ76MX91DNJHHYSRKA',
  b: 'mem_01M8EX2DNZ76MX91DNJHHYSRKB',
  c: 'mem_01M8EX2DNZ76MX91DNJHHYSRKC',
  x: 'mem_01M8EX2DNZ76MX91DNJHHYSRKX',
}
const memory = (id: string, text: string): string => `---\nid: ${id}\nlayer: project\ncreated: 2026-01-01T00:00:00Z\n---\n${text}\n`
const identity = { agentId: undefined, sessionId: undefined }

let temp: TempWorkspace | undefined
afterEach(async () => {
  await temp?.cleanup()
  temp = undefined
})

function indexedMemories(root: string): string[] {
  const db = new Database(join(root, '.mk', 'index.db'), { readonly: true })
  const rows = db.prepare("SELECT id FROM docs WHERE kind = 'memory' ORDER BY id").pluck().all() as string[]
  db.close()
  return rows
}

async function openStore(root: string, mkHome: string) {
  const workspace = await loadWorkspace({ cwd: root, env: { MK_HOME: mkHome } })
  const store = openFilesStore({ workspace, resources: new Resources() })
  await store.index.open(() => undefined)
  return store
}

// Issue 27: under a stream of writes the memory folder has always "just changed", so every search
// lists it; a listing now looks up only the names that came or went since the connection's last one.
describe('a search that lists a folder changed a moment ago', () => {
  test('finds files other processes added or deleted by hand, and keeps reporting a broken file', async () => {
    temp = await makeWorkspace({
      '.mkrc': 'search: {embedding: {provider: none}}\n',
      [`knowledge/memory/${ids.a}.md`]: memory(ids.a, 'Releases are cut on Tuesdays'),
    })
    const folder = join(temp.root, 'knowledge', 'memory')
    const store = await openStore(temp.root, temp.mkHome)
    const indexed = (): string[] => indexedMemories(temp?.root ?? '')
    const refresh = async (): Promise<string[]> => {
      const now = new Date()
      await utimes(folder, now, now)
      const warnings: string[] = []
      await store.index.refresh({ identity, warn: (message) => warnings.push(message) })
      return warnings
    }
    await refresh()
    expect(indexed()).toEqual([ids.a])

    await writeFile(join(folder, `${ids.b}.md`), memory(ids.b, 'The staging database is read-only on Fridays'))
    await refresh()
    expect(indexed()).toEqual([ids.a, ids.b])

    await rm(join(folder, `${ids.a}.md`))
    await refresh()
    expect(indexed()).toEqual([ids.b])

    await writeFile(join(folder, `${ids.c}.md`), 'no frontmatter at all\n')
    expect((await refresh()).join('\n')).toContain(ids.c)
    expect((await refresh()).join('\n')).toContain(ids.c)
    await writeFile(join(folder, `${ids.c}.md`), memory(ids.c, 'On-call escalates after 15 minutes'))
    expect(await refresh()).toEqual([])
    expect(indexed()).toEqual([ids.b, ids.c])
  })

  test('drops a memory only the index still holds within a second, though it was never in a listing of this connection', async () => {
    temp = await makeWorkspace({
      '.mkrc': 'search: {embedding: {provider: none}}\n',
      [`knowledge/memory/${ids.a}.md`]: memory(ids.a, 'Releases are cut on Tuesdays'),
    })
    const folder = join(temp.root, 'knowledge', 'memory')
    const store = await openStore(temp.root, temp.mkHome)
    const other = await openStore(temp.root, temp.mkHome)
    const touch = async (): Promise<void> => {
      const now = new Date()
      await utimes(folder, now, now)
    }
    await touch()
    await store.index.refresh({ identity, warn: () => undefined })
    // Another process adds a memory and indexes it; then a person deletes its file by hand.
    await writeFile(join(folder, `${ids.x}.md`), memory(ids.x, 'Deploys need two approvals'))
    await touch()
    await other.index.refresh({ identity, warn: () => undefined })
    await rm(join(folder, `${ids.x}.md`))
    await touch()
    await store.index.refresh({ identity, warn: () => undefined })
    await new Promise((resolve) => setTimeout(resolve, 1100))
    await touch()
    await store.index.refresh({ identity, warn: () => undefined })
    expect(indexedMemories(temp.root)).toEqual([ids.a])
  })

  // Issue 27: under a stream of adds on the server every search listed the folder (a fifth of a thread's time at 10,000 memories).
  test("does not list a folder whose last change was mk's own write, yet finds what another hand adds", async () => {
    temp = await makeWorkspace({
      '.mkrc': 'search: {embedding: {provider: none}}\n',
      [`knowledge/memory/${ids.a}.md`]: memory(ids.a, 'Releases are cut on Tuesdays'),
    })
    const folder = join(temp.root, 'knowledge', 'memory')
    const searcher = await openStore(temp.root, temp.mkHome)
    const writer = await openStore(temp.root, temp.mkHome)
    const project = folderForLayer(await loadWorkspace({ cwd: temp.root, env: { MK_HOME: temp.mkHome } }), identity, 'project')
    const listed = async (): Promise<number> =>
      (await searcher.index.refresh({ identity, folders: [project], knowledge: false, warn: () => undefined })).foldersListed
    const add = (text: string) => writer.memories.add(project, memoryRecord(project, text), { identity, warn: () => undefined })
    const now = new Date()
    await utimes(folder, now, now)
    expect(await listed()).toBe(1)

    const first = await add('The staging database is read-only on Fridays')
    expect(await listed()).toBe(0)
    const second = await add('On-call escalates after 15 minutes')
    expect(await listed()).toBe(0)
    const written = [first, second].map((outcome) => (outcome.deduplicated ? outcome.id : outcome.stored.record.id))
    expect(indexedMemories(temp.root)).toEqual([ids.a, ...written].sort())

    await writeFile(join(folder, `${ids.x}.md`), memory(ids.x, 'Deploys need two approvals'))
    expect(await listed()).toBe(1)
    expect(indexedMemories(temp.root)).toContain(ids.x)
  })
})
