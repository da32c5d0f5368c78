import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { validateConfig } from '../../../src/config/load.js'
import type { Workspace } from '../../../src/config/workspace.js'
import { receiptFor, receiptSalt } from '../../../src/memory/receipts.js'

let base: string
const workspaceIn = (name: string): Workspace => ({
  root: join(base, name),
  configPath: undefined,
  config: validateConfig({}, 'test'),
  mkHome: join(base, 'home'),
  stateDir: join(base, name, '.mk'),
})

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'mk-receipts-'))
})
afterEach(() => rm(base, { recursive: true, force: true }))

describe('recall receipts (issue 25, item 3)', () => {
  it('hash the query with a salt of the tenant, so a guessed query cannot be confirmed', async () => {
    const tenantA = workspaceIn('a')
    const saltA = await receiptSalt(tenantA)
    expect(saltA).toHaveLength(32)
    expect(await receiptSalt(tenantA)).toEqual(saltA)
    const saltB = await receiptSalt(workspaceIn('b'))
    expect(saltB).not.toEqual(saltA)
    const query = 'who rotates the staging password'
    const hashA = receiptFor(query, 'a7', [], saltA).query_sha256
    expect(hashA).not.toBe(createHash('sha256').update(query).digest('hex'))
    expect(receiptFor(query, 'a7', [], saltB).query_sha256).not.toBe(hashA)
    expect(receiptFor(query, 'a7', [], saltA).query_sha256).toBe(hashA)
  })

  it('agree on one salt when many first recalls make it at once, and refuse a damaged one', async () => {
    const tenant = workspaceIn('c')
    const salts = await Promise.all(Array.from({ length: 20 }, () => receiptSalt(tenant)))
    for (const salt of salts) expect(salt).toEqual(await readFile(join(tenant.stateDir, 'receipts-salt')))
    await writeFile(join(tenant.stateDir, 'receipts-salt'), 'short')
    await expect(receiptSalt(tenant)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })
})
