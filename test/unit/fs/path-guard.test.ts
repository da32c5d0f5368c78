import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { requireInsideWorkspace, resolvesWithin } from '../../../src/fs/path-guard.js'

let base: string | undefined
afterEach(async () => {
  if (base !== undefined) await rm(base, { recursive: true, force: true })
})

async function layout(): Promise<{ root: string; outside: string }> {
  base = await mkdtemp(join(tmpdir(), 'mk-guard-'))
  const root = join(base, 'ws')
  const outside = join(base, 'outside')
  await mkdir(join(root, 'src'), { recursive: true })
  await mkdir(outside)
  await writeFile(join(outside, 'secret'), 'secret\n')
  await symlink(outside, join(root, 'src', 'out_link'))
  await writeFile(join(root, 'src', 'a.ts'), 'a\n')
  return { root, outside }
}

describe('path guard', () => {
  it('issue 11.8: refuses a path that leaves the workspace through a linked folder', async () => {
    const { root } = await layout()
    expect(() => requireInsideWorkspace(root, 'src/out_link/secret', '--files')).toThrow(/--files: .*resolves to .*outside the workspace/)
    expect(() => requireInsideWorkspace(root, 'src/out_link/new-file', '.mkrc check.baseline')).toThrow(/outside the workspace/)
    expect(() => requireInsideWorkspace(root, '../outside/secret', '--files')).toThrow(/is outside the workspace/)
    expect(requireInsideWorkspace(root, 'src/a.ts', '--files')).toBe('src/a.ts')
    expect(requireInsideWorkspace(root, 'src/not-yet/created.json', '.mkrc check.baseline')).toBe('src/not-yet/created.json')
  })

  it('judges files about to be written by the folder they go to', async () => {
    const { root, outside } = await layout()
    const workspace = [{ path: root, name: 'the workspace' }]
    expect(resolvesWithin(workspace, join(root, 'src', 'out_link', 'x.md'))).toBe(false)
    expect(resolvesWithin(workspace, join(root, 'knowledge', 'adr', 'x.md'))).toBe(true)
    expect(resolvesWithin([...workspace, { path: outside, name: 'MK_HOME' }], join(root, 'src', 'out_link', 'x.md'))).toBe(true)
  })
})
