import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contradictingPairs, distinctMemories, duplicatePairs } from '../fixtures/consolidation.js'
import { parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

interface Consolidated {
  scanned: number
  clusters: { canonical: string; aliases: string[] }[]
  contradictory_candidates: { a: string; b: string; reason: string }[]
  applied: boolean
}

let ws: TempWorkspace
const idOf = new Map<string, string>()
const mk = (args: string[]) => runMk(args, { cwd: ws.root, env: { MK_HOME: ws.mkHome } })

beforeAll(async () => {
  ws = await makeWorkspace()
  for (const content of [...duplicatePairs.flat(), ...contradictingPairs.flat(), ...distinctMemories]) {
    const added = await mk(['memory', 'add', content, '--layer', 'project', '--json'])
    expect(added.exitCode, added.stderr).toBe(0)
    idOf.set(content, parseJson<{ memoryId: string }>(added).memoryId)
  }
}, 120_000)
afterAll(async () => ws.cleanup())

const pairKey = (a: string, b: string): string => [a, b].sort().join(' ')

describe('mk memory consolidate on 10 restated pairs, 5 contradicting pairs and 10 distinct memories', () => {
  it('plans exactly the 10 merges and reports exactly the 5 contradictions, writing nothing', { timeout: 120_000 }, async () => {
    const planned = parseJson<Consolidated>(await mk(['memory', 'consolidate', '--json']))
    expect(planned.scanned).toBe(40)
    expect(new Set(planned.clusters.map((cluster) => pairKey(cluster.canonical, cluster.aliases.join(' '))))).toEqual(
      new Set(duplicatePairs.map(([a, b]) => pairKey(idOf.get(a) ?? '', idOf.get(b) ?? ''))),
    )
    expect(new Set(planned.contradictory_candidates.map((pair) => pairKey(pair.a, pair.b)))).toEqual(
      new Set(contradictingPairs.map(([a, b]) => pairKey(idOf.get(a) ?? '', idOf.get(b) ?? ''))),
    )
    const file = await readFile(join(ws.root, 'knowledge', 'memory', `${idOf.get(duplicatePairs[0]?.[1] ?? '')}.md`), 'utf8')
    expect(file).not.toMatch(/alias_of/)
  })

  it('applies: aliases leave recall but stay on disk, the canonical records what merged into it', { timeout: 120_000 }, async () => {
    const applied = parseJson<Consolidated>(await mk(['memory', 'consolidate', '--apply', '--json']))
    expect(applied.clusters).toHaveLength(10)
    const cluster = applied.clusters.find(
      (entry) => entry.canonical === idOf.get('Kong is our API gateway') || entry.aliases.includes(idOf.get('Kong is our API gateway') ?? ''),
    )
    expect(cluster).toBeDefined()
    const [alias] = cluster?.aliases ?? []
    expect(await readFile(join(ws.root, 'knowledge', 'memory', `${alias}.md`), 'utf8')).toMatch(new RegExp(`^alias_of: ${cluster?.canonical}$`, 'm'))
    const canonical = await readFile(join(ws.root, 'knowledge', 'memory', `${cluster?.canonical}.md`), 'utf8')
    expect(canonical).toMatch(/^merged_count: 1$/m)
    const found = parseJson<{ results: { memoryId: string }[] }>(await mk(['memory', 'search', 'API gateway Kong', '--json']))
    const ids = found.results.map((result) => result.memoryId)
    expect(ids).toContain(cluster?.canonical)
    expect(ids).not.toContain(alias)
    // Both sides of every contradiction are still recalled, unmerged.
    const [first, second] = contradictingPairs[0] ?? ['', '']
    const postgres = parseJson<{ results: { memoryId: string }[] }>(await mk(['memory', 'search', 'Postgres 15 orders service', '--json']))
    expect(postgres.results.map((result) => result.memoryId)).toEqual(expect.arrayContaining([idOf.get(first), idOf.get(second)]))
    expect(parseJson<Consolidated>(await mk(['memory', 'consolidate', '--json'])).clusters).toEqual([])
  })
})

describe('mk memory add, without loading a model', () => {
  it('reports restatements as similar and disagreements as contradicts, merging neither', { timeout: 60_000 }, async () => {
    const fresh = await makeWorkspace({ '.mkrc': 'search:\n  embedding:\n    provider: none\n' })
    const add = async (content: string) => {
      const run = await runMk(['memory', 'add', content, '--layer', 'project', '--json'], { cwd: fresh.root, env: { MK_HOME: fresh.mkHome } })
      expect(run.exitCode, run.stderr).toBe(0)
      return parseJson<{ memoryId: string; similar: { memoryId: string }[]; contradicts: { memoryId: string; reason: string }[] }>(run)
    }
    const first = await add('We deploy to production on Tuesdays')
    await add('The billing worker runs at midnight')
    const restated = await add('Production deploys happen every Tuesday')
    expect(restated.similar.map((entry) => entry.memoryId)).toEqual([first.memoryId])
    expect(restated.contradicts).toEqual([])
    const negated = await add('We no longer deploy to production on Tuesdays')
    expect(new Set(negated.contradicts.map((entry) => entry.memoryId))).toEqual(new Set([first.memoryId, restated.memoryId]))
    expect(negated.contradicts.every((entry) => entry.reason === 'one negates what the other says')).toBe(true)
    expect(negated.similar.map((entry) => entry.memoryId)).not.toContain(first.memoryId)
    await fresh.cleanup()
  })
})
