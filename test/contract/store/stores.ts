import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadWorkspace } from '../../../src/config/load.js'
import type { Workspace } from '../../../src/config/workspace.js'
import { openFilesStore } from '../../../src/stores/files/files-store.js'
import { closeDatabases, postgresDatabase } from '../../../src/stores/postgres/databases.js'
import { openPostgresStore } from '../../../src/stores/postgres/postgres-store.js'
import type { Store } from '../../../src/stores/store.js'
import { Resources } from '../../../src/tools/context.js'
import { afterAll } from 'vitest'
import { noPostgres, throwawayCluster } from '../../helpers/postgres.js'
export { memoryRecord } from '../../helpers/memory-record.js'

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

const postgres = throwawayCluster()
let url: string | undefined
let tenants = 0
afterAll(() => closeDatabases())

/** One database per test file, migrated on first use; each open is a tenant of its own, so opens share nothing but the database. */
async function postgresStore(): Promise<OpenedStore> {
  url ??= postgres.cluster().createDatabase()
  const base = await mkdtemp(join(tmpdir(), 'mk-store-contract-pg-'))
  const root = join(base, 'ws')
  // The knowledge folder mk init makes: the files store makes it by writing a project memory, this store never writes there.
  await mkdir(join(root, 'knowledge'), { recursive: true })
  await writeFile(join(root, '.mkrc'), 'search:\n  embedding:\n    provider: none\n')
  const workspace = await loadWorkspace({ cwd: root, env: { MK_HOME: join(base, 'home') } })
  const resources = new Resources()
  tenants += 1
  return {
    store: openPostgresStore(postgresDatabase(url, 4), { workspace, resources, tenantId: `tenant-${tenants}`, scope: 'default' }),
    workspace,
    async close() {
      await resources.closeAll()
      await rm(base, { recursive: true, force: true })
    },
  }
}

/**
 * Every store runs the same suite and must pass every test unchanged: the files store, and
 * PostgreSQL on a throwaway cluster (left out, with the reason printed, where it is not installed).
 */
export const storeFactories: StoreFactory[] = [
  { name: 'files', open: filesStore },
  ...(noPostgres === undefined ? [{ name: 'postgres', open: postgresStore }] : []),
]

export const nobody = { agentId: undefined, sessionId: undefined }
export const author = { name: 'Store Contract', email: 'store-contract@example.com' }
export const warnings: string[] = []
export const write = { author, warn: (message: string) => void warnings.push(message) }
