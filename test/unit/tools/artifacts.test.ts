import { afterEach, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { runtimeEnvFrom } from '../../../src/config/workspace.js'
import { createToolHost } from '../../../src/hosts/mcp/tool-host.js'
import { plainStyle } from '../../../src/style.js'
import { artifactSchema, artifactsOf, toolsWithArtifacts } from '../../../src/tools/artifacts.js'
import { Resources } from '../../../src/tools/context.js'
import { dispatch, type CallerContext, type DispatchOutcome } from '../../../src/tools/dispatcher.js'
import { tools } from '../../../src/tools/registry.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

/* Seed 001's ToolResult.artifacts: what a call produced (files, memory records), beside its output. */

let workspace: TempWorkspace | undefined
afterEach(async () => {
  await workspace?.cleanup()
  workspace = undefined
})

async function context(): Promise<CallerContext> {
  workspace ??= await makeWorkspace({ '.mkrc': '', 'knowledge/.keep': '' })
  return {
    workspace: await loadWorkspace({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } }),
    env: {},
    cwd: workspace.root,
    runtime: runtimeEnvFrom({}),
    style: plainStyle,
    resources: new Resources(),
  }
}

async function call(name: string, input: Record<string, unknown>, caller?: CallerContext): Promise<Extract<DispatchOutcome, { ok: true }>> {
  const tool = tools.find((candidate) => candidate.name === name)
  if (tool === undefined) throw new Error(`no tool ${name}`)
  const outcome = await dispatch(tool, input, caller ?? (await context()))
  if (!outcome.ok) throw new Error(`${name}: ${outcome.error.message}`)
  return outcome
}

describe('artifacts', () => {
  it('name the memory a call wrote, and nothing when it wrote nothing', async () => {
    const caller = await context()
    const added = await call('memory_add', { content: 'The staging database is read-only on Fridays', layer: 'user' }, caller)
    const memoryId = (added.output as { memoryId: string }).memoryId
    expect(added.artifacts).toEqual([{ kind: 'memory', action: 'created', id: memoryId }])
    const again = await call('memory_add', { content: 'The staging database is read-only on Fridays', layer: 'user' }, caller)
    expect(again.artifacts).toEqual([])
    expect((await call('memory_search', { query: 'staging database' }, caller)).artifacts).toEqual([])
    expect((await call('memory_delete', { memoryId }, caller)).artifacts).toEqual([{ kind: 'memory', action: 'deleted', id: memoryId }])
  })

  it('name the files and knowledge items a call created', async () => {
    const caller = await context()
    const created = await call('knowledge_new', { type: 'adr', title: 'Use Postgres for orders' }, caller)
    const { id, path } = created.output as { id: string; path: string }
    expect(created.artifacts).toEqual([{ kind: 'knowledge_item', action: 'created', id, path }])
    // rules_export_write says `written` for a new or a changed file alike: both are modified here.
    const exported = await call('rules_export_write', { format: 'agents-md' }, caller)
    expect(exported.artifacts).toEqual([{ kind: 'file', action: 'modified', path: 'AGENTS.md' }])
    expect((await call('rules_export_write', { format: 'agents-md' }, caller)).artifacts).toEqual([])
  })

  it('reach an MCP client as the result _meta', async () => {
    const caller = await context()
    const memoryAdd = tools.filter((tool) => tool.name === 'memory_add')
    const host = createToolHost(memoryAdd, caller)
    const result = await host.call('memory_add', { content: 'Orders live in Postgres', layer: 'project' }, {})
    if (result.isError) throw new Error(result.texts.join('\n'))
    expect(result.artifacts).toEqual([{ kind: 'memory', action: 'created', id: result.structuredContent.memoryId }])
    await host.close()
  })

  it('are read from the outputs of registered tools that change state, as their examples show', () => {
    for (const name of toolsWithArtifacts) {
      const tool = tools.find((candidate) => candidate.name === name)
      expect(tool, name).toBeDefined()
      expect(tool?.tier, name).not.toBe('read_only')
      // A dry run (applied: false) changes nothing; the same output applied names what it changed.
      const applied = (output: unknown): unknown =>
        typeof output === 'object' && output !== null && 'applied' in output ? { ...output, applied: true } : output
      const reported = (tool?.examples ?? []).flatMap((example) => artifactsOf(name, example.input, applied(example.output)))
      expect(reported.length, `${name}: no example reports an artifact; does the reader still match the output?`).toBeGreaterThan(0)
      for (const artifact of reported) expect(artifactSchema().safeParse(artifact).success, name).toBe(true)
    }
  })
})
