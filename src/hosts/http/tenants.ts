import { existsSync } from 'node:fs'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { loadWorkspace } from '../../config/load.js'
import type { Workspace } from '../../config/workspace.js'
import type { TenantPlaces } from '../../fs/tenant-text.js'
import { MkError } from '../../errors.js'
import { withLock } from '../../fs/lock.js'
import { requireResolvesWithin } from '../../fs/path-guard.js'
import { Resources } from '../../tools/context.js'
import { closeStores } from '../../tools/open-store.js'
import type { DatabasePlace } from '../../stores/store.js'
import { tenantIdPattern } from './routes.js'
import { defaultServeLimits } from './serve-limits.js'

export const defaultTenant = 'default'
/** The scope of a request that names none (seed 002: `(tenant_id, scope)` is the isolation key). */
export const defaultScope = 'default'

/** One tenant's store: its own workspace (knowledge, project memories, index) and MK_HOME (private memories, history). */
export interface TenantStore {
  tenantId: string
  workspace: Workspace
  resources: Resources
  /** The tenant's rows when the server keeps its data in a database (--store); the workspace then holds configuration and knowledge. */
  database?: DatabasePlace | undefined
}

/** A database every tenant's data is kept in (`mk serve --store`), and the most connections a process opens to it. */
export interface StoreDatabase {
  url: string
  poolSize: number
}

export function requireTenantId(value: unknown, origin: string): string {
  if (typeof value === 'string' && tenantIdPattern.test(value)) return value
  throw new MkError('INVALID_INPUT', `${origin}: "${String(value)}" is not a tenant id`, {
    details: {
      field: origin,
      hint: `a tenant id is 1-63 characters: lower-case letters, digits, - and _, starting with a letter or digit (${tenantIdPattern.source})`,
    },
  })
}

/** A scope: a partition inside a tenant, named like a tenant (so also a safe, case-stable folder name). */
export function requireScope(value: unknown): string {
  if (typeof value === 'string' && tenantIdPattern.test(value)) return value
  throw new MkError('INVALID_INPUT', `scope: "${String(value)}" is not a scope name`, {
    details: {
      field: 'scope',
      hint: `a scope is 1-63 characters: lower-case letters, digits, - and _, starting with a letter or digit (${tenantIdPattern.source}); omit it for "${defaultScope}"`,
    },
  })
}

/**
 * Where tenants live. With a data folder each tenant has `<data>/tenants/<id>/workspace`
 * (knowledge, project memories, index; its own `.mkrc`) and `<data>/tenants/<id>/home`
 * (its MK_HOME: private memories and their history): nothing one tenant reads or writes lies in another's folder.
 * Without one, the server serves its own workspace as the only tenant, `default`.
 */
/**
 * Where a tenant's workspace and MK_HOME are, as the layout places them (computed, nothing opened).
 * A scope other than the default is a workspace of its own inside the tenant's MK_HOME:
 * `<home>/scopes/<scope>/workspace` and `<home>/scopes/<scope>/home` (ADR 0028).
 */
export function tenantPlaces(
  layout: { dataDir: string } | { workspace: Pick<Workspace, 'root' | 'mkHome'> },
  tenantId: string,
  scope: string = defaultScope,
): TenantPlaces {
  const tenant =
    'dataDir' in layout
      ? { root: join(layout.dataDir, 'tenants', tenantId, 'workspace'), mkHome: join(layout.dataDir, 'tenants', tenantId, 'home') }
      : { root: layout.workspace.root, mkHome: layout.workspace.mkHome }
  if (scope === defaultScope) return tenant
  const folder = join(tenant.mkHome, 'scopes', scope)
  return { root: join(folder, 'workspace'), mkHome: join(folder, 'home') }
}

/** The key of one store: a tenant, or a scope inside it. */
const storeKey = (tenantId: string, scope: string): string => `${tenantId}/${scope}`

export class TenantStores {
  private readonly stores = new Map<string, Promise<TenantStore>>()

  constructor(
    private readonly layout: { dataDir: string } | { workspace: Workspace },
    private readonly database?: StoreDatabase,
    /** Scopes a tenant may have besides its default one: each is folders on disk and, once opened, an index kept open. */
    private readonly maxScopes: number = defaultServeLimits.maxScopesPerTenant,
  ) {}

  get multiTenant(): boolean {
    return 'dataDir' in this.layout
  }

  open(tenantId: string, scope: string = defaultScope): Promise<TenantStore> {
    const key = storeKey(tenantId, scope)
    const existing = this.stores.get(key)
    if (existing !== undefined) return existing
    const created = scope === defaultScope ? this.create(tenantId) : this.createScope(tenantId, scope)
    const { database } = this
    const opened = database === undefined ? created : created.then((store) => ({ ...store, database: { ...database, tenantId, scope } }))
    this.stores.set(key, opened)
    opened.catch(() => this.stores.delete(key))
    return opened
  }

