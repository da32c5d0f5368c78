import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { loadTeam, teamQuestionKinds } from '../../../src/eval/team.js'

const recallDir = fileURLToPath(new URL('../../../bench/recall/', import.meta.url))
const files = readdirSync(recallDir).filter((name) => name.endsWith('.json'))

/** Issue 13's floor for a team set, the category questions the issue is about, and enough of every kind for its own figure to mean something. */
const minimum = { memories: 100, questions: 100, category: 25, perKind: 10 }

const duplicates = (values: readonly string[]): string[] => {
  const seen = new Set<string>()
  return values.filter((value) => {
    const key = value.trim().toLowerCase()
    if (seen.has(key)) return true
    seen.add(key)
    return false
  })
}

describe('the team sets in bench/recall', () => {
  it('holds the dev and holdout sets at least', () => {
    expect(files).toEqual(expect.arrayContaining(['team-dev.json', 'team-holdout.json']))
  })

  // Issue 29: questions no memory answers, to measure abstention, in the tuning set and the held-out one.
  it.each(['team-dev.json', 'team-holdout.json'])('%s asks at least 20 questions no memory answers and 5 gibberish queries', async (name) => {
    const { questions } = await loadTeam(join(recallDir, name))
    expect(questions.filter((question) => question.kind === 'none').length).toBeGreaterThanOrEqual(20)
    expect(questions.filter((question) => question.kind === 'gibberish').length).toBeGreaterThanOrEqual(5)
  })

  describe.each(files)('%s', (name) => {
    it('names each memory once and never stores the same text twice', async () => {
      const { memories } = await loadTeam(join(recallDir, name))
      expect(duplicates(memories.map((memory) => memory.id))).toEqual([])
      expect(duplicates(memories.map((memory) => memory.content))).toEqual([])
    })

    it('asks each question once, names each answer once, and gives a multi question 2 to 4 answers', async () => {
      const { questions } = await loadTeam(join(recallDir, name))
      expect(duplicates(questions.map((question) => question.text))).toEqual([])
      const badMulti = questions.filter((question) => question.kind === 'multi' && (question.answers.length < 2 || question.answers.length > 4))
      expect(badMulti.map((question) => question.text)).toEqual([])
      const repeatedAnswer = questions.filter((question) => duplicates(question.answers).length > 0)
      expect(repeatedAnswer.map((question) => question.text)).toEqual([])
    })

    it(`has at least ${minimum.memories} memories, ${minimum.questions} questions, ${minimum.category} category questions and ${minimum.perKind} of each kind`, async () => {
      const { memories, questions } = await loadTeam(join(recallDir, name))
      expect(memories.length).toBeGreaterThanOrEqual(minimum.memories)
      expect(questions.length).toBeGreaterThanOrEqual(minimum.questions)
      const counts = Object.fromEntries(teamQuestionKinds.map((kind) => [kind, questions.filter((question) => question.kind === kind).length]))
      expect(Math.min(...Object.values(counts)), JSON.stringify(counts)).toBeGreaterThanOrEqual(minimum.perKind)
      expect(counts.category).toBeGreaterThanOrEqual(minimum.category)
    })
  })
})
