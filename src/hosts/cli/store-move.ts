import { existsSync } from 'node:fs'
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { loadWorkspace } from '../../config/load.js'
import type { Workspace } from '../../config/workspace.js'
import { MkError } from '../../errors.js'
import { writeFileAtomic } from '../../fs/atomic-write.js'
import { requireResolvesWithin } from '../../fs/path-guard.js'
import type { DatabasePlace } from '../../stores/store.js'
import { countItems, formatTransfer, parseTransfer, transferFormat, transferVersion, type TenantTransfer, type TransferCounts } from '../../stores/transfer.js'
import { closeStores, openTransfer } from '../../tools/open-store.js'
import { defaultScope, defaultTenant, requireScope, requireTenantId, tenantPlaces } from '../http/tenants.js'

/** Where a tenant is kept, as `--from` / `--to` name it: a database, a `mk serve --data` folder, or the workspace mk runs in. */
export type StoreSpec = { kind: 'postgres'; url: string } | { kind: 'data'; dir: string } | { kind: 'workspace' }

/** The keyword for the workspace mk runs in (and its MK_HOME): what `mk serve` without --data serves as tenant default. */
export const workspaceStore = 'workspace'

export function parseStoreSpec(value: string, flag: string): StoreSpec {
  if (/^postgres(ql)?:\/\//.test(value)) {
    // Never echoed: the URL may hold a password.
    if (!URL.canParse(value)) {
      throw new MkError('INVALID_INPUT', `${flag}: the postgres:// URL does not parse`, {
        details: { field: flag, hint: 'postgres://user:password@host:5432/database (percent-encode special characters in the password)' },
      })
    }
    return { kind: 'postgres', url: value }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new MkError('INVALID_INPUT', `${flag}: only postgres:// URLs name a database`, {
      details: { field: flag, hint: `pass postgres://user@host:5432/database, a mk serve --data folder, or "${workspaceStore}"` },
    })
  }
  return value === workspaceStore ? { kind: 'workspace' } : { kind: 'data', dir: value }
}

/** How output names a store: a database without its user and password, a folder as given. */
export function describeStore(spec: StoreSpec): string {
  if (spec.kind === 'workspace') return 'this workspace'
  if (spec.kind === 'data') return spec.dir
  try {
    const url = new URL(spec.url)
    return `postgres://${url.host}${url.pathname}`
  } catch {
    return 'the postgres:// database'
  }
}

export interface MoveOptions {
  cwd: string
  env: NodeJS.ProcessEnv
  tenant: string | undefined
  scope: string | undefined
  /** Told now and then how many items were read or written (a large tenant takes a while). */
  progress: (message: string) => void
}

/**
 * The workspace a tenant's data belongs to: for a data folder, the tenant's own (made when an
 * import creates the tenant, as `mk serve --data` would); for a database, the workspace mk runs
 * in, which says which knowledge sources exist.
 */
async function tenantWorkspace(spec: StoreSpec, options: MoveOptions, tenant: string, scope: string, create: boolean): Promise<Workspace> {
  if (spec.kind !== 'data') {
    const here = await loadWorkspace({ cwd: options.cwd, env: options.env })
    if (spec.kind === 'workspace' && scope !== defaultScope) {
      const { root, mkHome } = tenantPlaces({ workspace: here }, tenant, scope)
      return scopedWorkspace(here, root, mkHome, create)
    }
    return here
  }
  const dataDir = resolve(options.cwd, spec.dir)
  const info = await stat(dataDir).catch(() => undefined)
  if (info !== undefined && !info.isDirectory())
    throw new MkError('INVALID_INPUT', `${spec.dir} is a file, not a mk serve --data folder`, { details: { field: 'store' } })
  const tenantPlace = tenantPlaces({ dataDir }, tenant)
  for (const path of [tenantPlace.root, tenantPlace.mkHome]) requireResolvesWithin([{ path: dataDir, name: 'the --data folder' }], path, `tenant ${tenant}`)
  if (!existsSync(tenantPlace.root)) {
    if (!create) {
      throw new MkError('NOT_FOUND', `no tenant "${tenant}" in ${spec.dir} (no ${relative(options.cwd, tenantPlace.root) || tenantPlace.root})`, {
        details: { tenant, hint: 'name the --data folder mk serve was started with, and a tenant it serves' },
      })
    }
    await mkdir(tenantPlace.mkHome, { recursive: true })
    await mkdir(tenantPlace.root, { recursive: true })
    // The tenant's own (empty) .mkrc stops the config search here, as mk serve makes it.
    if (!existsSync(join(tenantPlace.root, '.mkrc'))) await writeFile(join(tenantPlace.root, '.mkrc'), '')
  }
  const workspace = await loadWorkspace({ cwd: tenantPlace.root, env: { MK_HOME: tenantPlace.mkHome } })
  if (scope === defaultScope) return workspace
  const { root, mkHome } = tenantPlaces({ dataDir }, tenant, scope)
  return scopedWorkspace(workspace, root, mkHome, create)
}

