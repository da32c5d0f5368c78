import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

let workspace: TempWorkspace | undefined
afterEach(async () => workspace?.cleanup())

describe('loadWorkspace', () => {
  it('finds .mkrc by walking up and makes its folder the workspace', async () => {
    workspace = await makeWorkspace({ '.mkrc.yaml': 'check:\n  failOn: warn\n' })
    const nested = join(workspace.root, 'a', 'b')
    await mkdir(nested, { recursive: true })
    const ws = await loadWorkspace({ cwd: nested, env: { MK_HOME: '/tmp/mk-home' } })
    expect(ws.root).toBe(workspace.root)
    expect(ws.config.check.failOn).toBe('warn')
    expect(ws.config.knowledge.sources).toEqual([{ name: 'project', layer: 'project', path: 'knowledge' }])
    expect(ws.mkHome).toBe('/tmp/mk-home')
  })

  it('reads JSON config files', async () => {
    workspace = await makeWorkspace({ '.mkrc.json': '{"memory": {"dir": "notes"}}' })
    expect((await loadWorkspace({ cwd: workspace.root, env: {} })).config.memory.dir).toBe('notes')
  })

  it('names the file, key path, expected and found value for a bad value', async () => {
    workspace = await makeWorkspace({ '.mkrc': 'knowledge:\n  sources:\n    - name: p\n      layer: galaxy\n      path: k\n' })
    await expect(loadWorkspace({ cwd: workspace.root, env: {} })).rejects.toThrow(
      /\.mkrc: knowledge\.sources\[0\]\.layer: expected one of "project", "team", "org", "company", received "galaxy"/,
    )
  })

  it('rejects unknown keys by name', async () => {
    workspace = await makeWorkspace({ '.mkrc': 'serach:\n  textWeight: 1\n' })
    await expect(loadWorkspace({ cwd: workspace.root, env: {} })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('serach') })
  })

  it('reports malformed YAML with its line', async () => {
    workspace = await makeWorkspace({ '.mkrc': 'check:\n  ignore: [a\n' })
    await expect(loadWorkspace({ cwd: workspace.root, env: {} })).rejects.toThrow(/\.mkrc:\d+: malformed config/)
  })
})
