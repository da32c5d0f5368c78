import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startGitServer, type GitServer } from '../helpers/git-server.js'
import { parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

function adr(id: string, title: string, extra: string[] = []): string {
  return ['---', `id: ${id}`, 'type: adr', `title: ${title}`, 'status: accepted', ...extra, '---', `# ${title}`, '', 'Some decision text.', ''].join('\n')
}

interface SyncOutput {
  success: boolean
  result: {
    added: number
    updated: number
    deleted: number
    unchanged: number
    reparsed: number
    failures: { source: string; path?: string; errorCode: string; message: string; retryable: boolean; hint?: string }[]
    changes: { source: string; path: string; id?: string; change: string }[]
  }
  sources: { name: string; action: string; commit?: string; added: number; updated: number; deleted: number; unchanged: number }[]
  message: string
}

function config(sources: string[]): string {
  return ['knowledge:', '  sources:', ...sources].join('\n')
}

let server: GitServer
const workspaces: TempWorkspace[] = []

async function workspaceWith(mkrc: string, files: Record<string, string> = {}): Promise<TempWorkspace> {
  const workspace = await makeWorkspace({ '.mkrc': mkrc, 'knowledge/adr/adr-0001-local.md': adr('adr-0001-local', 'A local decision'), ...files })
  workspaces.push(workspace)
  return workspace
}

async function sync(workspace: TempWorkspace, args: string[] = [], env: Record<string, string | undefined> = {}): Promise<{ output: SyncOutput; exitCode: number; stderr: string }> {
  const run = await runMk(['sync', '--json', ...args], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome, ...env } })
  return { output: parseJson<SyncOutput>(run), exitCode: run.exitCode, stderr: run.stderr }
}

beforeAll(async () => {
  server = await startGitServer()
})

afterAll(async () => {
  await server.close()
  await Promise.all(workspaces.map((workspace) => workspace.cleanup()))
})

describe('mk sync from a git remote', () => {
  test('clones, then applies added, edited and deleted items, then re-parses nothing when nothing changed', async () => {
    const remote = await server.createRepo('company-a', {
      'decisions/adr-0100-postgres.md': adr('adr-0100-postgres', 'Use PostgreSQL'),
      'decisions/adr-0101-queues.md': adr('adr-0101-queues', 'Use a queue'),
      'decisions/README.md': '# not an item',
      'other/ignored.md': adr('adr-0999-outside', 'Outside the dir'),
    })
    const workspace = await workspaceWith(
      config(['    - {name: project, layer: project, path: knowledge}', `    - {name: company, layer: company, url: "${remote.url}", dir: decisions}`]),
    )

    const first = await sync(workspace)
    expect(first.exitCode).toBe(0)
    expect(first.output.success).toBe(true)
    expect(first.output.result).toMatchObject({ added: 3, updated: 0, deleted: 0, unchanged: 0, reparsed: 3, failures: [] })
    const company = first.output.sources.find((source) => source.name === 'company')
    expect(company).toMatchObject({ action: 'cloned', commit: await remote.head(), added: 2 })

    const listed = parseJson<{ items: { id: string; layer: string }[] }>(
      await runMk(['knowledge', 'list', '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } }),
    )
    expect(listed.items.map((item) => `${item.id}@${item.layer}`).sort()).toEqual(['adr-0001-local@project', 'adr-0100-postgres@company', 'adr-0101-queues@company'])

    const second = await remote.commit({
      'decisions/adr-0100-postgres.md': adr('adr-0100-postgres', 'Use PostgreSQL 16'),
      'decisions/adr-0101-queues.md': null,
      'decisions/adr-0102-logging.md': adr('adr-0102-logging', 'Structured logging'),
      'decisions/adr-0103-tracing.md': adr('adr-0103-tracing', 'Tracing'),
    })
    const update = await sync(workspace)
    expect(update.output.result).toMatchObject({ added: 2, updated: 1, deleted: 1, unchanged: 1, reparsed: 3 })
    expect(update.output.sources.find((source) => source.name === 'company')).toMatchObject({ action: 'updated', commit: second })
    expect(update.output.result.changes.map((change) => `${change.change} ${change.id ?? ''}`).sort()).toEqual([
      'added adr-0102-logging',
      'added adr-0103-tracing',
      'deleted adr-0101-queues',
      'updated adr-0100-postgres',
    ])

    const again = await sync(workspace)
    expect(again.output.result).toMatchObject({ added: 0, updated: 0, deleted: 0, unchanged: 4, reparsed: 0 })
    expect(again.output.sources.find((source) => source.name === 'company')?.action).toBe('unchanged')

    const forced = await sync(workspace, ['--force'])
    expect(forced.output.result).toMatchObject({ added: 0, updated: 0, deleted: 0, unchanged: 4, reparsed: 4 })
  })
})
