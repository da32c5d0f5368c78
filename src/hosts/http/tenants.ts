import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { loadWorkspace } from '../../config/load.js'
import type { Workspace } from '../../config/workspace.js'
import type { TenantPlaces } from '../../fs/tenant-text.js'
import { MkError } from '../../errors.js'
import { requireResolvesWithin } from '../../fs/path-guard.js'
import { Resources } from '../../tools/context.js'
import { tenantIdPattern } from './routes.js'

export const defaultTenant = 'default'

/** One tenant's store: its own workspace (knowledge, project memories, index) and MK_HOME (private memories, history). */
export interface TenantStore {
  tenantId: string
  workspace: Workspace
  resources: Resources
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

/**
 * Where tenants live. With a data folder each tenant has `<data>/tenants/<id>/workspace`
 * (knowledge, project memories, index; its own `.mkrc`) and `<data>/tenants/<id>/home`
 * (its MK_HOME: private memories and their history): nothing one tenant reads or writes lies in another's folder.
 * Without one, the server serves its own workspace as the only tenant, `default`.
 */
/** Where a tenant's workspace and MK_HOME are, as the layout places them (computed, nothing opened). */
export function tenantPlaces(layout: { dataDir: string } | { workspace: Pick<Workspace, 'root' | 'mkHome'> }, tenantId: string): TenantPlaces {
  if (!('dataDir' in layout)) return { root: layout.workspace.root, mkHome: layout.workspace.mkHome }
  const folder = join(layout.dataDir, 'tenants', tenantId)
  return { root: join(folder, 'workspace'), mkHome: join(folder, 'home') }
}

export class TenantStores {
  private readonly stores = new Map<string, Promise<TenantStore>>()

  constructor(private readonly layout: { dataDir: string } | { workspace: Workspace }) {}

  get multiTenant(): boolean {
    return 'dataDir' in this.layout
  }

  open(tenantId: string): Promise<TenantStore> {
    const existing = this.stores.get(tenantId)
    if (existing !== undefined) return existing
    const opened = this.create(tenantId)
    this.stores.set(tenantId, opened)
    opened.catch(() => this.stores.delete(tenantId))
    return opened
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

  /** Releases one tenant's index and model; the next call for it opens them again. */
  async close(tenantId: string): Promise<void> {
    const opened = this.stores.get(tenantId)
    if (opened === undefined) return
    this.stores.delete(tenantId)
    const store = await opened.catch(() => undefined)
    await store?.resources.closeAll()
  }

  async closeAll(): Promise<void> {
    const stores = await Promise.allSettled([...this.stores.values()])
    this.stores.clear()
    for (const store of stores) if (store.status === 'fulfilled') await store.value.resources.closeAll()
  }
}

function ignoreExists(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
}
