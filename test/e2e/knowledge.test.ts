import { chmod } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { expectCleanError, parseJson, runMk } from '../helpers/mk.js'
import { gitCommitAll, gitInit, makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'
import { adrToolsConfig, adrToolsRepo, madrConfig, madrRepo, mkRepo } from '../fixtures/adr-repos.js'
import { formatCases } from '../fixtures/adr-formats.js'

let workspace: TempWorkspace | undefined
afterEach(async () => workspace?.cleanup())

async function setup(files: Record<string, string>): Promise<TempWorkspace> {
  workspace = await makeWorkspace(files)
  return workspace
}

function mk(args: string[], extra: { env?: Record<string, string>; uid?: number } = {}) {
  if (workspace === undefined) throw new Error('no workspace')
  return runMk(args, { cwd: workspace.root, env: { MK_HOME: workspace.mkHome, ...extra.env }, ...(extra.uid === undefined ? {} : { uid: extra.uid }) })
}

interface Listed {
  items: { id: string; status: string; type: string; title: string }[]
  totalCount: number
}

describe('mk knowledge list', () => {
  it('lists every item of a MADR repository with its status', async () => {
    await setup({ '.mkrc': madrConfig, ...madrRepo })
    const run = await mk(['knowledge', 'list', '--json'])
    expect(run.exitCode).toBe(0)
    const listed = parseJson<Listed>(run)
    expect(listed.items.map((item) => [item.id, item.status, item.type])).toEqual([
      ['0001-use-markdown-architectural-decision-records', 'accepted', 'adr'],
      ['0002-use-mysql', 'superseded', 'adr'],
      ['0003-use-postgresql', 'accepted', 'adr'],
    ])
  })

  it('lists every item of an adr-tools repository with its status and title', async () => {
    await setup({ '.mkrc': adrToolsConfig, ...adrToolsRepo })
    const listed = parseJson<Listed>(await mk(['knowledge', 'list', '--json']))
    expect(listed.items.map((item) => [item.title, item.status])).toEqual([
      ['Record architecture decisions', 'accepted'],
      ['Use RabbitMQ', 'superseded'],
      ['Use Kafka', 'accepted'],
    ])
  })

  it('prints a plain table without colour codes when not on a terminal', async () => {
    await setup(mkRepo)
    const run = await mk(['knowledge', 'list', '--type', 'adr'])
    expect(run.exitCode).toBe(0)
    expect(run.stdout).toContain('adr-0001-use-postgresql')
    expect(run.stdout).not.toContain('no-eval')
    expect(run.stdout).not.toContain('\u001b[')
  })

  it('logs one JSON line per tool call on stderr with MK_LOG=json', async () => {
    await setup(mkRepo)
    const run = await mk(['knowledge', 'list', '--json'], { env: { MK_LOG: 'json' } })
    const lines = run.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ tool: 'knowledge_list', status: 'ok', request_id: expect.any(String), duration_ms: expect.any(Number) })
    expect(lines[0]).not.toContain('items')
  })
})

describe('mk knowledge query', () => {
  it('matches words case-insensitively over title, tags, summary and body; accepted only by default', async () => {
    await setup(mkRepo)
    const found = parseJson<Listed>(await mk(['knowledge', 'query', 'POSTGRES', '--json']))
    expect(found.items.map((item) => item.id)).toEqual(['adr-0001-use-postgresql'])
    const drafts = parseJson<Listed>(await mk(['knowledge', 'query', 'backoff', '--json']))
    expect(drafts.totalCount).toBe(0)
    const withDrafts = parseJson<Listed>(await mk(['knowledge', 'query', 'backoff', '--status', 'draft', '--json']))
    expect(withDrafts.items.map((item) => item.id)).toEqual(['retry'])
  })

  it('rejects a limit out of range naming the field', async () => {
    await setup(mkRepo)
    const run = await mk(['knowledge', 'query', 'x', '--limit', '0', '--json'])
    expect(run.exitCode).toBe(2)
    expect(parseJson(run)).toMatchObject({ errorCode: 'INVALID_INPUT', details: { problems: [{ path: 'limit' }] } })
  })
})

