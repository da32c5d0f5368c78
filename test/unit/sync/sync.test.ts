import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import type { SyncOptions } from '../../../src/sync/report.js'
import { syncKnowledge } from '../../../src/sync/sync.js'
import { startGitServer, type GitServer } from '../../helpers/git-server.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

function item(id: string, type: string, status = 'accepted'): string {
  return ['---', `id: ${id}`, `type: ${type}`, `title: ${id}`, `status: ${status}`, '---', `# ${id}`, ''].join('\n')
}

const options: SyncOptions = { force: false, types: undefined, layers: undefined, env: {}, timeoutMs: 10_000, warn: () => undefined }

let server: GitServer
const cleanups: TempWorkspace[] = []

beforeAll(async () => {
  server = await startGitServer()
})
afterAll(async () => {
  await server.close()
  await Promise.all(cleanups.map((workspace) => workspace.cleanup()))
})

async function setUp(mkrc: string, files: Record<string, string>): Promise<{ temp: TempWorkspace; load: () => ReturnType<typeof loadWorkspace> }> {
  const temp = await makeWorkspace({ '.mkrc': mkrc, ...files })
  cleanups.push(temp)
  return { temp, load: () => loadWorkspace({ cwd: temp.root, env: { MK_HOME: temp.mkHome } }) }
}

describe('syncKnowledge', () => {
  test('types and layers limit what is processed; the rest waits for a later sync', async () => {
    const remote = await server.createRepo('filters', { 'adr/a.md': item('adr-a', 'adr'), 'policy/p.md': item('pol-p', 'policy') })
    const { load } = await setUp(
      `knowledge:\n  sources:\n    - {name: project, layer: project, path: knowledge}\n    - {name: company, layer: company, url: "${remote.url}"}\n`,
      { 'knowledge/adr/local.md': item('adr-local', 'adr') },
    )
    const onlyCompany = await syncKnowledge(await load(), { ...options, layers: ['company'], types: ['adr'] })
    expect(onlyCompany.sources.map((source) => source.name)).toEqual(['company'])
    expect(onlyCompany.changes.map((change) => change.id)).toEqual(['adr-a'])
    expect(onlyCompany.reparsed).toBe(2)

    const rest = await syncKnowledge(await load(), options)
    expect(rest.changes.map((change) => `${change.change} ${change.id ?? ''}`).sort()).toEqual(['added adr-local', 'added pol-p'])
    expect(rest.unchanged).toBe(1)
  })

  test('a source removed from the config reports its items deleted; a changed layer re-processes the source', async () => {
    const { temp, load } = await setUp(
      'knowledge:\n  sources:\n    - {name: project, layer: project, path: knowledge}\n    - {name: team, layer: team, path: team}\n',
      {
        'knowledge/adr/a.md': item('adr-a', 'adr'),
        'team/policy/t.md': item('pol-t', 'policy'),
      },
    )
    await syncKnowledge(await load(), options)
    await temp.write('.mkrc', 'knowledge:\n  sources:\n    - {name: project, layer: org, path: knowledge}\n')
    const report = await syncKnowledge(await load(), options)
    expect(report.deletedIds).toEqual(['pol-t'])
    expect(report.sources.map((source) => `${source.name}:${source.action}`)).toEqual(['project:scanned', 'team:removed'])
    expect(report.reparsed).toBe(1)
    expect(report.items.map((parsed) => `${parsed.id}@${parsed.layer}`)).toEqual(['adr-a@org'])
  })

  test('a status change is reported with the status before and after', async () => {
    const remote = await server.createRepo('statuses', { 'adr/a.md': item('adr-a', 'adr') })
    const { load } = await setUp(`knowledge:\n  sources:\n    - {name: company, layer: company, url: "${remote.url}", ref: main}\n`, {})
    await syncKnowledge(await load(), options)
    await remote.commit({ 'adr/a.md': item('adr-a', 'adr', 'superseded') })
    const report = await syncKnowledge(await load(), options)
    expect(report.changes).toEqual([expect.objectContaining({ id: 'adr-a', change: 'updated', statusBefore: 'accepted', statusAfter: 'superseded' })])
  })

  test('a missing branch is NOT_FOUND and lists the branches there are', async () => {
    const remote = await server.createRepo('branches', { 'adr/a.md': item('adr-a', 'adr') })
    const { load } = await setUp(`knowledge:\n  sources:\n    - {name: company, layer: company, url: "${remote.url}", ref: nope}\n`, {})
    const report = await syncKnowledge(await load(), options)
    expect(report.failures).toEqual([expect.objectContaining({ source: 'company', errorCode: 'NOT_FOUND', hint: 'set ref to one of: main' })])
  })

  test('a tag as ref: clones the tagged commit and moves when the tag does', async () => {
    const remote = await server.createRepo('tags', { 'adr/a.md': item('adr-a', 'adr') })
    await remote.tag('v1')
    const tagged = await remote.head()
    await remote.commit({ 'adr/b.md': item('adr-b', 'adr') })
    const { load } = await setUp(`knowledge:\n  sources:\n    - {name: company, layer: company, url: "${remote.url}", ref: v1}\n`, {})
    const first = await syncKnowledge(await load(), options)
    expect(first.failures).toEqual([])
    expect(first.sources[0]).toMatchObject({ action: 'cloned', commit: tagged })
    expect(first.changes.map((change) => change.id)).toEqual(['adr-a'])
    await remote.tag('v2')
    const workspace = await load()
    const moved = await syncKnowledge(
      { ...workspace, config: { ...workspace.config, knowledge: { sources: [{ name: 'company', layer: 'company', url: remote.url, ref: 'v2' }] } } },
      options,
    )
    expect(moved.failures).toEqual([])
    expect(moved.sources[0]).toMatchObject({ action: 'updated', commit: await remote.head() })
    expect(moved.changes.map((change) => change.id)).toEqual(['adr-b'])
  })
})