/** A scope's workspace inside the tenant's MK_HOME, with the tenant's configuration, as mk serve opens it (ADR 0028). */
async function scopedWorkspace(tenant: Workspace, root: string, mkHome: string, create: boolean): Promise<Workspace> {
  if (create) {
    await mkdir(root, { recursive: true })
    await mkdir(mkHome, { recursive: true })
  }
  return { ...tenant, root, mkHome, stateDir: join(root, relative(tenant.root, tenant.stateDir)) }
}

async function openSpec(spec: StoreSpec, options: MoveOptions, create: boolean): Promise<{ transfer: TenantTransfer; tenant: string; scope: string }> {
  const tenant = options.tenant === undefined ? defaultTenant : requireTenantId(options.tenant, '--tenant')
  const scope = options.scope === undefined ? defaultScope : requireScope(options.scope)
  if (spec.kind === 'workspace' && tenant !== defaultTenant) {
    throw new MkError('INVALID_INPUT', `this workspace is one tenant, "${defaultTenant}": --tenant ${tenant} names none`, {
      details: { field: '--tenant', hint: 'leave --tenant out, or name a mk serve --data folder or a postgres:// database' },
    })
  }
  const workspace = await tenantWorkspace(spec, options, tenant, scope, create)
  // A move runs one transaction at a time: two connections are plenty.
  const database: DatabasePlace | undefined = spec.kind === 'postgres' ? { url: spec.url, poolSize: 2, tenantId: tenant, scope } : undefined
  return { transfer: await openTransfer({ workspace, database }), tenant, scope }
}

const every = (what: string, progress: (message: string) => void) => (done: number) => {
  if (done >= 1000) progress(`${what} ${done} items`)
}

export interface MoveReport {
  tenant: string
  scope: string
  store: string
  kind: string
  file: string
  counts: TransferCounts
}

/** `mk store export`: one tenant's data, whole, to a file in the portable form (written atomically). */
export async function exportTenant(spec: StoreSpec, file: string, options: MoveOptions): Promise<MoveReport> {
  try {
    const { transfer, tenant, scope } = await openSpec(spec, options, false)
    const items = await transfer.read(every('read', options.progress))
    const header = { format: transferFormat, version: transferVersion, tenant, scope, from: transfer.kind, exported_at: new Date().toISOString() } as const
    const path = resolve(options.cwd, file)
    await writeFileAtomic(path, `${formatTransfer(header, items).join('\n')}\n`)
    return { tenant, scope, store: describeStore(spec), kind: transfer.kind, file: path, counts: countItems(items) }
  } finally {
    await closeStores()
  }
}

/**
 * `mk store import`: the whole file is read and checked before anything is written; a tenant that
 * holds data is refused (CONFLICT) unless `replace`; PostgreSQL writes it in one transaction.
 */
export async function importTenant(spec: StoreSpec, file: string, options: MoveOptions & { replace: boolean }): Promise<MoveReport> {
  const path = resolve(options.cwd, file)
  let content: string
  try {
    content = await readFile(path, 'utf8')
  } catch {
    throw new MkError('NOT_FOUND', `cannot read ${file}`, { details: { file, hint: 'name a file mk store export wrote' } })
  }
  const { items } = parseTransfer(content)
  try {
    const { transfer, tenant, scope } = await openSpec(spec, options, true)
    if (!options.replace && !(await transfer.isEmpty())) {
      throw new MkError('CONFLICT', `tenant ${tenant} (scope ${scope}) in ${describeStore(spec)} already holds data; nothing was imported`, {
        details: { tenant, scope, hint: 'import into an empty tenant, or pass --replace to drop what it holds first' },
      })
    }
    await transfer.write(items, { replace: options.replace, progress: every('written', options.progress) })
    return { tenant, scope, store: describeStore(spec), kind: transfer.kind, file: path, counts: countItems(items) }
  } finally {
    await closeStores()
  }
}

/** One line for a person: what moved, by kind. */
export function describeCounts(counts: TransferCounts): string {
  return Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${count} ${kind}`)
    .join(', ')
}