  /**
   * A scope's store: the tenant's configuration (embedding model, quotas, rules) over a workspace
   * and MK_HOME of the scope's own, inside the tenant's MK_HOME; nothing of another scope is in it.
   */
  private async createScope(tenantId: string, scope: string): Promise<TenantStore> {
    const tenant = await this.open(tenantId)
    const { root, mkHome } = tenantPlaces(this.layout, tenantId, scope)
    for (const path of [root, mkHome]) requireResolvesWithin([{ path: tenant.workspace.mkHome, name: "the tenant's MK_HOME" }], path, `scope ${scope}`)
    if (!existsSync(root)) await this.makeScopeWithinBound(tenantId, scope, join(tenant.workspace.mkHome, 'scopes'), root)
    await mkdir(root, { recursive: true })
    await mkdir(mkHome, { recursive: true })
    // An empty .mkrc stops any config search at the scope: no file above it configures the scope.
    const config = join(root, '.mkrc')
    if (!existsSync(config)) await writeFile(config, '', { flag: 'wx' }).catch(ignoreExists)
    const workspace: Workspace = { ...tenant.workspace, root, mkHome, stateDir: join(root, relative(tenant.workspace.root, tenant.workspace.stateDir)) }
    return { tenantId, workspace, resources: new Resources() }
  }

  /**
   * Any caller of a tenant names a scope and so makes it: without a bound one key could fill the disk
   * with scope folders and hold an open index per scope in every thread, until no file can be opened for any tenant.
   * Counted and made under the tenant's lock: callers racing on several threads would each count the
   * folders before any of them made one.
   */
  private async makeScopeWithinBound(tenantId: string, scope: string, scopesFolder: string, root: string): Promise<void> {
    await mkdir(scopesFolder, { recursive: true })
    await withLock(join(scopesFolder, '.lock'), { what: `the scopes of tenant "${tenantId}"`, onBusy: 'wait', waitMs: 10_000 }, async () => {
      if (existsSync(root)) return
      const existing = (await readdir(scopesFolder)).filter((name) => !name.startsWith('.'))
      if (existing.length >= this.maxScopes) throw this.scopeLimit(tenantId, scope, existing.length)
      await mkdir(root, { recursive: true })
    })
  }

  private scopeLimit(tenantId: string, scope: string, existing: number): MkError {
    return new MkError('FORBIDDEN', `tenant "${tenantId}" has ${existing} scopes, the most this server keeps: scope "${scope}" is not made`, {
      details: {
        reason: 'scope_limit',
        scope,
        limit: this.maxScopes,
        hint: 'use one of the scopes the tenant has, or ask the operator to raise MK_SERVE_MAX_SCOPES',
      },
    })
  }

  private async create(tenantId: string): Promise<TenantStore> {
    if (!('dataDir' in this.layout)) {
      if (tenantId !== defaultTenant) {
        throw new MkError('NOT_FOUND', `no tenant "${tenantId}": this server serves one workspace, as tenant "${defaultTenant}"`, {
          details: { tenant: tenantId, hint: 'start mk serve with --data DIR to serve a store per tenant' },
        })
      }
      return { tenantId, workspace: this.layout.workspace, resources: new Resources() }
    }
    const { dataDir } = this.layout
    const { root, mkHome } = tenantPlaces(this.layout, tenantId)
    // The id is already safe as a name; a symbolic link planted under tenants/ must not lead elsewhere either.
    for (const path of [root, mkHome]) requireResolvesWithin([{ path: dataDir, name: 'the --data folder' }], path, `tenant ${tenantId}`)
    await mkdir(root, { recursive: true })
    await mkdir(mkHome, { recursive: true })
    // The tenant's own (empty) .mkrc stops the config search here, so no file above the data folder configures a tenant.
    const config = join(root, '.mkrc')
    if (!existsSync(config)) await writeFile(config, '', { flag: 'wx' }).catch(ignoreExists)
    const workspace = await loadWorkspace({ cwd: root, env: { MK_HOME: mkHome } })
    return { tenantId, workspace, resources: new Resources() }
  }

  /** Releases one tenant's indexes and models, every scope's; the next call for it opens them again. */
  async close(tenantId: string): Promise<void> {
    for (const [key, opened] of [...this.stores.entries()]) {
      if (!key.startsWith(storeKey(tenantId, ''))) continue
      this.stores.delete(key)
      const store = await opened.catch(() => undefined)
      await store?.resources.closeAll()
    }
  }

  async closeAll(): Promise<void> {
    const stores = await Promise.allSettled([...this.stores.values()])
    this.stores.clear()
    for (const store of stores) if (store.status === 'fulfilled') await store.value.resources.closeAll()
    if (this.database !== undefined) await closeStores()
  }
}

function ignoreExists(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
}
