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
let resources: Resources
const runtime = runtimeEnvFrom({})

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'mk-memory-weight-'))
  resources = new Resources()
})
afterEach(async () => {
  await resources.closeAll()
  await rm(base, { recursive: true, force: true })
})

/** A workspace with this search config, whose index holds a model that reads "zorblat" as "quixel". */
async function workspaceWith(search: Record<string, unknown>): Promise<Workspace> {
  const workspace = {
    root: join(base, 'ws'),
    configPath: undefined,
    config: validateConfig({ search }, 'test'),
    mkHome: join(base, 'home'),
    stateDir: join(base, 'ws', '.mk'),
  }
  const embedder = wordEmbedder({ synonyms: { zorblat: 'quixel' } })
  await resources.get(
    'search-index',
    async () => openIndex(indexPathOf(workspace), { embedder }),
    (index) => index.close(),
  )
  return workspace
}

async function call(workspace: Workspace, tool: typeof memoryAdd | typeof memorySearch, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const outcome = await dispatch(tool, input, { workspace, env: {}, cwd: workspace.root, runtime, style: plainStyle, resources })
  if (!outcome.ok) throw new Error(outcome.error.message)
  return outcome.output as Record<string, unknown>
}

describe('memory_search fusion weight', () => {
  it('ranks memories with search.memoryTextWeight, not the documents weight search.textWeight', async () => {
    const workspace = await workspaceWith({ textWeight: 1, memoryTextWeight: 0 })
    await call(workspace, memoryAdd, { content: 'quixel notes from the retro' })
    const byMeaning = await call(workspace, memoryAdd, { content: 'zorblat' })
    const found = (await call(workspace, memorySearch, { query: 'quixel', threshold: 0 })) as { results: { memoryId: string }[] }
    // Meaning alone ranks the memory that shares no word with the query first.
    expect(found.results[0]?.memoryId).toBe(byMeaning.memoryId)
  })

  it('defaults to 0.7 for memories and 0.8 for documents', () => {
    expect(validateConfig({}, 'test').search).toMatchObject({ textWeight: 0.8, memoryTextWeight: 0.7 })
  })
})