describe('mk knowledge show', () => {
  it('shows an item with its real git history', async () => {
    const ws = await setup(mkRepo)
    await gitInit(ws.root)
    await gitCommitAll(ws.root, 'Record the database decision', 1_700_000_000)
    await ws.write('knowledge/adr/adr-0001-use-postgresql.md', `${mkRepo['knowledge/adr/adr-0001-use-postgresql.md'] ?? ''}\nMore detail.\n`)
    await gitCommitAll(ws.root, 'Explain the decision better', 1_700_086_400)
    const run = await mk(['knowledge', 'show', 'adr-0001-use-postgresql', '--history', '--json'])
    expect(run.exitCode).toBe(0)
    const shown = parseJson<{ history: { message: string; author: string; version: string }[]; created: string; updated: string; constraints: unknown[] }>(run)
    expect(shown.history.map((version) => version.message)).toEqual(['Explain the decision better', 'Record the database decision'])
    expect(shown.history[0]).toMatchObject({ author: 'Test Author', version: expect.stringMatching(/^[0-9a-f]{7}$/) })
    expect(shown.created).toBe('2023-11-14T22:13:20.000Z')
    expect(shown.updated).toBe('2023-11-15T22:13:20.000Z')
    expect(shown.constraints).toHaveLength(1)
    const without = parseJson<Record<string, unknown>>(await mk(['knowledge', 'show', 'adr-0001-use-postgresql', '--no-constraints', '--json']))
    expect(without.constraints).toBeUndefined()
  })

  it('prints the NOT_FOUND error object with suggestions and exits 2', async () => {
    await setup(mkRepo)
    const run = await mk(['knowledge', 'show', 'adr-0001-use-postgresl', '--json'])
    expect(run.exitCode).toBe(2)
    expect(parseJson(run)).toEqual({
      success: false,
      errorCode: 'NOT_FOUND',
      message: 'no knowledge item with id "adr-0001-use-postgresl"; did you mean adr-0001-use-postgresql?',
      details: { id: 'adr-0001-use-postgresl', suggestions: ['adr-0001-use-postgresql'], hint: 'mk knowledge list shows every id' },
      retryable: false,
    })
    const human = await mk(['knowledge', 'show', 'nope'])
    expect(expectCleanError(human)).toMatch(/^Error \[NOT_FOUND\] no knowledge item with id "nope"/)
  })
})

describe('mk knowledge new', () => {
  it('writes a numbered ADR that lint accepts, and refuses in read-only mode', async () => {
    await setup({ '.mkrc': adrToolsConfig, ...adrToolsRepo })
    const created = parseJson<{ id: string; path: string }>(await mk(['knowledge', 'new', 'adr', 'Use gRPC', '--json']))
    expect(created).toEqual({ id: '0004-use-grpc', path: 'doc/adr/0004-use-grpc.md', redactions: [] })
    expect((await mk(['knowledge', 'lint'])).exitCode).toBe(0)
    const shown = parseJson<{ status: string }>(await mk(['knowledge', 'show', '0004-use-grpc', '--json']))
    expect(shown.status).toBe('proposed')
    const refused = await mk(['knowledge', 'new', 'adr', 'X', '--json'], { env: { MK_READ_ONLY: '1' } })
    expect(refused.exitCode).toBe(2)
    expect(parseJson(refused)).toMatchObject({ success: false, errorCode: 'FORBIDDEN' })
  })

  it('rejects an unknown type naming the choices', async () => {
    await setup(mkRepo)
    const run = await mk(['knowledge', 'new', 'memo', 'X'])
    expect(expectCleanError(run)).toMatch(/type: expected one of "adr", "policy", "pattern", "spec", "rule", received "memo"/)
  })
})

describe('mk init', () => {
  it('creates a working setup once and changes nothing when run again', async () => {
    await setup({})
    const first = parseJson<{ created: string[] }>(await mk(['init', '--json']))
    expect(first.created).toEqual(['.mkrc', 'knowledge/adr/adr-0001-use-postgresql.md', 'knowledge/policies/policy-no-eval.md', '.gitignore'])
    const second = parseJson<{ created: string[]; unchanged: string[] }>(await mk(['init', '--json']))
    expect(second.created).toEqual([])
    expect(second.unchanged).toHaveLength(4)
    const listed = parseJson<Listed>(await mk(['knowledge', 'list', '--json']))
    expect(listed.items.map((item) => item.id)).toEqual(['adr-0001-use-postgresql', 'policy-no-eval'])
    expect((await mk(['knowledge', 'lint'])).exitCode).toBe(0)
  })
})

