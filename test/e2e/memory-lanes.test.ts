import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectCleanError, parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

let ws: TempWorkspace
beforeAll(async () => {
  ws = await makeWorkspace({ '.mkrc': 'search:\n  embedding:\n    provider: none\n' })
})
afterAll(async () => ws.cleanup())

const as = (agent: string | undefined, team: string | undefined) => (args: string[]) =>
  runMk(args, { cwd: ws.root, env: { MK_HOME: ws.mkHome, MK_AGENT_ID: agent, MK_TEAM_ID: team } })

const a1 = as('a1', 't1')
const a2 = as('a2', 't2')
const a3 = as('a3', 't2')
const nobody = as(undefined, undefined)

async function add(run: ReturnType<typeof as>, args: string[]): Promise<string> {
  const added = await run(['memory', 'add', '--layer', 'project', ...args, '--json'])
  expect(added.exitCode, added.stderr).toBe(0)
  return parseJson<{ memoryId: string }>(added).memoryId
}

async function found(run: ReturnType<typeof as>, query: string): Promise<string[]> {
  const searched = await run(['memory', 'search', query, '--json'])
  expect(searched.exitCode, searched.stderr).toBe(0)
  return parseJson<{ results: { memoryId: string }[] }>(searched).results.map((result) => result.memoryId)
}

describe('private memories in a shared layer', () => {
  let own: string
  let teamOwned: string
  let shared: string
  beforeAll(async () => {
    own = await add(a2, ['The staging deploy key rotates on Mondays', '--lane', 'private', '--owner-agent', 'a2'])
    teamOwned = await add(a2, ['The staging deploy window is Wednesday noon', '--lane', 'private', '--owner-team', 't2'])
    shared = await add(a1, ['The staging deploy dashboard lives in Grafana'])
  })

  it("are invisible to another agent and team, visible to the owner, and a team's to its agents", async () => {
    expect(new Set(await found(a1, 'staging deploy'))).toEqual(new Set([shared]))
    expect(new Set(await found(a2, 'staging deploy'))).toEqual(new Set([own, teamOwned, shared]))
    expect(new Set(await found(a3, 'staging deploy'))).toEqual(new Set([teamOwned, shared]))
    expect(new Set(await found(nobody, 'staging deploy'))).toEqual(new Set([shared]))
  })

  it('take the consumer from the input over the environment', async () => {
    const searched = await a1(['memory', 'search', 'staging deploy', '--consumer-agent', 'a2', '--json'])
    expect(parseJson<{ results: { memoryId: string }[] }>(searched).results.map((result) => result.memoryId)).toContain(own)
  })

  it('are left out of lists and answered as absent by show and delete', async () => {
    const listed = parseJson<{ memories: { memoryId: string }[] }>(await a1(['memory', 'list', '--layer', 'project', '--json']))
    expect(listed.memories.map((memory) => memory.memoryId)).not.toContain(own)
    const shown = await a1(['memory', 'show', own, '--json'])
    expect(expectCleanError(shown)).toBe('')
    expect(parseJson(shown)).toMatchObject({ errorCode: 'NOT_FOUND' })
    expect(parseJson(await a1(['memory', 'delete', own, '--yes', '--json']))).toMatchObject({ errorCode: 'NOT_FOUND' })
    expect(parseJson(await a2(['memory', 'show', own, '--json']))).toMatchObject({ lane: 'private', owner_agent_id: 'a2', producer_agent_id: 'a2' })
  })

  it('record lane, producer and owner in the file', async () => {
    const file = await readFile(`${ws.root}/knowledge/memory/${teamOwned}.md`, 'utf8')
    expect(file).toMatch(/^lane: private$/m)
    expect(file).toMatch(/^producer_agent_id: a2$/m)
    expect(file).toMatch(/^owner_team_id: t2$/m)
  })

  it("never deduplicates against another owner's private copy of the same fact", async () => {
    const mine = await add(a1, ['The staging deploy key rotates on Mondays'])
    expect(mine).not.toBe(own)
    expect(await add(a2, ['The staging deploy key rotates on Mondays', '--lane', 'private', '--owner-agent', 'a2'])).toBe(own)
  })

  it('refuse a private memory with no owner at write, exit 2, and skip one found on disk with a warning', async () => {
    const refused = await a1(['memory', 'add', 'Nobody may read this', '--layer', 'project', '--lane', 'private', '--json'])
    expectCleanError(refused)
    expect(parseJson(refused)).toMatchObject({ errorCode: 'INVALID_INPUT', message: expect.stringContaining('owner_agent_id or owner_team_id') })
    await ws.write(
      'knowledge/memory/mem_01JZZZZZZZZZZZZZZZZZZZZZZZ.md',
      '---\nid: mem_01JZZZZZZZZZZZZZZZZZZZZZZZ\nlayer: project\ncreated: 2026-11-01T00:00:00.000Z\nlane: private\n---\nThe staging deploy has an unowned secret note\n',
    )
    const searched = await a1(['memory', 'search', 'staging deploy unowned', '--json'])
    expect(searched.stderr).toMatch(/mem_01JZZZZZZZZZZZZZZZZZZZZZZZ\.md: it is a private memory in the project layer with no owner_agent_id or owner_team_id/)
    expect(parseJson<{ results: { memoryId: string }[] }>(searched).results.map((result) => result.memoryId)).not.toContain('mem_01JZZZZZZZZZZZZZZZZZZZZZZZ')
    const lint = await a1(['knowledge', 'lint', '--json'])
    expect(lint.exitCode).toBe(2)
    expect(parseJson<{ problems: { file: string; line: number; code: string }[] }>(lint).problems).toEqual([
      expect.objectContaining({ file: 'knowledge/memory/mem_01JZZZZZZZZZZZZZZZZZZZZZZZ.md', line: 1, code: 'invalid_private_memory_owner' }),
    ])
    await rm(join(ws.root, 'knowledge/memory/mem_01JZZZZZZZZZZZZZZZZZZZZZZZ.md'))
  })

  it('default to private in the agent layer and shared in the project layer, as before', async () => {
    const agentMemory = await a1(['memory', 'add', 'I prefer short commit messages', '--layer', 'agent', '--json'])
    const id = parseJson<{ memoryId: string }>(agentMemory).memoryId
    expect(parseJson(await a1(['memory', 'show', id, '--json']))).toMatchObject({ lane: 'private', owner: 'a1' })
    expect(parseJson(await a1(['memory', 'show', shared, '--json']))).toMatchObject({ lane: 'shared' })
  })
})
