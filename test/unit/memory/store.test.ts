import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { validateConfig } from '../../../src/config/load.js'
import type { Workspace } from '../../../src/config/workspace.js'
import { newMemoryId } from '../../../src/memory/ids.js'
import { folderForLayer, visibleFolders } from '../../../src/memory/locations.js'
import type { MemoryRecord } from '../../../src/memory/model.js'
import { addMemory, deleteMemory, findMemory, restoreMemory } from '../../../src/memory/store.js'

let base: string
let workspace: Workspace
const nobody = { agentId: undefined, sessionId: undefined }

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'mk-store-'))
  const config = validateConfig(
    {
      knowledge: {
        sources: [
          { name: 'project', layer: 'project', path: 'knowledge' },
          { name: 'platform', layer: 'team', path: 'team-knowledge' },
        ],
      },
    },
    'test',
  )
  workspace = { root: join(base, 'ws'), configPath: undefined, config, mkHome: join(base, 'home'), stateDir: join(base, 'ws', '.mk') }
})
afterEach(() => rm(base, { recursive: true, force: true }))

function record(content: string, layer: MemoryRecord['layer'] = 'user'): MemoryRecord {
  const now = new Date().toISOString()
  return {
    id: newMemoryId(),
    layer,
    content,
    tags: [],
    created: now,
    updated: now,
    source: 'cli',
    refs: [],
    supersedes: [],
    expires: undefined,
    lane: ['agent', 'session', 'user'].includes(layer) ? 'private' : 'shared',
    owner: undefined,
    metadata: {},
  }
}

const noHooks = { findDuplicate: async () => undefined, written: () => undefined }

describe('memory locations', () => {
  it('puts private layers under MK_HOME, project in the workspace and team in its source', () => {
    const folders = visibleFolders(workspace, { agentId: 'alice', sessionId: 's1' })
    expect(folders.map((folder) => [folder.key, folder.dir.slice(base.length)])).toEqual([
      ['agent/alice', '/home/memory/agent/alice'],
      ['session/s1', '/home/memory/session/s1'],
      ['user', '/home/memory/user'],
      ['project', '/ws/knowledge/memory'],
      ['team/platform', '/ws/team-knowledge/memory'],
    ])
  })

  it('on a team server gives each agent its own user and session layers, and a caller without an agent neither (issue 25, item 3)', () => {
    const keys = (agentId: string | undefined): string[] =>
      visibleFolders(workspace, { agentId, sessionId: 's1', perAgent: true }).map((folder) => `${folder.key} ${folder.dir.slice(base.length)}`)
    expect(keys('alice')).toEqual([
      'agent/alice /home/memory/agent/alice',
      'session/alice/s1 /home/memory/agent-session/alice/s1',
      'user/alice /home/memory/agent-user/alice',
      'project /ws/knowledge/memory',
      'team/platform /ws/team-knowledge/memory',
    ])
    expect(keys('bob')).toContain('user/bob /home/memory/agent-user/bob')
    expect(keys(undefined)).toEqual(['project /ws/knowledge/memory', 'team/platform /ws/team-knowledge/memory'])
    for (const layer of ['user', 'session', 'agent'] as const) {
      expect(() => folderForLayer(workspace, { agentId: undefined, sessionId: 's1', perAgent: true }, layer)).toThrow(
        expect.objectContaining({ code: 'FORBIDDEN', details: expect.objectContaining({ reason: 'no_agent' }) }),
      )
    }
  })

  it('explains why a layer has no folder', () => {
    expect(() => folderForLayer(workspace, nobody, 'agent')).toThrow(/agent layer needs an id/)
    expect(() => folderForLayer(workspace, nobody, 'company')).toThrow(/no knowledge source provides the company layer/)
    expect(() => folderForLayer(workspace, { agentId: '../escape', sessionId: undefined }, 'agent')).toThrow(/not usable as a folder name/)
  })
})

describe('memory store', () => {
  it('deletes and restores private and shared memories through the MK_HOME history', async () => {
    for (const layer of ['user', 'project'] as const) {
      const folder = folderForLayer(workspace, nobody, layer)
      const added = await addMemory(workspace, folder, record(`a ${layer} fact`, layer), noHooks)
      if (added.deduplicated) throw new Error('unexpected dedup')
      const stored = await findMemory(workspace, nobody, added.stored.record.id)
      await deleteMemory(workspace, stored, () => undefined)
      expect(existsSync(stored.file)).toBe(false)
      const restored = await restoreMemory(workspace, nobody, stored.record.id, () => undefined)
      expect(restored.record).toEqual(stored.record)
      expect(existsSync(stored.file)).toBe(true)
      await expect(restoreMemory(workspace, nobody, stored.record.id, () => undefined)).rejects.toThrow(/exists already/)
    }
  })

  it("sweeps a folder for dead writers' temporary files at most every 10 s in one process", async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const folder = folderForLayer(workspace, nobody, 'project')
      const abandoned = (n: number): string => join(folder.dir, `.mem_${n}.md.999999999.0123abcd.tmp`)
      await addMemory(workspace, folder, record('first'), noHooks)
      await writeFile(abandoned(1), 'half a memory')
      await addMemory(workspace, folder, record('second'), noHooks)
      // The folder was listed for them a moment ago: a burst of writes does not list it on each one.
      expect(existsSync(abandoned(1))).toBe(true)
      vi.setSystemTime(Date.now() + 10_001)
      await addMemory(workspace, folder, record('third'), noHooks)
      expect(existsSync(abandoned(1))).toBe(false)
    } finally {
      vi.useRealTimers()
    }
  })

  it('writes nothing when the duplicate check finds the content', async () => {
    const folder = folderForLayer(workspace, nobody, 'user')
    const outcome = await addMemory(workspace, folder, record('same'), {
      findDuplicate: async () => 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3',
      written: () => undefined,
    })
    expect(outcome).toEqual({ deduplicated: true, id: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3' })
    expect(existsSync(folder.dir)).toBe(false)
  })

  it('says NOT_FOUND for an unknown id and INVALID_INPUT for a malformed one', async () => {
    await expect(findMemory(workspace, nobody, 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3')).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(findMemory(workspace, nobody, 'nope')).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await expect(restoreMemory(workspace, nobody, 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3', () => undefined)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
