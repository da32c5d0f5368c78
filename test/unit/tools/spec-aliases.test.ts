import { afterEach, describe, expect, it } from 'vitest'
import { ordersInPostgresAdr } from '../../fixtures/orders-adr.js'
import { MkError, openMk, type Mk } from '../../../src/hosts/library/index.js'
import { gitInit, makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

/* Issue 30: the tools accept the names of seeds 000 and 003 beside mk's own. */

let workspace: TempWorkspace | undefined
let mk: Mk | undefined
afterEach(async () => {
  await mk?.close()
  await workspace?.cleanup()
  mk = undefined
  workspace = undefined
})

async function open(): Promise<Mk> {
  workspace = await makeWorkspace({ 'knowledge/adr/adr-0001-use-postgres.md': ordersInPostgresAdr })
  await gitInit(workspace.root)
  mk = await openMk({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
  return mk
}

describe('the specifications’ names as aliases', () => {
  it('knowledge_query takes query (seed 000) as text, and refuses both with different values', async () => {
    const library = await open()
    const byText = await library.knowledgeQuery({ text: 'postgres' })
    const byQuery = await library.knowledgeQuery({ query: 'postgres' })
    expect(byText.items.length).toBeGreaterThan(0)
    expect(byQuery).toEqual(byText)
    const both = await library.knowledgeQuery({ text: 'postgres', query: 'mysql' }).catch((error: unknown) => error)
    expect(both).toBeInstanceOf(MkError)
    expect((both as MkError).message).toContain('query')
  })

  it('knowledge_show takes includeHistory and includeConstraints (seed 000)', async () => {
    const library = await open()
    const id = (await library.knowledgeQuery({ query: 'postgres' })).items[0]?.id ?? ''
    const withHistory = await library.knowledgeShow({ id, includeHistory: true, includeConstraints: false })
    expect(withHistory).toEqual(await library.knowledgeShow({ id, history: true, constraints: false }))
    expect(withHistory).not.toHaveProperty('constraints')
  })

  it('rules_detect_context takes its options object (seed 003)', async () => {
    const library = await open()
    const text = 'add an index to the orders table in the repository layer'
    expect(await library.rulesDetectContext({ text, options: { returnKeywords: false, modeSlug: 'code' } })).toEqual(
      await library.rulesDetectContext({ text, returnKeywords: false, modeSlug: 'code' }),
    )
    expect(await library.rulesDetectContext({ text, options: { returnKeywords: false } })).not.toHaveProperty('keywords')
  })
})
