import { describe, expect, it } from 'vitest'
import { composeBlock } from '../../../src/directives/block.js'
import { buildVocabulary, detectContext } from '../../../src/directives/context.js'
import { prepareDirective, rankDirectives } from '../../../src/directives/rank.js'
import { directiveOf } from '../../helpers/directive.js'

const vocabulary = buildVocabulary({})

const all = [
  directiveOf('style#rules-1', 'Field names SHOULD be camelCase in every endpoint response.', { severity: 'SHOULD', keyword: 'SHOULD' }),
  directiveOf('pii#rules-1', 'Customer addresses MUST be encrypted at rest.', { topics: ['privacy'], authoritativeFor: ['privacy'] }),
  directiveOf('db#rules-1', 'New tables MUST have a primary key.', { appliesTo: ['persistence'] }),
  directiveOf('ui#rules-1', 'Form components MUST show errors next to the field.', { appliesTo: ['presentation'] }),
  directiveOf('migrations#rules-1', 'Every change MUST ship a rollback.', { appliesTo: ['db/migrations/**'] }),
  directiveOf('copy#rules-1', 'New tables MUST have a primary key!', { layer: 'company' }),
  directiveOf('cake#rules-1', 'Birthday cake MUST be shared.'),
].map((entry) => prepareDirective(entry, vocabulary))

const rankFor = (task: string, strictLayer = true): ReturnType<typeof rankDirectives> =>
  rankDirectives(all, detectContext(task, vocabulary), new Map(), { strictLayer, similarityFloor: 0.35 })

describe('rankDirectives', () => {
  it('ranks by relevance with authority breaking the tie; drops other layers and unrelated rules', () => {
    const result = rankFor('add a customer address table in Postgres and a migration in db/migrations/002.sql')
    expect(result.ranked.map((entry) => entry.directive.id)).toEqual(['pii#rules-1', 'db#rules-1', 'migrations#rules-1'])
    expect(result.ranked[0]?.rationale).toBe('authority on privacy')
    expect(result.duplicates).toBe(1)
  })

  it('lets authority break ties, never crowd out a rule about the task itself', () => {
    const context = detectContext('fix the bug where the login form crashes when the password field is empty', vocabulary)
    const candidates = [
      directiveOf('baseline#auth-1', 'Passwords MUST be hashed with argon2.', { topics: ['security'], authoritativeFor: ['security'] }),
      directiveOf('quality#bugs-1', 'Every bug fix MUST come with a regression test.', { itemTitle: 'Quality' }),
    ].map((entry) => prepareDirective(entry, vocabulary))
    const similarity = new Map([
      ['baseline#auth-1', 0.2],
      ['quality#bugs-1', 0.5],
    ])
    const ranked = rankDirectives(candidates, context, similarity, { strictLayer: true, similarityFloor: 0.35 }).ranked
    expect(ranked.map((entry) => entry.directive.id)).toEqual(['quality#bugs-1', 'baseline#auth-1'])
    const tied = rankDirectives(candidates, context, new Map([...similarity].map(([id]) => [id, 0.5])), { strictLayer: true, similarityFloor: 0.35 }).ranked
    expect(tied[0]?.directive.id).toBe('baseline#auth-1')
  })

  it('leaves out rules scoped to other folders when the task names paths, and manual rules always', () => {
    const candidates = [
      directiveOf('web#rules-1', 'Keep tests independent.', { appliesTo: ['web/**'] }),
      directiveOf('worker#rules-1', 'Keep queue handlers idempotent.', { appliesTo: ['worker/**'] }),
      directiveOf('manual#rules-1', 'Release from the release branch.', { activation: 'manual' }),
      directiveOf('always#rules-1', 'Write comments in English.', { activation: 'always' }),
    ].map((entry) => prepareDirective(entry, vocabulary))
    const context = detectContext('add a queue processor in worker/src/queues/refill.ts and release it', vocabulary)
    const result = rankDirectives(candidates, context, new Map([['manual#rules-1', 0.9]]), { strictLayer: true, similarityFloor: 0.35 })
    expect(result.ranked.map((entry) => entry.directive.id)).toEqual(['worker#rules-1', 'always#rules-1'])
    expect(result.droppedByScope).toBe(1)
  })

  it('keeps rules for other layers, lower, when strictLayer is off', () => {
    const task = 'add a form that saves the address to a database table'
    expect(rankFor(task).ranked.map((entry) => entry.directive.id)).not.toContain('ui#rules-1')
    const loose = rankFor(task, false).ranked.map((entry) => entry.directive.id)
    expect(loose).toContain('ui#rules-1')
    expect(loose.indexOf('ui#rules-1')).toBeGreaterThan(loose.indexOf('db#rules-1'))
  })

  it('lets similarity alone admit a rule only above the floor', () => {
    const context = detectContext('qwzx cake', vocabulary)
    const admitted = rankDirectives(all, context, new Map([['cake#rules-1', 0.5]]), { strictLayer: true, similarityFloor: 0.35 })
    expect(admitted.ranked.map((entry) => [entry.directive.id, entry.rationale])).toEqual([['cake#rules-1', 'similar wording']])
    expect(rankDirectives(all, context, new Map([['cake#rules-1', 0.2]]), { strictLayer: true, similarityFloor: 0.35 }).ranked).toEqual([])
  })

  it('admits the rules closest to the task in meaning without a shared word, at most meaningPlaces and none under meaningFloor', () => {
    const context = detectContext('Add a price column to the products table', vocabulary)
    const options = { strictLayer: true, similarityFloor: 0.35, meaningPlaces: 2, meaningFloor: 0.2 }
    const meaning = new Map([
      // Scoped to db/migrations/**: sounding alike does not put a task that names no file there.
      ['migrations#rules-1', 0.5],
      ['cake#rules-1', 0.38],
      ['style#rules-1', 0.3],
      ['pii#rules-1', 0.25],
      ['ui#rules-1', 0.1],
    ])
    const result = rankDirectives(all, context, new Map(), options, meaning)
    const close = result.ranked.filter((entry) => entry.byMeaningOnly === true)
    expect(close.map((entry) => [entry.directive.id, entry.rationale])).toEqual([
      ['cake#rules-1', 'close in meaning'],
      ['style#rules-1', 'close in meaning'],
    ])
    // The rules the task's words name keep their place: closeness in meaning counts as much as one topic.
    expect(result.ranked.filter((entry) => entry.byMeaningOnly !== true).map((entry) => entry.directive.id)).toContain('db#rules-1')
    expect(rankDirectives(all, context, new Map(), { ...options, meaningFloor: 0.4 }, meaning).ranked.some((entry) => entry.byMeaningOnly)).toBe(false)
    expect(rankDirectives(all, context, new Map(), { ...options, meaningPlaces: 0 }, meaning).ranked.some((entry) => entry.byMeaningOnly)).toBe(false)
  })

  it('lets closeness in meaning lift a rule one band, so it passes an equally similar rule with no other evidence', () => {
    const context = detectContext('qwzx blorft', vocabulary)
    const similarity = new Map([
      ['cake#rules-1', 0.36],
      ['style#rules-1', 0.36],
    ])
    const options = { strictLayer: true, similarityFloor: 0.35, meaningPlaces: 1, meaningFloor: 0.2 }
    const ranked = rankDirectives(all, context, similarity, options, new Map([['style#rules-1', 0.3]])).ranked
    expect(ranked.map((entry) => entry.directive.id)).toEqual(['style#rules-1', 'cake#rules-1'])
    expect(ranked.some((entry) => entry.byMeaningOnly)).toBe(false)
  })
})

