import { describe, expect, it } from 'vitest'
import { parseKnowledgeFile } from '../../../src/knowledge/parse.js'
import { budgetProblems, conditionPaths, evaluateCondition, operatorProblems } from '../../../src/knowledge/policy-rule/condition.js'
import { readPatch } from '../../../src/knowledge/policy-rule/patch.js'

async function parse(text: string) {
  return parseKnowledgeFile({ path: 'knowledge/rules/rule.md', absolutePath: '/ws/knowledge/rules/rule.md', source: 'project', layer: 'project', text })
}

/** Errors and warnings: every file without a status also gets an info that it counts as accepted. */
const reported = (parsed: Awaited<ReturnType<typeof parse>>) => parsed.problems.filter((problem) => problem.severity !== 'info')
const problemsOf = (parsed: Awaited<ReturnType<typeof parse>>) => reported(parsed).map((problem) => [problem.line, problem.code, problem.severity])

describe('policy rule frontmatter', () => {
  it('reports every malformed field at its line, and keeps the rule from being applied', async () => {
    const parsed = await parse(
      [
        '---',
        'type: rule',
        'title: Bad rule',
        'priority: 500',
        'weight: 3',
        'lane: private',
        'if:',
        '  and:',
        '    - {"==": [{"var": "environment"}, "production"]}',
        '    - {"regex_match": [{"var": "task"}, "deploy"]}',
        'then:',
        '  tool: {allow: rg}',
        'scope: team',
        '---',
        '# Bad rule',
      ].join('\n'),
    )
    expect(problemsOf(parsed)).toEqual([
      [10, 'unknown-logic-operator', 'error'],
      [11, 'invalid-then', 'error'],
      [13, 'missing-scope-target', 'error'],
      [6, 'invalid_private_rule_owner', 'error'],
      [4, 'invalid-priority', 'error'],
      [5, 'invalid-weight', 'error'],
    ])
    const policy = parsed.item?.policy
    expect(policy?.defects.map((defect) => defect.field)).toEqual(['if.and.1.regex_match', 'then', 'scope', 'lane', 'priority', 'weight'])
    expect(policy?.patch).toBeUndefined()
    expect(reported(parsed)[1]?.message).toContain('then.tool.allow')
    expect(reported(parsed)[1]?.message).toContain('skipped_invalid_then')
  })

  it('reads a valid rule with its defaults and the context paths its condition and exceptions read', async () => {
    const parsed = await parse(
      [
        '---',
        'type: rule',
        'title: Good rule',
        'if: {"and": [{"==": [{"var": "environment"}, "production"]}, {"in": [{"var": "task.kind"}, ["edit", "deploy"]]}]}',
        'exceptions:',
        '  - {"missing": ["agent.id"]}',
        'then: {output: {format: json}, tool: {deny: [shell]}, extensions: {acme.review: {reviewers: 2}}}',
        '---',
      ].join('\n'),
    )
    expect(reported(parsed)).toEqual([])
    expect(parsed.item?.policy).toMatchObject({
      state: 'active',
      scope: 'global',
      lane: 'shared',
      priority: 0,
      weight: 1,
      defects: [],
      conditionPaths: ['agent.id', 'environment', 'task.kind'],
      patch: { output: { format: 'json' }, tool: { deny: ['shell'] }, extensions: { 'acme.review': { reviewers: 2 } } },
    })
  })

  it('treats a rule item without if or then (an ingested agent rules file) as no policy rule', async () => {
    const parsed = await parse('---\ntype: rule\ntitle: Conventions\n---\n- Run the tests.\n')
    expect(parsed.item?.policy).toBeUndefined()
    expect(reported(parsed)).toEqual([])
  })

  it('needs then when a rule has a condition', async () => {
    const parsed = await parse('---\ntype: rule\ntitle: Half a rule\nif: true\n---\n')
    expect(problemsOf(parsed)).toEqual([[2, 'invalid-then', 'error']])
  })
})

const range = (length: number): number[] => Array.from({ length }, (_, index) => index)

