import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { TenantStores } from '../../../src/hosts/http/tenants.js'

let folders: string[] = []
async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'mk-tenants-'))
  folders.push(folder)
  return folder
}

afterEach(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true })
  folders = []
})

describe('TenantStores', () => {
  it('gives each tenant its own workspace and MK_HOME under the data folder, opened once', async () => {
    const data = await tempFolder()
    // A config above the tenant (here an invalid one) must not configure it.
    await writeFile(join(data, '.mkrc'), 'not_a_setting: true\n')
    const stores = new TenantStores({ dataDir: data })
    const a = await stores.open('team-a')
    const b = await stores.open('team-b')
    expect(a.workspace.root).toBe(join(data, 'tenants', 'team-a', 'workspace'))
    expect(a.workspace.mkHome).toBe(join(data, 'tenants', 'team-a', 'home'))
    expect(a.workspace.configPath).toBe(join(data, 'tenants', 'team-a', 'workspace', '.mkrc'))
    expect(b.workspace.root).toBe(join(data, 'tenants', 'team-b', 'workspace'))
    expect(b.resources).not.toBe(a.resources)
    expect(await stores.open('team-a')).toBe(a)
    expect((await readdir(join(data, 'tenants'))).sort()).toEqual(['team-a', 'team-b'])
    await stores.closeAll()
  })

  it('gives each scope of a tenant a workspace and MK_HOME of its own inside the tenant’s MK_HOME, with the tenant’s config', async () => {
    const data = await tempFolder()
    const stores = new TenantStores({ dataDir: data })
    const tenant = await stores.open('team-a')
    const blue = await stores.open('team-a', 'blue')
    const scopes = join(data, 'tenants', 'team-a', 'home', 'scopes')
    expect(blue.workspace.root).toBe(join(scopes, 'blue', 'workspace'))
    expect(blue.workspace.mkHome).toBe(join(scopes, 'blue', 'home'))
    expect(blue.workspace.stateDir).toBe(join(scopes, 'blue', 'workspace', '.mk'))
    expect(blue.workspace.config).toBe(tenant.workspace.config)
    expect(blue.resources).not.toBe(tenant.resources)
    expect(await stores.open('team-a', 'default')).toBe(tenant)
    expect(await stores.open('team-a', 'blue')).toBe(blue)
    await stores.close('team-a')
    expect(await stores.open('team-a', 'blue')).not.toBe(blue)
    await stores.closeAll()
  })

  it('makes no more scopes of a tenant than its bound, and still opens the ones it has', async () => {
    const data = await tempFolder()
    const stores = new TenantStores({ dataDir: data }, undefined, 2)
    await stores.open('team-a', 'blue')
    await stores.open('team-a', 'green')
    await expect(stores.open('team-a', 'red')).rejects.toMatchObject({ code: 'FORBIDDEN', details: { reason: 'scope_limit', limit: 2 } })
    expect((await readdir(join(data, 'tenants', 'team-a', 'home', 'scopes'))).sort()).toEqual(['blue', 'green'])
    await stores.close('team-a')
    expect((await stores.open('team-a', 'green')).workspace.root).toBe(join(data, 'tenants', 'team-a', 'home', 'scopes', 'green', 'workspace'))
    expect((await stores.open('team-b', 'red')).tenantId).toBe('team-b')
    await stores.closeAll()
  })

  it('keeps the bound when many callers, on several threads, name new scopes at once', async () => {
    const data = await tempFolder()
    // Each tool thread of a server has stores of its own over the same folders.
    const threads = [new TenantStores({ dataDir: data }, undefined, 2), new TenantStores({ dataDir: data }, undefined, 2)]
    await Promise.all(threads.map((stores) => stores.open('team-a')))
    const scopes = ['blue', 'green', 'red', 'teal', 'amber', 'coral']
    const outcomes = await Promise.allSettled(scopes.map((scope, index) => (threads[index % 2] as TenantStores).open('team-a', scope)))
    const made = (await readdir(join(data, 'tenants', 'team-a', 'home', 'scopes'))).filter((name) => !name.startsWith('.'))
    expect(made).toHaveLength(2)
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(2)
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'scope_limit' } })
    }
    await Promise.all(threads.map((stores) => stores.closeAll()))
  })

  it('refuses a scope whose folder a planted link leads out of the tenant', async () => {
    const data = await tempFolder()
    const outside = await tempFolder()
    const stores = new TenantStores({ dataDir: data })
    await stores.open('team-a')
    await mkdir(join(data, 'tenants', 'team-a', 'home', 'scopes'), { recursive: true })
    await symlink(outside, join(data, 'tenants', 'team-a', 'home', 'scopes', 'blue'))
    await expect(stores.open('team-a', 'blue')).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('outside') })
    await stores.closeAll()
  })

  it('closes one tenant’s resources and opens it afresh on its next call, leaving the others open', async () => {
    const data = await tempFolder()
    const stores = new TenantStores({ dataDir: data })
    const a = await stores.open('team-a')
    const b = await stores.open('team-b')
    let closedA = 0
    await a.resources.get(
      'probe',
      async () => 'open',
      () => void closedA++,
    )
    await stores.close('team-a')
    expect(closedA).toBe(1)
    const reopened = await stores.open('team-a')
    expect(reopened).not.toBe(a)
    expect(reopened.workspace.root).toBe(a.workspace.root)
    expect(await stores.open('team-b')).toBe(b)
    await stores.close('team-never-opened')
    await stores.closeAll()
  })

  it('refuses a tenant folder that a symbolic link leads out of the data folder', async () => {
    const data = await tempFolder()
    const elsewhere = await tempFolder()
    await mkdir(join(data, 'tenants'), { recursive: true })
    await symlink(elsewhere, join(data, 'tenants', 'team-x'))
    await expect(new TenantStores({ dataDir: data }).open('team-x')).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    expect(await readdir(elsewhere)).toEqual([])
  })

  it('without a data folder serves its own workspace as tenant default and knows no other', async () => {
    const root = await tempFolder()
    const workspace = await loadWorkspace({ cwd: root, env: { MK_HOME: join(root, 'home') } })
    const stores = new TenantStores({ workspace })
    expect((await stores.open('default')).workspace).toBe(workspace)
    await expect(stores.open('team-a')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
