import { describe, expect, it } from 'vitest'
import { buildVocabulary, detectContext, headingTopics } from '../../../src/directives/context.js'
import { prepareDirective, rankDirectives } from '../../../src/directives/rank.js'
import { taskHeadNoun } from '../../../src/directives/task-intent.js'
import { keepPlacesForTaskKind } from '../../../src/directives/task-kind-places.js'
import { directiveOf } from '../../helpers/directive.js'

/** Issue 29: a task's kind of work ("Write tests for ...") weighs beside the subject it names. */

describe('taskHeadNoun', () => {
  it('is the last word of the phrase the verb acts on, before the words that name its subject', () => {
    expect(taskHeadNoun('Write tests for the order in which tool guardrails run')).toBe('tests')
    expect(taskHeadNoun('Write an integration test in core that checks the shell tool output')).toBe('test')
    expect(taskHeadNoun('Add a run option that limits how many tool calls run at once')).toBe('option')
    expect(taskHeadNoun('Write the changeset and commit message for a fix')).toBe('changeset')
    expect(taskHeadNoun('Upgrade the OpenTelemetry pg instrumentation. Files: package.json')).toBe('instrumentation')
  })

  it('is nothing for a task of one word', () => {
    expect(taskHeadNoun('Refactor')).toBeUndefined()
    expect(taskHeadNoun('')).toBeUndefined()
  })
})

describe('rankDirectives: the kind of work a task is', () => {
  // The topics are learned from the headings of the rules file, not from a fixed list.
  const vocabulary = buildVocabulary({ learnedTopics: headingTopics(['Testing', 'Stdio Transport', 'Code Quality']) })
  const rule = (id: string, text: string, heading: string): ReturnType<typeof directiveOf> =>
    directiveOf(id, text, {
      itemType: 'rule',
      severity: 'SHOULD',
      keyword: undefined,
      breadcrumb: ['Development Guidelines', heading],
      itemTitle: 'Development Guidelines',
    })

  it('reads the topics of the noun its verb acts on as its intent, apart from its subject', () => {
    const context = detectContext('Write a test for the stdio transport', vocabulary)
    expect(context.intentTopics).toEqual(['testing'])
    expect(context.topics).toEqual(expect.arrayContaining(['testing', 'stdio transport']))
    expect(detectContext('Fix the stdio transport of the test client', vocabulary).intentTopics).toEqual(['stdio transport'])
  })

  it('puts a rule of the section on the kind of work before one that only shares the subject, and the reverse', () => {
    const testing = rule('agents#testing-1', 'Async testing: use anyio, not asyncio', 'Testing')
    const subject = rule('agents#stdio-transport-1', 'Close the stdio streams before the process exits', 'Stdio Transport')
    const candidates = [subject, testing].map((entry) => prepareDirective(entry, vocabulary))
    // The subject's rule shares more words with the task, as rules on the task's subject do.
    const similarity = new Map([
      [subject.id, 0.15],
      [testing.id, 0.1],
    ])
    const rankFor = (task: string): string[] =>
      rankDirectives(candidates, detectContext(task, vocabulary), similarity, { strictLayer: true, similarityFloor: 0.35 }).ranked.map(
        (entry) => entry.directive.id,
      )
    expect(rankFor('Write a test for the stdio transport')).toEqual([testing.id, subject.id])
    expect(rankFor('Fix the stdio transport of the test client')).toEqual([subject.id, testing.id])
  })
})

describe('keepPlacesForTaskKind: places of the block for the section on the kind of work', () => {
  // Issue 29: airflow's "Testing Standards" (SHOULD) ranked 12th and 14th for "Write a test that ...", behind
  // MUST rules and command lists that share the word "test"; the block holds eight.
  const vocabulary = buildVocabulary({ learnedTopics: headingTopics(['Testing Standards', 'Coding Standards', 'Commands', 'Scheduler']) })
  const rule = (id: string, text: string, heading: string, severity: 'MUST' | 'SHOULD'): ReturnType<typeof directiveOf> =>
    directiveOf(id, text, { itemType: 'rule', severity, keyword: undefined, breadcrumb: ['AGENTS instructions', heading], itemTitle: 'AGENTS instructions' })
  const others = [1, 2, 3, 4, 5].map((n) => rule(`agents#commands-${n}`, `Run test group ${n} with breeze`, 'Commands', 'MUST'))
  const testing = [1, 2, 3].map((n) => rule(`agents#testing-standards-${n}`, `Testing convention ${n}`, 'Testing Standards', 'SHOULD'))
  const candidates = [...others, ...testing].map((entry) => prepareDirective(entry, vocabulary))
  const similarity = new Map(others.map((entry) => [entry.id, 0.2]))
  const rankedFor = (task: string): ReturnType<typeof rankDirectives>['ranked'] =>
    rankDirectives(candidates, detectContext(task, vocabulary), similarity, { strictLayer: true, similarityFloor: 0.35 }).ranked

  it('marks the rules of a section whose heading names that work, and only them', () => {
    const ranked = rankedFor('Write a test that the scheduler skips paused runs')
    expect(ranked.filter((entry) => entry.onTaskKind === true).map((entry) => entry.directive.id)).toEqual(testing.map((entry) => entry.id))
    // "standards" names the learned topic "testing standards" too, but this heading does not name the work.
    const coding = prepareDirective(rule('agents#coding-standards-1', 'Format tests with ruff', 'Coding Standards', 'MUST'), vocabulary)
    const withCoding = rankDirectives([coding], detectContext('Write a test that the scheduler skips paused runs', vocabulary), new Map(), {
      strictLayer: true,
      similarityFloor: 0.35,
    }).ranked
    expect(withCoding.map((entry) => [entry.directive.id, entry.onTaskKind])).toEqual([['agents#coding-standards-1', undefined]])
    expect(rankedFor('Fix the scheduler when a test run is paused').some((entry) => entry.onTaskKind === true)).toBe(false)
  })

  it('moves the best of them into the last places of the block, in their order, and the displaced rules right after', () => {
    // One rule of the section shares the task's words, so it ranks first: the block holds the section.
    const ranked = rankDirectives(
      candidates,
      detectContext('Write a test that the scheduler skips paused runs', vocabulary),
      new Map([...similarity, [testing[0]!.id, 0.3]]),
      {
        strictLayer: true,
        similarityFloor: 0.35,
      },
    ).ranked
    expect(ranked.slice(0, 6).map((entry) => entry.directive.id)).toEqual([testing[0]!.id, ...others.map((entry) => entry.id)])
    expect(keepPlacesForTaskKind(ranked, 4, 2).map((entry) => entry.directive.id)).toEqual([
      'agents#testing-standards-1',
      'agents#commands-1',
      'agents#commands-2',
      'agents#testing-standards-2',
      'agents#commands-3',
      'agents#commands-4',
      'agents#commands-5',
      'agents#testing-standards-3',
    ])
  })

  it('leaves a ranking alone whose block already holds enough of them, or none of them', () => {
    const ranked = rankedFor('Write a test that the scheduler skips paused runs')
    expect(keepPlacesForTaskKind(ranked, 8, 3)).toEqual(ranked)
    // None in the first four: the ranking did not find the section relevant to this task.
    expect(ranked.slice(0, 4).some((entry) => entry.onTaskKind === true)).toBe(false)
    expect(keepPlacesForTaskKind(ranked, 4, 2)).toEqual(ranked)
    const none = rankedFor('Fix the scheduler when a test run is paused')
    expect(keepPlacesForTaskKind(none, 4, 2)).toEqual(none)
  })
})
