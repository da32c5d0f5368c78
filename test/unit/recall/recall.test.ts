import { afterEach, describe, expect, it } from 'vitest'
import { ordersInPostgresAdr } from '../../fixtures/orders-adr.js'
import { loadWorkspace } from '../../../src/config/load.js'
import { openMk } from '../../../src/hosts/library/index.js'
import { recall, type RecallRequest } from '../../../src/recall/recall.js'
import { searchMemories } from '../../../src/recall/search-memories.js'
import { openFilesStore } from '../../../src/stores/files/files-store.js'
import { Resources } from '../../../src/tools/context.js'
import { loadTokenCounter } from '../../../src/token-count.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

let workspace: TempWorkspace | undefined
let resources: Resources | undefined
afterEach(async () => {
  await resources?.closeAll()
  await workspace?.cleanup()
  resources = undefined
  workspace = undefined
})

const request = (query: string): RecallRequest => ({
  query,
  layers: undefined,
  limit: 30,
  hops: 2,
  maxNodes: 50,
  maxEdges: 100,
  tokenBudget: 1200,
  identity: { agentId: undefined, sessionId: undefined },
  consumer: { agentId: undefined, teamId: undefined },
  debug: true,
  embeddings: false,
})

describe('recall, the use case', () => {
  it('returns the seed memory, the knowledge it refs, and a cited context, without a tool around it', async () => {
    workspace = await makeWorkspace({ 'knowledge/adr/adr-0001-use-postgres.md': ordersInPostgresAdr })
    const env = { MK_HOME: workspace.mkHome }
    const mk = await openMk({ cwd: workspace.root, env })
    const added = await mk.memoryAdd({ content: 'The orders table lives in Postgres', layer: 'project', refs: ['adr-0001-use-postgres'] })
    await mk.close()

    const loaded = await loadWorkspace({ cwd: workspace.root, env })
    const warnings: string[] = []
    const warn = (message: string): void => void warnings.push(message)
    resources = new Resources()
    const recalled = await recall(request('orders table'), {
      workspace: loaded,
      readOnly: true,
      store: openFilesStore({ workspace: loaded, resources }),
      countTokens: loadTokenCounter(),
      warn,
      signal: new AbortController().signal,
    })

    expect(recalled.seeds.map((seed) => seed.node.id)).toEqual([added.memoryId])
    expect(recalled.nodes.map((node) => node.id).sort()).toEqual([added.memoryId, 'adr-0001-use-postgres'].sort())
    expect(recalled.edges).toContainEqual(expect.objectContaining({ from_id: added.memoryId, to_id: 'adr-0001-use-postgres', type: 'refs' }))
    expect(recalled.context.items).toEqual([added.memoryId, 'adr-0001-use-postgres'])
    expect(recalled.context.tokens).toBeGreaterThan(0)
    expect(recalled.debug).toMatchObject({ seed_count: 1 })
    expect(recalled.debug?.embeddings).toBeUndefined()
  })
})

describe('searchMemories, the use case', () => {
  it('finds a fact once across layers, counts the matches and warns of a layer not visible here', async () => {
    workspace = await makeWorkspace()
    const env = { MK_HOME: workspace.mkHome }
    const mk = await openMk({ cwd: workspace.root, env })
    await mk.memoryAdd({ content: 'Invoices are archived after seven years', layer: 'project' })
    const user = await mk.memoryAdd({ content: 'Invoices are archived after seven years', layer: 'user' })
    await mk.close()

    const loaded = await loadWorkspace({ cwd: workspace.root, env })
    const warnings: string[] = []
    const warn = (message: string): void => void warnings.push(message)
    resources = new Resources()
    const found = await searchMemories(
      {
        query: 'invoices archived',
        layers: ['project', 'user', 'agent'],
        tiers: ['hot', 'warm'],
        tags: undefined,
        threshold: 0,
        limit: 10,
        candidates: 1000,
        identity: { agentId: undefined, sessionId: undefined },
        consumer: { agentId: undefined, teamId: undefined },
      },
      {
        workspace: loaded,
        store: openFilesStore({ workspace: loaded, resources }),
        warn,
        progress: () => undefined,
        signal: new AbortController().signal,
      },
    )
    expect(found.results.map((result) => result.memoryId)).toEqual([user.memoryId])
    expect(found.results[0]?.shadows.map((shadow) => shadow.layer)).toEqual(['project'])
    expect(found.totalCount).toBe(1)
    expect(found.searchedLayers.sort()).toEqual(['project', 'user'])
    expect(warnings.some((warning) => warning.startsWith('the agent layer is not visible here'))).toBe(true)
  })
})
