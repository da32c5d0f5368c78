import { describe, expect, it } from 'vitest'
import { buildVocabulary, detectContext, headingTopics } from '../../../src/directives/context.js'
import { prepareDirective, rankDirectives } from '../../../src/directives/rank.js'
import { taskHeadNoun } from '../../../src/directives/task-intent.js'
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
