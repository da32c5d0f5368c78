import { mkdir, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { runtimeEnvFrom } from '../../../src/config/workspace.js'
import { plainStyle } from '../../../src/style.js'
import { currentManifest } from '../../../src/tools/catalog/registered.js'
import { Resources } from '../../../src/tools/context.js'
import { dispatch } from '../../../src/tools/dispatcher.js'
import { allowedPaths, pathFields } from '../../../src/tools/path-access.js'
import { tools } from '../../../src/tools/registry.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

/* Seed 004's allowed_paths: every path a caller gives a tool is held to the folders the manifest lists, before the tool runs. */

let workspace: TempWorkspace | undefined
afterEach(async () => {
  await workspace?.cleanup()
  workspace = undefined
})

async function call(name: string, input: Record<string, unknown>): Promise<{ errorCode?: string; message?: string; details?: Record<string, unknown> }> {
  workspace ??= await makeWorkspace({ '.mkrc': '', 'knowledge/.keep': '' })
  const tool = tools.find((candidate) => candidate.name === name)
  if (tool === undefined) throw new Error(`no tool ${name}`)
  const outcome = await dispatch(tool, input, {
    workspace: await loadWorkspace({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } }),
    env: {},
    cwd: workspace.root,
    runtime: runtimeEnvFrom({}),
    style: plainStyle,
    resources: new Resources(),
  })
  return outcome.ok ? {} : outcome.error
}

describe('allowed_paths', () => {
  it('lists, for every tool that takes paths, the folders its fields are held to', async () => {
    const manifest = await currentManifest()
    for (const entry of manifest.tools) expect(entry.constraints.allowed_paths, entry.name).toEqual(allowedPaths(entry))
    const takingPaths = tools.filter((tool) => pathFields(tool).length > 0).map((tool) => tool.name)
    expect(takingPaths.sort()).toEqual(['knowledge_check', 'rules_export_write', 'rules_upsert_markdown', 'site_build'])
  })

  it.each([
    ['knowledge_check', { files: [{ path: '../outside.ts', content: 'x' }] }, 'files[0].path'],
    ['knowledge_check', { paths: ['/etc/passwd'] }, 'paths[0]'],
    ['rules_upsert_markdown', { documents: [{ path: 'AGENTS.md' }, { path: '../../etc/hosts' }] }, 'documents[1].path'],
    ['rules_export_write', { format: 'agents-md', out: '../elsewhere' }, 'out'],
    ['site_build', { out: '/tmp/mk-site-escape' }, 'out'],
  ])('%s refuses a path out of its folders, naming the field %s', async (name, input, field) => {
    const error = await call(name, input)
    expect(error.errorCode).toBe('INVALID_INPUT')
    expect(error.message).toContain(`${name} input ${field} (allowed_paths)`)
    // The path as written, never where it leads: a team server's other tenants live beside this one.
    expect(error.message).toMatch(/: path ".*" is outside the workspace /)
  })

  it('refuses a path that leads out through a symbolic link, and lets MK_HOME through where listed', async () => {
    workspace = await makeWorkspace({ '.mkrc': '', 'knowledge/.keep': '' })
    await mkdir(workspace.mkHome, { recursive: true })
    await symlink(join(workspace.mkHome, '..'), join(workspace.root, 'link-out'))
    const escaped = await call('rules_export_write', { format: 'agents-md', out: 'link-out/x' })
    expect(escaped.message).toContain('rules_export_write input out (allowed_paths)')
    const site = await call('site_build', { out: join(workspace.mkHome, 'site') })
    expect(site.message ?? '').not.toContain('allowed_paths')
  })
})
