import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { validateConfig } from '../../../src/config/load.js'
import { runtimeEnvFrom, type Workspace } from '../../../src/config/workspace.js'
import { openIndex } from '../../../src/search/search-index.js'
import { indexPathOf } from '../../../src/stores/files/indexing/index-path.js'
import { Resources } from '../../../src/tools/context.js'
import { dispatch } from '../../../src/tools/dispatcher.js'
import { memoryAdd } from '../../../src/tools/memory/add.js'
import { memorySearch } from '../../../src/tools/memory/search.js'
import { plainStyle } from '../../../src/style.js'
import { wordEmbedder } from '../../helpers/word-embedder.js'

let base: string
let workspace: Workspace
let resources: Resources
let embedder: ReturnType<typeof wordEmbedder>
const runtime = runtimeEnvFrom({})

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'mk-similar-'))
  workspace = {
    root: join(base, 'ws'),
    configPath: undefined,
    config: validateConfig({}, 'test'),
    mkHome: join(base, 'home'),
    stateDir: join(base, 'ws', '.mk'),
  }
  resources = new Resources()
  // A long-lived process (the MCP server) that already holds an index with a loaded model.
  embedder = wordEmbedder()
  await resources.get(
    'search-index',
    async () => openIndex(indexPathOf(workspace), { embedder }),
    (index) => index.close(),
  )
})
afterEach(async () => {
  await resources.closeAll()
  await rm(base, { recursive: true, force: true })
})

async function call(tool: typeof memoryAdd | typeof memorySearch, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const outcome = await dispatch(tool, input, { workspace, env: {}, cwd: workspace.root, runtime, style: plainStyle, resources })
  if (!outcome.ok) throw new Error(outcome.error.message)
  return outcome.output as Record<string, unknown>
}

describe('memory_add in a process whose model is loaded', () => {
  it('lists memories whose embedding is very close as similar', async () => {
    const first = await call(memoryAdd, { content: 'The staging database is read-only on Fridays' })
    expect(first.similar).toEqual([])
    // A search embeds the waiting memories and warms the model.
    await call(memorySearch, { query: 'staging' })
    const second = await call(memoryAdd, { content: 'On Fridays the staging database is read-only!' })
    expect(second.deduplicated).toBe(false)
    expect(second.similar).toEqual([{ memoryId: first.memoryId, content: 'The staging database is read-only on Fridays', score: expect.any(Number) }])
    const unrelated = await call(memoryAdd, { content: 'Lunch is served at noon' })
    expect(unrelated.similar).toEqual([])
  })

  it('embeds the new memory once, as it writes it: nothing waits for the next search to embed it', async () => {
    await call(memoryAdd, { content: 'The staging database is read-only on Fridays' })
    await call(memorySearch, { query: 'staging' })
    const index = await resources.get(
      'search-index',
      () => Promise.reject(new Error('the index is open already')),
      () => undefined,
    )
    const callsBefore = embedder.calls
    const added = await call(memoryAdd, { content: 'Deploys to production need two approvals' })
    expect(embedder.calls - callsBefore).toBe(1)
    expect((index as ReturnType<typeof openIndex>).pendingCount()).toBe(0)
    expect((index as ReturnType<typeof openIndex>).vectorsOf([added.memoryId as string])).toHaveLength(1)
  })
})
