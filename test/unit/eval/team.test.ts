import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseDatasetSpec } from '../../../src/eval/dataset.js'
import { reciprocalRankAtK } from '../../../src/eval/metrics.js'
import { teamSuite } from '../../../src/eval/suites.js'
import { loadTeam } from '../../../src/eval/team.js'
import { failure } from '../../helpers/errors.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mk-team-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const write = async (name: string, value: unknown): Promise<string> => {
  const file = join(dir, name)
  await writeFile(file, typeof value === 'string' ? value : JSON.stringify(value))
  return file
}

describe('team memory sets', () => {
  it('scores P@1, R@3, R@10 and MRR@10 per question, with the kind as its category', async () => {
    const file = await write('ok.json', {
      memories: [
        { id: 'a', content: 'We store everything in Postgres' },
        { id: 'b', content: 'Pipelines run on GitHub Actions' },
      ],
      questions: [{ text: 'what database do we use', kind: 'category', answers: ['a'] }],
    })
    const suite = teamSuite(await loadTeam(file))
    expect(suite.groups[0]?.documents.map((doc) => doc.id)).toEqual(['a', 'b'])
    const [query] = suite.groups[0]?.queries ?? []
    expect(suite.categoryNames?.[query?.category ?? 0]).toBe('category')
    expect(query?.score(['b', 'a'])).toEqual({ precisionAt1: 0, recallAt3: 1, recallAt10: 1, mrrAt10: 0.5 })
  })

  it('refuses a question whose answer names no memory, and an unknown kind, naming the file', async () => {
    const unknown = await write('unknown.json', { memories: [{ id: 'a', content: 'x' }], questions: [{ text: 'q', kind: 'lexical', answers: ['zz'] }] })
    expect((await failure(loadTeam(unknown))).message).toContain('questions[0] answers name no memory of the file: zz')
    const kind = await write('kind.json', { memories: [], questions: [{ text: 'q', kind: 'vibes', answers: [] }] })
    expect((await failure(loadTeam(kind))).message).toMatch(/kind.json: questions\[0\] needs "text", "kind"/)
    expect((await failure(loadTeam(await write('bad.json', '{')))).code).toBe('INVALID_INPUT')
  })

  it('reads questions no memory answers (kinds none and gibberish), and refuses one that names an answer', async () => {
    const file = await write('none.json', {
      memories: [{ id: 'a', content: 'We store everything in Postgres' }],
      questions: [
        { text: 'what is the parental leave policy?', kind: 'none', answers: [] },
        { text: 'blorf snizzle', kind: 'gibberish', answers: [] },
      ],
    })
    const suite = teamSuite(await loadTeam(file))
    expect(suite.groups[0]?.queries.map((query) => [suite.categoryNames?.[query.category ?? 0], query.unanswerable])).toEqual([
      ['none', true],
      ['gibberish', true],
    ])
    const answered = await write('answered.json', { memories: [{ id: 'a', content: 'x' }], questions: [{ text: 'q', kind: 'none', answers: ['a'] }] })
    expect((await failure(loadTeam(answered))).message).toContain('questions[0] is of kind none: its "answers" must be empty')
  })

  it('reads a bare "team" as the team-dev set of the mk repository', () => {
    expect(parseDatasetSpec('team', { cwd: dir, benchDir: dir }).path).toMatch(/bench[/\\]recall[/\\]team-dev\.json$/)
  })

  it('MRR@k is one over the rank of the first answer within k', () => {
    expect(reciprocalRankAtK(['x', 'y', 'a'], new Set(['a']), 10)).toBeCloseTo(1 / 3)
    expect(reciprocalRankAtK(['x', 'y', 'a'], new Set(['a']), 2)).toBe(0)
  })
})