describe('JSON Logic conditions', () => {
  it('asks json-logic-js which operators exist, and refuses log, which writes to the console', () => {
    expect(operatorProblems({ and: [{ '==': [1, 1] }, { some: [[1], { '>': [{ var: '' }, 0] }] }] })).toEqual([])
    expect(operatorProblems({ or: [{ regex: ['a', 'b'] }, { log: 'x' }] }).map((problem) => [problem.operator, problem.path])).toEqual([
      ['regex', ['or', 0, 'regex']],
      ['log', ['or', 1, 'log']],
    ])
  })

  it('lists the context paths a condition reads, but not the element paths inside map or filter', () => {
    expect(conditionPaths({ some: [{ var: 'files' }, { '==': [{ var: 'ext' }, 'ts'] }] })).toEqual(['files'])
    expect(conditionPaths({ missing_some: [1, ['a', 'b.c']] })).toEqual(['a', 'b.c'])
  })

  it('evaluates with JSON Logic truthiness, and reports a failing operator as not holding', () => {
    expect(evaluateCondition({ '==': [{ var: 'environment' }, 'production'] }, { environment: 'production' })).toEqual({ holds: true })
    expect(evaluateCondition({ var: 'list' }, { list: [] })).toEqual({ holds: false })
    expect(evaluateCondition({ nope: [] }, {})).toMatchObject({ holds: false, error: expect.stringContaining('nope') })
  })

  it('stops an evaluation past its size budget, as a condition that does not hold, instead of building 2^22 elements', () => {
    // The rule doubles the list once per element: 30 elements took 1.2 GB; 22 are enough to pass the budget.
    const doubling = { reduce: [range(22), { merge: [{ var: 'accumulator' }, { var: 'accumulator' }] }, [1]] }
    expect(evaluateCondition(doubling, {})).toEqual({ holds: false, error: expect.stringContaining('evaluation budget') as string })
    const overContext = { reduce: [{ var: 'items' }, { merge: [{ var: 'accumulator' }, { var: 'accumulator' }] }, [1]] }
    expect(evaluateCondition(overContext, { items: range(22) })).toMatchObject({ holds: false, error: expect.stringContaining('1000000 array elements') })
    const longText = { reduce: [range(22), { cat: [{ var: 'accumulator' }, { var: 'accumulator' }] }, 'ab'] }
    expect(evaluateCondition(longText, {})).toMatchObject({ holds: false, error: expect.stringContaining('evaluation budget') })
  })

  it('stops an evaluation past its step budget', () => {
    const many = { some: [{ var: 'items' }, { '==': [{ var: '' }, -1] }] }
    expect(evaluateCondition(many, { items: range(1000) })).toEqual({ holds: false })
    expect(evaluateCondition(many, { items: range(100_000) })).toMatchObject({ holds: false, error: expect.stringContaining('100000 evaluation steps') })
  })

  it('evaluates merge and cat as json-logic-js does, within the budget', () => {
    expect(evaluateCondition({ '==': [{ cat: ['a', ['b', null, ['c']], 1, null] }, 'ab,,c1'] }, {})).toEqual({ holds: true })
    expect(evaluateCondition({ in: [3, { merge: [[1], 2, [[3], 4], 3] }] }, {})).toEqual({ holds: true })
    expect(evaluateCondition({ '==': [{ reduce: [{ merge: [[1, 2], 3] }, { '+': [{ var: 'current' }, { var: 'accumulator' }] }, 0] }, 6] }, {})).toEqual({
      holds: true,
    })
  })

  it('reports a reduce that doubles its accumulator, whatever the list, and a condition over budget on an empty context', () => {
    expect(budgetProblems({ reduce: [{ var: 'items' }, { if: [true, { merge: [{ var: 'accumulator' }, { var: 'accumulator.x' }] }] }, []] })).toEqual([
      { operator: 'merge', path: ['reduce', 1, 'if', 1, 'merge'], message: expect.stringContaining('grows exponentially') as string },
    ])
    expect(budgetProblems({ reduce: [{ var: 'items' }, { merge: [{ var: 'accumulator' }, [{ var: 'current' }]] }, []] })).toEqual([])
    expect(budgetProblems({ some: [range(200_000), { '==': [{ var: '' }, -1] }] })).toMatchObject([{ message: expect.stringContaining('empty context') }])
    expect(budgetProblems({ '==': [{ var: 'environment' }, 'production'] })).toEqual([])
  })
})

describe('a policy rule over the evaluation budget', () => {
  it('is a lint error at its line and never applied', async () => {
    const parsed = await parse(
      [
        '---',
        'type: rule',
        'title: Doubling rule',
        'status: accepted',
        `if: ${JSON.stringify({ reduce: [range(30), { merge: [{ var: 'accumulator' }, { var: 'accumulator' }] }, [1]] })}`,
        'then: {output: {format: json}}',
        '---',
        '# Doubling rule',
      ].join('\n'),
    )
    expect(problemsOf(parsed)).toEqual([[5, 'over-logic-budget', 'error']])
    expect(parsed.item?.policy?.defects.map((defect) => defect.field)).toEqual(['if.reduce.1.merge'])
  })
})

describe('policy patches', () => {
  it('accepts exactly the strict schema and names every wrong field', () => {
    expect(readPatch({ tool: { prefer: ['rg'] } })).toEqual({ patch: { tool: { prefer: ['rg'] } } })
    const wrong = readPatch({ output: { format: 'yaml' }, tool: { allow: ['rg', 3] }, extensions: { Acme: { a: 1 } }, colour: 'red' })
    expect(wrong.error).toContain('then.output.format')
    expect(wrong.error).toContain('then.tool.allow[1]')
    expect(wrong.error).toContain('then.extensions')
    expect(wrong.error).toContain('colour')
  })
})

describe('if/then outside a rule item', () => {
  it('warns that they are ignored, at their line, since only type: rule items are policy rules', async () => {
    const parsed = await parseKnowledgeFile({
      path: 'knowledge/policies/no-shell.md',
      absolutePath: '/ws/knowledge/policies/no-shell.md',
      source: 'project',
      layer: 'project',
      text: '---\ntitle: No shell\nthen: {tool: {deny: [shell]}}\n---\n',
    })
    expect(parsed.item?.policy).toBeUndefined()
    expect(reported(parsed).map((problem) => [problem.line, problem.code, problem.severity])).toEqual([[3, 'policy-fields-outside-rule', 'warning']])
  })
})
