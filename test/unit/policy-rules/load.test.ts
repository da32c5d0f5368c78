import { afterEach, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { loadPolicyRules, policySignature } from '../../../src/policy-rules/load.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

let workspace: TempWorkspace | undefined
afterEach(async () => workspace?.cleanup())

const mkrc = 'knowledge:\n  sources:\n    - { name: project, layer: project, path: knowledge }\n'

describe('loading policy rules', () => {
  it('reports only the files that did not load, since only those can hide a rule', async () => {
    workspace = await makeWorkspace({
      '.mkrc': mkrc,
      'knowledge/rules/deny-shell.md': '---\ntype: rule\ntitle: Deny shell\nthen: {tool: {deny: [shell]}}\n---\n',
      'knowledge/rules/broken.md': '---\ntype: rule\ntitle: [unclosed\n---\n',
      'knowledge/adr/adr-0001-x.md': '---\ntitle: X\nconstraints:\n  - {operator: nope, target: file, pattern: a}\n---\n',
    })
    const loaded = await loadPolicyRules(await loadWorkspace({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } }))
    expect(loaded.rules.map((rule) => [rule.id, rule.commit])).toEqual([['deny-shell', undefined]])
    expect(loaded.problems.map((problem) => [problem.file, problem.code])).toEqual([['knowledge/rules/broken.md', 'malformed-frontmatter']])
  })

  it('changes its signature when a knowledge file changes, and only then', async () => {
    workspace = await makeWorkspace({ '.mkrc': mkrc, 'knowledge/rules/a.md': '---\ntype: rule\ntitle: A\nthen: {}\n---\n' })
    const ws = await loadWorkspace({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    const first = await policySignature(ws)
    expect(await policySignature(ws)).toBe(first)
    await workspace.write('knowledge/rules/a.md', '---\ntype: rule\ntitle: A\nthen: {tool: {deny: [curl]}}\n---\n')
    expect(await policySignature(ws)).not.toBe(first)
  })
})
