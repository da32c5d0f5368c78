import { afterEach, describe, expect, expectTypeOf, it } from 'vitest'
import { ordersInPostgresAdr } from '../../../fixtures/orders-adr.js'
import type { CallOptions, MkTools } from '../../../../src/hosts/library/api.js'
import { MkError, openMk, type Mk } from '../../../../src/hosts/library/index.js'
import { methodName } from '../../../../src/hosts/library/method-name.js'
import { tools } from '../../../../src/tools/registry.js'
import { gitInit, makeWorkspace, type TempWorkspace } from '../../../helpers/workspace.js'

let workspace: TempWorkspace | undefined
let mk: Mk | undefined
afterEach(async () => {
  await mk?.close()
  await workspace?.cleanup()
  mk = undefined
  workspace = undefined
})

async function open(options: { readOnly?: boolean } = {}): Promise<Mk> {
  workspace = await makeWorkspace({ 'knowledge/adr/adr-0001-use-postgres.md': ordersInPostgresAdr })
  await gitInit(workspace.root)
  mk = await openMk({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome }, ...options })
  return mk
}

describe('openMk', () => {
  it('has one method per registered tool and nothing else but call and close', async () => {
    const library = await open()
    const methods = Object.keys(library).filter((key) => key !== 'call' && key !== 'close')
    expect(methods.sort()).toEqual(tools.map((tool) => methodName(tool.name)).sort())
    // Two tool names must never collapse into one method name.
    expect(new Set(methods).size).toBe(tools.length)
    expectTypeOf<MkTools['memorySearch']>().parameter(0).toHaveProperty('query')
    expectTypeOf<Awaited<ReturnType<MkTools['memoryAdd']>>>().toHaveProperty('memoryId')
    // A tool that needs no field is called without an input.
    expectTypeOf<Parameters<MkTools['init']>>().toEqualTypeOf<[input?: Record<string, never>, options?: CallOptions]>()
  })

  it('adds, searches and reports a bad input as a typed MkError with its code', async () => {
    const library = await open()
    const added = await library.memoryAdd({ content: 'The billing service retries webhooks three times', layer: 'project' })
    const found = await library.memorySearch({ query: 'webhook retries' })
    expect(added.memoryId).toMatch(/\S/)
    expect(found.results.map((result) => result.memoryId)).toContain(added.memoryId)
    const failure = await library.memorySearch({ query: 42 } as never).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(MkError)
    expect((failure as MkError).code).toBe('INVALID_INPUT')
  }, 60_000)

  it('calls a tool by its registry name, and names an unknown one NOT_FOUND', async () => {
    const library = await open()
    expect(await library.call('knowledge_list', {})).toEqual(await library.knowledgeList())
    await expect(library.call('knowledge_lsit', {})).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('refuses changes when opened read-only, and every call after close', async () => {
    const library = await open({ readOnly: true })
    await expect(library.memoryAdd({ content: 'a fact' })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    expect((await library.knowledgeList()).items.map((item) => item.id)).toEqual(['adr-0001-use-postgres'])
    await library.close()
    await expect(library.knowledgeList()).rejects.toMatchObject({ code: 'CONFLICT' })
  })
})
