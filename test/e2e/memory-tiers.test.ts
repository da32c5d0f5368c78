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
    const applied = parseJson<Maintained>(await mk(['memory', 'maintain', '--apply', '--json']))
    expect(applied.moves).toHaveLength(4)
    expect(await readFile(join(ws.root, 'knowledge', 'memory', `${ids.idle50}.md`), 'utf8')).toMatch(/^tier: archive$/m)
    expect((await readdir(join(ws.root, 'knowledge', 'memory'))).filter((name) => name.endsWith('.md'))).toHaveLength(6)
    const found = (args: string[]) =>
      mk(['memory', 'search', 'legacy queue RabbitMQ office Leeds billing cron', ...args, '--json']).then((run) =>
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
    expect(file).toMatch(/^tier: warm$/m)
    expect(file).toMatch(/^last_rehydrated_from: archive$/m)
    expect(file).toMatch(/^last_rehydrated_reason: office move$/m)
    const found = parseJson<{ results: { memoryId: string }[] }>(await mk(['memory', 'search', 'first office Leeds', '--json']))
    expect(found.results.map((entry) => entry.memoryId)).toContain(ids.idle50)
    // Rehydration restarts the clock: the next maintain leaves it where it was put.
    expect(parseJson<Maintained>(await mk(['memory', 'maintain', '--json'])).moves).toEqual([])
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
  })

  it('rejects bad input, exit 2', async () => {
    expectCleanError(await mk(['memory', 'activate', ids.fresh ?? '', '--outcome', 'great', '--json']))
    expectCleanError(await mk(['memory', 'rehydrate', ids.fresh ?? '', '--to', 'cold', '--json']))
    expectCleanError(await mk(['memory', 'search', 'x', '--tier', 'lukewarm', '--json']))
  })
})
