import { describe, expect, it } from 'vitest'
import { outlineMarkdown } from '../../../src/knowledge/markdown.js'
import { parseKnowledgeFile } from '../../../src/knowledge/parse.js'
import { adrToolsRepo, madrRepo, mkRepo } from '../../fixtures/adr-repos.js'

function parse(path: string, text: string) {
  return parseKnowledgeFile({ path, absolutePath: `/ws/${path}`, source: 'project', layer: 'project', text })
}

function parseFixture(repo: Record<string, string>, path: string) {
  const text = repo[path]
  if (text === undefined) throw new Error(`no fixture ${path}`)
  return parse(path, text)
}

describe('parseKnowledgeFile', () => {
  it('reads mk-native items with constraints and defaults', async () => {
    const { item, problems } = await parseFixture(mkRepo, 'knowledge/adr/adr-0001-use-postgresql.md')
    expect(problems).toEqual([])
    expect(item).toMatchObject({
      id: 'adr-0001-use-postgresql',
      type: 'adr',
      status: 'accepted',
      layer: 'project',
      tags: ['database', 'infrastructure'],
      format: 'mk',
    })
    expect(item?.constraints).toHaveLength(1)
    expect(item?.constraints[0]).toMatchObject({ id: 'no-mysql', operator: 'must_not_use', target: 'dependency', severity: 'block', paths: [], waivable: true })
    expect(item?.constraints[0]?.line).toBe(10)
  })

  it('gives constraints a default id and the warn severity when the item has none', async () => {
    const { item } = await parseFixture(mkRepo, 'knowledge/policies/no-eval.md')
    expect(item?.id).toBe('no-eval')
    expect(item?.constraints[0]).toMatchObject({ id: 'no-eval#1', severity: 'warn', pattern: '\\beval\\(' })
  })

  it('takes the title from the first heading when frontmatter has none, and the id from the file name', async () => {
    const { item } = await parse('knowledge/policies/x.md', '---\nstatus: accepted\n---\n# Keep logs structured\n\nText.\n')
    expect(item?.title).toBe('Keep logs structured')
    expect(item?.id).toBe('x')
    expect(item?.type).toBe('policy')
  })

  it('reads MADR 2 status lines and superseded-by links', async () => {
    const { item, problems } = await parseFixture(madrRepo, 'docs/decisions/0002-use-mysql.md')
    expect(problems).toEqual([])
    expect(item).toMatchObject({
      id: '0002-use-mysql',
      type: 'adr',
      status: 'superseded',
      supersededBy: ['0003-use-postgresql'],
      date: '2020-04-01',
      format: 'madr',
    })
  })

  it('reads MADR 3 frontmatter status with the title from the heading', async () => {
    const { item } = await parseFixture(madrRepo, 'docs/decisions/0003-use-postgresql.md')
    expect(item).toMatchObject({ title: 'Use PostgreSQL', status: 'accepted', type: 'adr', date: '2021-01-10' })
  })

  it('reads adr-tools numbered titles, status sections and links', async () => {
    const first = (await parseFixture(adrToolsRepo, 'doc/adr/0001-record-architecture-decisions.md')).item
    expect(first).toMatchObject({ title: 'Record architecture decisions', status: 'accepted', format: 'adr-tools', date: '2019-05-02' })
    const second = (await parseFixture(adrToolsRepo, 'doc/adr/0002-use-rabbitmq.md')).item
    expect(second).toMatchObject({ status: 'superseded', supersededBy: ['0003-use-kafka'] })
    const third = (await parseFixture(adrToolsRepo, 'doc/adr/0003-use-kafka.md')).item
    expect(third).toMatchObject({ status: 'accepted', supersedes: ['0002-use-rabbitmq'] })
  })

  it('keeps sections with their heading paths and lines', async () => {
    const { item } = await parseFixture(adrToolsRepo, 'doc/adr/0001-record-architecture-decisions.md')
    if (item === undefined) throw new Error('not parsed')
    const decision = outlineMarkdown(item.body, item.bodyStartLine).sections.find((section) => section.headingPath.at(-1) === 'Decision')
    expect(decision?.headingPath).toEqual(['1. Record architecture decisions', 'Decision'])
    expect(decision?.line).toBe(13)
    expect(decision?.text).toContain('Michael Nygard')
  })

  it('reports malformed YAML with its line and no item', async () => {
    const { item, problems } = await parse('knowledge/adr/bad.md', '---\ntitle: Bad\ntags: [a, b\nstatus: accepted\n---\nbody\n')
    expect(item).toBeUndefined()
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatchObject({ code: 'malformed-frontmatter', severity: 'error', file: 'knowledge/adr/bad.md' })
    expect(problems[0]?.line).toBeGreaterThanOrEqual(3)
  })

  it('reports unknown type, operator and target at their lines, and an unmapped status as a warning (issue 12)', async () => {
    const text = [
      '---',
      'title: T',
      'type: decision',
      'status: aproved',
      'constraints:',
      '  - operator: must_not_exist',
      '    target: package',
      '    pattern: x',
      '  - operator: must_match',
      '    target: dependency',
      '    pattern: y',
      '  - operator: must_not_match',
      '    target: code',
      '    pattern: "(unclosed"',
      '---',
      'x',
    ].join('\n')
    const { problems } = await parse('knowledge/t.md', text)
    const byCode = Object.fromEntries(problems.map((problem) => [problem.code, problem.line]))
    expect(byCode).toEqual({ 'unknown-type': 3, 'unmapped-status': 4, 'unknown-target': 7, 'operator-target-mismatch': 9, 'invalid-pattern': 14 })
    expect(problems.filter((problem) => problem.severity === 'warning').map((problem) => problem.code)).toEqual(['unmapped-status'])
  })

  it('reports frontmatter that is not a mapping', async () => {
    const { problems } = await parse('knowledge/t.md', '---\n- a\n- b\n---\nx\n')
    expect(problems[0]?.code).toBe('malformed-frontmatter')
  })
})
