import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadWorkspace } from '../../../src/config/load.js'
import type { Workspace } from '../../../src/config/workspace.js'
import { newMemoryId } from '../../../src/memory/ids.js'
import type { MemoryFolder } from '../../../src/memory/locations.js'
import type { MemoryRecord } from '../../../src/memory/model.js'
import { openFilesStore } from '../../../src/stores/files/files-store.js'
import type { Store } from '../../../src/stores/store.js'
import { Resources } from '../../../src/tools/context.js'

/** One store under test: a fresh, empty tenant, and how to give it back. */
export interface OpenedStore {
  store: Store
  workspace: Workspace
  close(): Promise<void>
}

export interface StoreFactory {
  name: string
  open(): Promise<OpenedStore>
}

/** A temporary workspace and MK_HOME, with full-text search only (no model to load in a contract test). */
async function filesStore(): Promise<OpenedStore> {
  const base = await mkdtemp(join(tmpdir(), 'mk-store-contract-'))
  const root = join(base, 'ws')
  await mkdir(root, { recursive: true })
  await writeFile(join(root, '.mkrc'), 'search:\n  embedding:\n    provider: none\n')
  const workspace = await loadWorkspace({ cwd: root, env: { MK_HOME: join(base, 'home') } })
  const resources = new Resources()
  return {
    store: openFilesStore({ workspace, resources }),
    workspace,
    async close() {
      await resources.closeAll()
      await rm(base, { recursive: true, force: true })
    },
  }
}

/**
 * Every store runs the same suite. A second implementation adds its factory here (PostgreSQL:
 * a throwaway cluster per run, a fresh tenant per open) and must pass every test unchanged.
 */
export const storeFactories: StoreFactory[] = [{ name: 'files', open: filesStore }]

export const nobody = { agentId: undefined, sessionId: undefined }
export const author = { name: 'Store Contract', email: 'store-contract@example.com' }
export const warnings: string[] = []
export const write = { author, warn: (message: string) => void warnings.push(message) }

export function memoryRecord(folder: MemoryFolder, content: string, extra: Partial<MemoryRecord> = {}): MemoryRecord {
  const now = new Date().toISOString()
  return {
    id: newMemoryId(),
    layer: folder.layer,
    content,
    tags: [],
    created: now,
    updated: now,
    source: 'cli',
    refs: [],
    supersedes: [],
    expires: undefined,
    lane: folder.private ? 'private' : 'shared',
    owner: folder.owner,
    metadata: {},
    ...extra,
  }
}
