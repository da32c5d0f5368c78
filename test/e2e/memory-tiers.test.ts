import { execFileSync } from 'node:child_process'
import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatMemory } from '../../src/memory/format.js'
import { newMemoryId } from '../../src/memory/ids.js'
import type { MemoryRecord } from '../../src/memory/model.js'
import { expectCleanError, parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

const day = 24 * 60 * 60 * 1000
const config =
  'search:\n  embedding:\n    provider: none\nmemory:\n  decay:\n    warmAfterDays: 10\n    coldAfterDays: 20\n    archiveAfterDays: 40\n    feedbackWeight: 0.5\n'

let ws: TempWorkspace
const mk = (args: string[]) => runMk(args, { cwd: ws.root, env: { MK_HOME: ws.mkHome } })

/** A project memory written as mk writes it, last changed `daysAgo` days ago. */
async function memoryAged(content: string, daysAgo: number): Promise<string> {
  const id = newMemoryId()
  const when = new Date(Date.now() - daysAgo * day).toISOString()
  const record: MemoryRecord = {
    id,
    layer: 'project',
    content,
    tags: [],
    created: when,
    updated: when,
    source: 'cli',
    refs: [],
    supersedes: [],
    expires: undefined,
    lane: 'shared',
    owner: undefined,
    metadata: {},
  }
  await mkdir(join(ws.root, 'knowledge', 'memory'), { recursive: true })
  await writeFile(join(ws.root, 'knowledge', 'memory', `${id}.md`), formatMemory(record))
  return id
}

const tableLines = (text: string) => text.split('\n').filter((line) => line !== '' && !line.startsWith('#'))

interface Maintained {
  scanned: number
  moves: { memoryId: string; from: string; to: string }[]
  applied: boolean
  commits: string[]
}

const ids: Record<string, string> = {}
beforeAll(async () => {
  ws = await makeWorkspace({ '.mkrc': config })
  ids.fresh = await memoryAged('The release checklist lives in the wiki', 2)
  ids.idle15 = await memoryAged('The old billing cron runs at midnight', 15)
  ids.idle25 = await memoryAged('The legacy queue was RabbitMQ', 25)
  ids.idle50 = await memoryAged('The first office was in Leeds', 50)
  ids.used = await memoryAged('The staging cluster has four nodes', 30)
  ids.bad = await memoryAged('The deploy bot needs a manual restart', 6)
})
afterAll(async () => ws.cleanup())

describe('tiers, activation, decay and rehydration', () => {
  it('records uses and outcomes in a ledger, not in the memory', async () => {
    const before = await readFile(join(ws.root, 'knowledge', 'memory', `${ids.used}.md`), 'utf8')
    const used = parseJson<{ activated: string[]; missing: string[] }>(
      await mk(['memory', 'activate', ids.used ?? '', 'mem_01JAAAAAAAAAAAAAAAAAAAAAAA', '--outcome', 'positive', '--reason', 'sized the rollout', '--json']),
    )
    expect(used).toMatchObject({ activated: [ids.used], missing: ['mem_01JAAAAAAAAAAAAAAAAAAAAAAA'] })
    for (let time = 0; time < 2; time++) expect((await mk(['memory', 'activate', ids.bad ?? '', '--outcome', 'negative', '--json'])).exitCode).toBe(0)
    expect(await readFile(join(ws.root, 'knowledge', 'memory', `${ids.used}.md`), 'utf8')).toBe(before)
    expect(parseJson(await mk(['memory', 'show', ids.bad ?? '', '--json']))).toMatchObject({ tier: 'hot', activations: 2, feedback_negative: 2 })
  })

  it('plans exactly the documented moves in a dry run, and writes nothing', async () => {
    const planned = parseJson<Maintained>(await mk(['memory', 'maintain', '--json']))
    // 15 days idle: warm; 25: cold; 50: archive; used today: stays; 6 days with two negatives (6 / 0.25 = 24 effective days): cold.
    expect(Object.fromEntries(planned.moves.map((move) => [move.memoryId, `${move.from}>${move.to}`]))).toEqual({
      [ids.idle15 ?? '']: 'hot>warm',
      [ids.idle25 ?? '']: 'hot>cold',
      [ids.idle50 ?? '']: 'hot>archive',
      [ids.bad ?? '']: 'hot>cold',
    })
    expect(planned).toMatchObject({ scanned: 6, applied: false })
    expect(await readFile(join(ws.root, 'knowledge', 'memory', `${ids.idle50}.md`), 'utf8')).not.toMatch(/^tier:/m)
  })

  it('applies the moves, loses nothing, and default recall leaves cold and archived memories out', async () => {
    const before = await readFile(join(ws.root, 'knowledge', 'memory', `${ids.idle50}.md`), 'utf8')
    const applied = parseJson<Maintained>(await mk(['memory', 'maintain', '--apply', '--json']))
    expect(applied.moves).toHaveLength(4)
    // One table changes; the memories stay as they were written.
    expect(await readFile(join(ws.root, 'knowledge', 'memory', `${ids.idle50}.md`), 'utf8')).toBe(before)
    expect(tableLines(await readFile(join(ws.root, 'knowledge', 'memory', '.tiers'), 'utf8'))).toEqual(
      [`${ids.idle15} warm`, `${ids.idle25} cold`, `${ids.idle50} archive`, `${ids.bad} cold`].sort(),
    )
    expect((await readdir(join(ws.root, 'knowledge', 'memory'))).filter((name) => name.endsWith('.md'))).toHaveLength(6)
    // A query made of every memory's words, each answering a part of it: threshold 0, so only the tiers filter (ADR 0031).
    const found = (args: string[]) =>
      mk(['memory', 'search', 'legacy queue RabbitMQ office Leeds billing cron', '--threshold', '0', ...args, '--json']).then((run) =>
        parseJson<{ results: { memoryId: string }[] }>(run).results.map((result) => result.memoryId),
      )
    expect(new Set(await found([]))).toEqual(new Set([ids.idle15]))
    expect(new Set(await found(['--tier', 'hot', '--tier', 'warm', '--tier', 'cold', '--tier', 'archive']))).toEqual(
      new Set([ids.idle15, ids.idle25, ids.idle50]),
    )
    expect(parseJson<Maintained>(await mk(['memory', 'maintain', '--json'])).moves).toEqual([])
  })

  it('rehydrates only what is below the target, records where it came from, and recall finds it again', async () => {
    const result = parseJson<Record<string, string[]>>(
      await mk([
        'memory',
        'rehydrate',
        ids.idle50 ?? '',
        ids.fresh ?? '',
        'mem_01JAAAAAAAAAAAAAAAAAAAAAAA',
        '--to',
        'warm',
        '--reason',
        'office move',
        '--json',
      ]),
    )
    expect(result).toMatchObject({ moved: [ids.idle50], noop: [ids.fresh], missing: ['mem_01JAAAAAAAAAAAAAAAAAAAAAAA'] })
    const file = await readFile(join(ws.root, 'knowledge', 'memory', `${ids.idle50}.md`), 'utf8')
    expect(tableLines(await readFile(join(ws.root, 'knowledge', 'memory', '.tiers'), 'utf8'))).toContain(`${ids.idle50} warm`)
    expect(file).toMatch(/^last_rehydrated_from: archive$/m)
    expect(file).toMatch(/^last_rehydrated_reason: office move$/m)
    const found = parseJson<{ results: { memoryId: string }[] }>(await mk(['memory', 'search', 'first office Leeds', '--json']))
    expect(found.results.map((entry) => entry.memoryId)).toContain(ids.idle50)
    // Rehydration restarts the clock: the next maintain leaves it where it was put.
    expect(parseJson<Maintained>(await mk(['memory', 'maintain', '--json'])).moves).toEqual([])
  })

  it('follows a tier table changed by another hand (a revert, a pull) without being told', async () => {
    const table = join(ws.root, 'knowledge', 'memory', '.tiers')
    const lines = tableLines(await readFile(table, 'utf8')).filter((line) => !line.startsWith(ids.idle25 ?? '-') && !line.startsWith(ids.idle15 ?? '-'))
    await writeFile(table, [...lines, `${ids.idle15} archive`].join('\n') + '\n')
    const found = parseJson<{ results: { memoryId: string }[] }>(await mk(['memory', 'search', 'legacy queue RabbitMQ billing cron', '--json']))
    // idle25 is no longer listed and its file names no tier: hot again. idle15 is archived now.
    expect(found.results.map((entry) => entry.memoryId)).toEqual([ids.idle25])
  })

  it('reads the tier line of a file written before the tier table, and a rehydration moves it to the table', async () => {
    const id = await memoryAged('The pager rota is weekly', 1)
    const file = join(ws.root, 'knowledge', 'memory', `${id}.md`)
    await writeFile(file, (await readFile(file, 'utf8')).replace(/^lane: /m, 'tier: cold\nlane: '))
    expect(parseJson(await mk(['memory', 'show', id, '--json']))).toMatchObject({ tier: 'cold' })
    await mk(['memory', 'rehydrate', id, '--to', 'hot', '--json'])
    expect(await readFile(file, 'utf8')).not.toMatch(/^tier:/m)
    expect(parseJson(await mk(['memory', 'show', id, '--json']))).toMatchObject({ tier: 'hot' })
    const found = parseJson<{ results: { memoryId: string }[] }>(await mk(['memory', 'search', 'pager rota weekly', '--json']))
    expect(found.results.map((entry) => entry.memoryId)).toEqual([id])
  })

  it('commits private-layer moves to the MK_HOME history in one commit', async () => {
    const added = parseJson<{ memoryId: string }>(await mk(['memory', 'add', 'My old laptop was a ThinkPad', '--json']))
    const path = join(ws.mkHome, 'memory', 'user', `${added.memoryId}.md`)
    const text = await readFile(path, 'utf8')
    const old = new Date(Date.now() - 100 * day).toISOString()
    await writeFile(path, text.replace(/^created: .*$/m, `created: '${old}'`).replace(/^updated: .*$/m, `updated: '${old}'`))
    await mk(['index', 'rebuild', '--json'])
    const applied = parseJson<Maintained>(await mk(['memory', 'maintain', '--apply', '--layer', 'user', '--json']))
    expect(applied.moves.map((move) => move.to)).toEqual(['archive'])
    expect(applied.commits).toHaveLength(1)
    const changed = execFileSync('git', ['-C', ws.mkHome, 'show', '--name-only', '--format=', applied.commits[0] ?? ''], { encoding: 'utf8' })
    expect(changed.trim().split('\n')).toEqual(['memory/user/.tiers'])
  })

  it('lint names a tier-table line a bad merge left behind, with its line', async () => {
    const table = join(ws.root, 'knowledge', 'memory', '.tiers')
    const text = await readFile(table, 'utf8')
    await writeFile(table, `${text}<<<<<<< HEAD\n`)
    const lint = await mk(['knowledge', 'lint', '--json'])
    expect(lint.exitCode).toBe(2)
    expect(parseJson<{ problems: unknown[] }>(lint).problems).toEqual([
      expect.objectContaining({ file: 'knowledge/memory/.tiers', line: text.split('\n').length, code: 'invalid-tier-line' }),
    ])
    await writeFile(table, text)
  })

  it('rejects bad input, exit 2', async () => {
    expectCleanError(await mk(['memory', 'activate', ids.fresh ?? '', '--outcome', 'great', '--json']))
    expectCleanError(await mk(['memory', 'rehydrate', ids.fresh ?? '', '--to', 'cold', '--json']))
    expectCleanError(await mk(['memory', 'search', 'x', '--tier', 'lukewarm', '--json']))
  })
})