describe('composeBlock', () => {
  const words = (text: string): number => text.split(/\s+/).filter((word) => word !== '').length
  const ranked = rankFor('add a customer address table in Postgres and a migration in db/migrations/002.sql').ranked

  it('cites every bullet and stays within the budget, ending at the first rule that does not fit', () => {
    for (const budget of [12, 30, 60, 400]) {
      const block = composeBlock(ranked, [{ memoryId: 'mem_1', content: 'Addresses live in the billing schema', layer: 'project' }], {
        tokenBudget: budget,
        maxItems: 8,
        includeBreadcrumbs: true,
        countTokens: words,
      })
      expect(block.tokens).toBeLessThanOrEqual(budget)
      const bullets = block.contextBlock.split('\n').filter((line) => line.startsWith('- ['))
      expect(bullets).toHaveLength(block.citations.length)
      bullets.forEach((line, position) => expect(line).toContain(`[${position + 1}: ${block.citations[position]?.sourcePath}#`))
      expect(block.cut.directives.length + block.citations.length).toBe(ranked.length)
      expect(block.citations.map((citation) => citation.directiveId)).toEqual(ranked.slice(0, block.citations.length).map((entry) => entry.directive.id))
    }
  })

  it('puts remembered facts after every rule, and only when they fit', () => {
    const block = composeBlock(ranked, [{ memoryId: 'mem_1', content: 'Addresses live in the billing schema', layer: 'project' }], {
      tokenBudget: 400,
      maxItems: 8,
      includeBreadcrumbs: false,
      countTokens: words,
    })
    const lines = block.contextBlock.split('\n')
    expect(lines.indexOf('## Remembered')).toBeGreaterThan(lines.findLastIndex((line) => line.startsWith('- [MUST]')))
    expect(block.contextBlock).toContain('- Addresses live in the billing schema (memory mem_1, project)')
    expect(block.contextBlock).not.toContain(' — Rules')
  })

  it('stops at maxItems', () => {
    const block = composeBlock(ranked, [], { tokenBudget: 4000, maxItems: 2, includeBreadcrumbs: true, countTokens: words })
    expect(block.citations).toHaveLength(2)
    expect(block.cut.directives).toEqual([ranked[2]?.directive.id])
  })
})
