import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { knowledgeSignature } from '../../../src/stores/files/indexing/refresh.js'
import type { StoredDocument } from '../../../src/search/documents.js'
import { openFilesStore } from '../../../src/stores/files/files-store.js'
import { runSync } from '../../../src/sync/run.js'
import { Resources } from '../../../src/tools/context.js'
import { startGitServer, type GitServer } from '../../helpers/git-server.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

function item(id: string, title: string, status = 'accepted'): string {
  return ['---', `id: ${id}`, 'type: adr', `title: ${title}`, `status: ${status}`, '---', `# ${title}`, ''].join('\n')
}

let server: GitServer
let temp: TempWorkspace
beforeAll(async () => {
  server = await startGitServer()
})
afterAll(async () => {
  await server.close()
  await temp.cleanup()
})

describe('sync keeps the search index fresh with only the changed items', () => {
  test('upstream updates, deletions and un-shadowed items reach the index, and it stays fresh', async () => {
    const remote = await server.createRepo('reindex', {
      'adr/a.md': item('adr-a', 'Alpha'),
      'adr/shared.md': item('adr-shared', 'Company version'),
      'adr/b.md': item('adr-b', 'Beta'),
    })
    temp = await makeWorkspace({
      '.mkrc': [
        'knowledge:',
        '  sources:',
        '    - {name: project, layer: project, path: knowledge}',
        `    - {name: company, layer: company, url: "${remote.url}"}`,
        'search: {embedding: {provider: none}}',
        '',
      ].join('\n'),
      'knowledge/adr/shared.md': item('adr-shared', 'Project version'),
    })
    const workspace = await loadWorkspace({ cwd: temp.root, env: { MK_HOME: temp.mkHome } })
    const identity = { agentId: undefined, sessionId: undefined }
    const resources = new Resources()
    const store = openFilesStore({ workspace, resources })
    const index = await store.index.open(() => undefined)
    const doc = async (id: string): Promise<StoredDocument | undefined> => (await index.getMany([id]))[0]
    const options = {
      force: false,
      types: undefined,
      layers: undefined,
      env: {},
      timeoutMs: 5_000,
      warn: () => undefined,
      identity,
      store,
    }
    try {
      await runSync(workspace, options)
      await store.index.refresh({ identity, memory: false, warn: () => undefined })
      expect((await doc('adr-shared'))?.title).toBe('Project version')

      await remote.commit({ 'adr/a.md': item('adr-a', 'Alpha', 'deprecated'), 'adr/b.md': null })
      const upstream = await runSync(workspace, options)
      expect(upstream.report.reparsed).toBe(1)
      expect(upstream.reindex).toEqual({ upserted: 1, removed: 1, keptFresh: true })
      expect((await doc('adr-a'))?.status).toBe('deprecated')
      expect(await doc('adr-b')).toBeUndefined()
      expect(index.state('knowledge')).toBe(await knowledgeSignature(workspace))

      // A local edit made before the sync: the index cannot vouch for the rest, so the next search re-reads everything.
      await rm(join(temp.root, 'knowledge', 'adr', 'shared.md'))
      const local = await runSync(workspace, options)
      expect(local.reindex).toEqual({ upserted: 1, removed: 0, keptFresh: false })
      expect((await doc('adr-shared'))?.title).toBe('Company version')
    } finally {
      await resources.closeAll()
    }
  })
})
