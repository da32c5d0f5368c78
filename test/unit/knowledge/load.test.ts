import { afterEach, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { problemsToReport, loadKnowledge } from '../../../src/knowledge/load.js'
import { lintKnowledge } from '../../../src/knowledge/lint.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'
import { adrToolsConfig, adrToolsRepo, mkRepo } from '../../fixtures/adr-repos.js'

let workspace: TempWorkspace | undefined
afterEach(async () => workspace?.cleanup())

async function load(files: Record<string, string>) {
  workspace = await makeWorkspace(files)
  const ws = await loadWorkspace({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
  return loadKnowledge(ws)
}

const item = (id: string, extra = ''): string => `---\nid: ${id}\ntitle: ${id}\nstatus: accepted\n${extra}---\nbody\n`

describe('loadKnowledge', () => {
  it('loads every item of the default ./knowledge source, skipping README and memory files', async () => {
    const base = await load({ ...mkRepo, 'knowledge/README.md': '# About\n', 'knowledge/memory/mem_1.md': '---\nlayer: project\n---\nfact\n' })
    expect(base.items.map((entry) => entry.id)).toEqual(['adr-0001-use-postgresql', 'no-eval', 'retry'])
    expect(base.problems).toEqual([])
  })

  it('skips the memory folder of every source, not only the project one', async () => {
    const config = 'knowledge:\n  sources:\n    - { name: project, layer: project, path: knowledge }\n    - { name: team, layer: team, path: team-knowledge }\n'
    const base = await load({
      '.mkrc': config,
      'knowledge/a.md': item('a'),
      'team-knowledge/b.md': item('b'),
      'team-knowledge/memory/mem_1.md': '---\nlayer: team\n---\nfact\n',
    })
    expect(base.items.map((entry) => entry.id)).toEqual(['a', 'b'])
    expect(base.problems).toEqual([])
  })

  it('reports a missing knowledge folder as an error naming the folder', async () => {
    const base = await load({})
    expect(base.problems).toMatchObject([{ code: 'missing-source', file: 'knowledge', severity: 'error' }])
    expect(() => problemsToReport(base)).toThrow(/knowledge folder knowledge of source "project" does not exist/)
  })

  it('reports duplicate ids within a layer', async () => {
    const base = await load({ 'knowledge/a.md': item('same'), 'knowledge/b.md': item('same') })
    expect(base.problems).toMatchObject([{ code: 'duplicate-id', file: 'knowledge/b.md', severity: 'error' }])
  })

  it('lets the most specific layer win and records what it shadows', async () => {
    const config = 'knowledge:\n  sources:\n    - { name: project, layer: project, path: knowledge }\n    - { name: company, layer: company, path: company }\n'
    const base = await load({
      '.mkrc': config,
      'knowledge/a.md': item('shared', 'summary: project version\n'),
      'company/a.md': item('shared', 'summary: company version\n'),
    })
    expect(base.items).toHaveLength(1)
    expect(base.items[0]).toMatchObject({ layer: 'project', summary: 'project version' })
    expect(base.shadowed.get('shared')?.map((hidden) => hidden.layer)).toEqual(['company'])
    expect(base.allItems).toHaveLength(2)
    expect(base.problems).toEqual([])
  })
})

describe('lintKnowledge', () => {
  it('accepts consistent adr-tools supersedes links', async () => {
    const base = await load({ '.mkrc': adrToolsConfig, ...adrToolsRepo })
    expect(lintKnowledge(base)).toEqual([])
  })

  it('reports broken and one-way supersedes links with file and line', async () => {
    const base = await load({
      'knowledge/new.md': item('new', 'supersedes: [old, ghost]\n'),
      'knowledge/old.md': item('old'),
      'knowledge/lonely.md': `---\ntitle: Lonely\nstatus: superseded\n---\nx\n`,
    })
    const problems = lintKnowledge(base).map((problem) => [problem.file, problem.line, problem.code])
    expect(problems).toEqual([
      ['knowledge/lonely.md', 3, 'superseded-without-successor'],
      ['knowledge/new.md', 5, 'broken-supersedes'],
      ['knowledge/new.md', 5, 'one-way-supersedes'],
    ])
    expect(lintKnowledge(base).find((problem) => problem.code === 'one-way-supersedes')?.severity).toBe('warning')
  })

  it('resolves "superseded by ADR-0005" and stale links by the number in the file name (issue 12)', async () => {
    const section = (status: string) => `# X\n\n## Status\n\n${status}\n`
    const base = await load({
      'knowledge/adr/0001-a.md': section('Superseded by ADR-0002'),
      'knowledge/adr/0002-b.md': section('Superseded by [3. C](0003-old-name.md)'),
      'knowledge/adr/0003-c.md': section('Accepted'),
      'knowledge/adr/0004-d.md': section('Superseded by ADR-0009'),
    })
    const byId = new Map(base.items.map((entry) => [entry.id, entry.supersededBy]))
    expect(Object.fromEntries(byId)).toEqual({ '0001-a': ['0002-b'], '0002-b': ['0003-c'], '0003-c': [], '0004-d': ['ADR-0009'] })
  })

  it('issue 11.16: reports a constraint id used by two items as an error', async () => {
    const constraint = (id: string): string => `constraints:\n  - id: ${id}\n    operator: must_not_match\n    target: code\n    pattern: eval\n`
    const base = await load({ 'knowledge/a.md': item('a', constraint('no-eval')), 'knowledge/b.md': item('b', constraint('no-eval')) })
    const problems = lintKnowledge(base).filter((problem) => problem.code === 'duplicate-constraint-id')
    expect(problems).toMatchObject([{ file: 'knowledge/b.md', line: 6, severity: 'error' }])
    expect(problems[0]?.message).toContain('knowledge/a.md')
  })
})
