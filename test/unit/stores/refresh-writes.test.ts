import Database from 'better-sqlite3'
import { utimes } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { openFilesStore } from '../../../src/stores/files/files-store.js'
import { Resources } from '../../../src/tools/context.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

let temp: TempWorkspace | undefined
afterEach(async () => {
  await temp?.cleanup()
})

// Issue 27: a server search looked at the files and recorded the look, a write transaction per
// search; the record of a look that found nothing new is now kept to the minute.
describe('a refresh that finds nothing changed', () => {
  test('writes nothing to the index', async () => {
    temp = await makeWorkspace({
      '.mkrc': 'search: {embedding: {provider: none}}\n',
      'knowledge/memory/mem_01M8EX2DNZ76MX91DNJHHYSRKE.md':
        '---\nid: mem_01M8EX2DNZ76MX91DNJHHYSRKE\nlayer: project\ncreated: 2026-01-01T00:00:00Z\n---\nReleases are cut on Tuesdays\n',
    })
    // Settled files: a folder changed in the last two seconds is looked at again on purpose.
    const hourAgo = new Date(Date.now() - 3_600_000)
    for (const path of ['knowledge/memory/mem_01M8EX2DNZ76MX91DNJHHYSRKE.md', 'knowledge/memory', 'knowledge'])
      await utimes(join(temp.root, path), hourAgo, hourAgo)
    const workspace = await loadWorkspace({ cwd: temp.root, env: { MK_HOME: temp.mkHome } })
    const store = openFilesStore({ workspace, resources: new Resources() })
    const identity = { agentId: undefined, sessionId: undefined }
    await store.index.open(() => undefined)
    const first = await store.index.refresh({ identity, warn: () => undefined })
    expect(first.memoriesRead).toBe(1)
    const observer = new Database(join(temp.root, '.mk', 'index.db'), { readonly: true })
    const version = () => observer.pragma('data_version', { simple: true }) as number
    const before = version()
    for (let n = 0; n < 3; n++) await store.index.refresh({ identity, warn: () => undefined })
    expect(version()).toBe(before)
    observer.close()
  })

  // Under a stream of adds the folder is always "just changed", so every search lists it: the
  // listing finds nothing new, and it used to take the write lock anyway, waiting on the adds.
  test('writes nothing when the folder just changed but holds nothing new', async () => {
    temp = await makeWorkspace({
      '.mkrc': 'search: {embedding: {provider: none}}\n',
      'knowledge/memory/mem_01M8EX2DNZ76MX91DNJHHYSRKE.md':
        '---\nid: mem_01M8EX2DNZ76MX91DNJHHYSRKE\nlayer: project\ncreated: 2026-01-01T00:00:00Z\n---\nReleases are cut on Tuesdays\n',
    })
    const workspace = await loadWorkspace({ cwd: temp.root, env: { MK_HOME: temp.mkHome } })
    const store = openFilesStore({ workspace, resources: new Resources() })
    const identity = { agentId: undefined, sessionId: undefined }
    await store.index.open(() => undefined)
    expect((await store.index.refresh({ identity, warn: () => undefined })).memoriesRead).toBe(1)
    const now = new Date()
    await utimes(join(temp.root, 'knowledge/memory'), now, now)
    // The first look after the change records it; looks that find nothing new write nothing,
    // so they pass while another connection holds the write lock (before, each waited for it).
    await store.index.refresh({ identity, warn: () => undefined })
    const writer = new Database(join(temp.root, '.mk', 'index.db'))
    writer.prepare('BEGIN IMMEDIATE').run()
    try {
      for (let n = 0; n < 3; n++) await store.index.refresh({ identity, warn: () => undefined })
    } finally {
      writer.prepare('ROLLBACK').run()
      writer.close()
    }
  }, 60_000)
})