describe('one bad file never hides the rest (issue 12)', () => {
  const malformed = '---\ntitle: Bad\ntags: [a, b\nstatus: accepted\n---\nx\n'

  it('list, show and query answer from every other file and report the bad one with file and line', async () => {
    await setup({ ...mkRepo, 'knowledge/adr/bad.md': malformed, 'knowledge/a.md': '---\ntitle: A\ntype: memo\n---\nx\n' })
    const list = await mk(['knowledge', 'list', '--json'])
    expect(list.exitCode).toBe(0)
    expect(list.stderr).toMatch(/knowledge\/adr\/bad\.md:[34]: malformed YAML frontmatter/)
    expect(list.stderr).toMatch(/knowledge\/a\.md:3: unknown type "memo"; expected one of adr, policy/)
    const listed = parseJson<Listed & { problems: { file: string; line: number; code: string }[] }>(list)
    expect(listed.items.map((item) => item.id)).toContain('adr-0001-use-postgresql')
    expect(listed.problems.map((problem) => problem.code).sort()).toEqual(['malformed-frontmatter', 'unknown-type'])
    const show = await mk(['knowledge', 'show', 'no-eval', '--json'])
    expect(show.exitCode).toBe(0)
    expect(parseJson<{ problems: unknown[] }>(show).problems).toHaveLength(2)
    const query = await mk(['knowledge', 'query', 'eval', '--json'])
    expect(query.exitCode).toBe(0)
    expect(parseJson<Listed>(query).items.map((item) => item.id)).toEqual(['no-eval'])
  })

  it('check passes when the bad file carries no constraints, and fails naming it when it may', async () => {
    await setup({ ...mkRepo, 'knowledge/adr/bad.md': malformed })
    expect((await mk(['knowledge', 'check'])).exitCode).toBe(0)
    await setup({ ...mkRepo, 'knowledge/adr/bad.md': '---\ntitle: Bad\nconstraints:\n  - operator: [must_not_use\n---\nx\n' })
    expect(expectCleanError(await mk(['knowledge', 'check']))).toMatch(/knowledge\/adr\/bad\.md:\d+: malformed YAML frontmatter/)
  })

  it('loads every file of a folder in the formats teams write, statuses mapped by .mkrc statusMap', async () => {
    const files = Object.fromEntries(Object.entries(formatCases).map(([path, entry]) => [path, entry.text]))
    const config = `knowledge:\n  sources:\n    - { name: adrs, layer: project, path: . }\n  statusMap:\n    Ratified: accepted\n`
    await setup({ '.mkrc': config, ...files })
    const list = await mk(['knowledge', 'list', '--json'])
    expect(list.exitCode).toBe(0)
    const listed = parseJson<{ items: { path: string; title: string; status: string; statusRaw?: string }[] }>(list)
    expect(listed.items.map((item) => [item.path, item.title, item.status]).sort()).toEqual(
      Object.entries(formatCases)
        .map(([path, entry]) => [path, entry.title, entry.status])
        .sort(),
    )
    expect(listed.items.find((item) => item.path.endsWith('0006-pause-migration.md'))).toMatchObject({ status: 'on hold' })
    expect(listed.items.find((item) => item.path.endsWith('0001-logging-format.md'))).toMatchObject({ status: 'accepted', statusRaw: 'Decided' })
    expect((await mk(['knowledge', 'check'])).exitCode).toBe(0)
    const lint = await mk(['knowledge', 'lint', '--json'])
    expect(lint.exitCode).toBe(0)
    expect(
      parseJson<{ problems: { file: string; code: string; severity: string }[] }>(lint).problems.map(
        (problem) => `${problem.file} ${problem.severity} ${problem.code}`,
      ),
    ).toEqual([
      'doc/adr/0003-queue-choice.md warning one-way-superseded-by',
      'doc/adr/0004-cache-layer.md warning one-way-superseded-by',
      'doc/adr/0006-pause-migration.md warning unmapped-status',
      'docs/adr/adr-014-project-templates.md info no-status',
      'docs/adr/adr-017-no-title.md warning missing-title',
      'docs/adr/adr-018-spectrum.md warning unmapped-status',
    ])
  })
})

describe('bad input: one clear line, exit 2, no stack trace', () => {
  it('a missing knowledge folder says how to create it', async () => {
    await setup({})
    const run = await mk(['knowledge', 'list', '--json'])
    expect(run.exitCode).toBe(2)
    expect(parseJson(run)).toMatchObject({ errorCode: 'NOT_FOUND', message: expect.stringContaining('mk init') })
  })

  it('check names an unreadable file, which could carry constraints (issue 12)', async () => {
    const ws = await setup({ ...mkRepo })
    const secret = join(ws.root, 'knowledge/policies/no-eval.md')
    await chmod(secret, 0o000)
    // Root reads every file, so as root the test runs mk as an ordinary user.
    const asUser = process.getuid?.() === 0 ? 65534 : undefined
    if (asUser !== undefined) await chmod(dirname(ws.root), 0o755)
    const as = asUser === undefined ? {} : { uid: asUser }
    expect(expectCleanError(await mk(['knowledge', 'check'], as))).toMatch(/knowledge\/policies\/no-eval\.md: cannot read file: EACCES/)
    const list = await mk(['knowledge', 'list'], as)
    expect(list.exitCode).toBe(0)
    expect(list.stderr).toMatch(/knowledge\/policies\/no-eval\.md: cannot read file: EACCES/)
  })
  it('duplicate ids name both files, and list still answers', async () => {
    await setup({ 'knowledge/a.md': '---\nid: same\ntitle: A\n---\nx\n', 'knowledge/b.md': '---\nid: same\ntitle: B\n---\nx\n' })
    const run = await mk(['knowledge', 'list'])
    expect(run.exitCode).toBe(0)
    expect(run.stderr).toMatch(/knowledge\/b\.md:1: duplicate id "same": also defined in knowledge\/a\.md/)
  })

  it('an unknown flag is named', async () => {
    await setup(mkRepo)
    expect(expectCleanError(await mk(['knowledge', 'list', '--colour']))).toMatch(/Nonexistent flag: --colour/)
    const json = await mk(['knowledge', 'list', '--colour', '--json'])
    expect(parseJson(json)).toMatchObject({ success: false, errorCode: 'INVALID_INPUT' })
  })

  it('an unknown command suggests the nearest ones', async () => {
    await setup(mkRepo)
    expect(expectCleanError(await mk(['knowledge', 'lsit']))).toMatch(/no command "mk knowledge lsit"; did you mean mk knowledge lint, mk knowledge list/)
    expect(parseJson(await mk(['nope', '--json']))).toMatchObject({ errorCode: 'NOT_FOUND', details: { command: 'nope' } })
  })

  it('a missing argument is named', async () => {
    await setup(mkRepo)
    expect(expectCleanError(await mk(['knowledge', 'show']))).toMatch(/Missing 1 required arg: id/)
  })

  it('lint reports every problem with file and line and exits 2', async () => {
    await setup({
      'knowledge/a.md': '---\nid: same\ntitle: A\nstatus: aproved\nsupersedes: [ghost]\n---\nx\n',
      'knowledge/b.md': '---\nid: same\ntitle: B\nconstraints:\n  - operator: must_match\n    target: code\n    pattern: "(a"\n---\nx\n',
    })
    const run = await mk(['knowledge', 'lint', '--json'])
    expect(run.exitCode).toBe(2)
    const linted = parseJson<{ problems: { file: string; line: number; code: string }[]; errorCount: number }>(run)
    expect(linted.problems.map((problem) => `${problem.file}:${problem.line} ${problem.code}`)).toEqual([
      'knowledge/a.md:4 unmapped-status',
      'knowledge/a.md:5 broken-supersedes',
      'knowledge/b.md:1 duplicate-id',
      'knowledge/b.md:1 no-status',
      'knowledge/b.md:7 invalid-pattern',
    ])
  })
})
