import { afterEach, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { runtimeEnvFrom } from '../../../src/config/workspace.js'
import { plainStyle } from '../../../src/style.js'
import { Resources } from '../../../src/tools/context.js'
import { dispatch } from '../../../src/tools/dispatcher.js'
import { rulesEvaluate } from '../../../src/tools/policy-rules/evaluate.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

/* Seed 002's applied.shadow_*: the policy the matched shadow rules make together, reported and never applied. */

const rule = (title: string, lines: string[]): string =>
  ['---', 'type: rule', `title: ${title}`, `summary: ${title}`, ...lines, '---', `# ${title}`, ''].join('\n')

let workspace: TempWorkspace | undefined
afterEach(async () => {
  await workspace?.cleanup()
  workspace = undefined
})

async function evaluate(input: Record<string, unknown>): Promise<{ applied: Record<string, unknown> }> {
  workspace ??= await makeWorkspace({
    '.mkrc': '',
    'knowledge/rules/prefer-rg.md': rule('Prefer rg', ['if: {"==": [{"var": "task.kind"}, "search"]}', 'then: {tool: {prefer: [rg, grep]}}']),
    'knowledge/rules/trial-deny-grep.md': rule('Trial deny grep', ['state: shadow', 'priority: 5', 'then: {tool: {deny: [grep]}, output: {format: json}}']),
    'knowledge/rules/trial-prefer-grep.md': rule('Trial prefer grep', [
      'state: shadow',
      'if: {"==": [{"var": "task.kind"}, "search"]}',
      'then: {tool: {prefer: [grep]}, output: {format: markdown}}',
    ]),
  })
  const outcome = await dispatch(rulesEvaluate, input, {
    workspace: await loadWorkspace({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } }),
    env: {},
    cwd: workspace.root,
    runtime: runtimeEnvFrom({}),
    style: plainStyle,
    resources: new Resources(),
  })
  if (!outcome.ok) throw new Error(outcome.error.message)
  return outcome.output as { applied: Record<string, unknown> }
}

describe('rules_evaluate applied.shadow_*', () => {
  it('merge the matched shadow rules as the active ones are merged, with their conflicts and tool explanation', async () => {
    const { applied } = await evaluate({ context: { task: { kind: 'search' } } })
    // The active policy is the active rule's alone: shadow rules are never applied.
    expect(applied.policy).toEqual({ tool: { prefer: ['rg', 'grep'] } })
    expect(applied.sources).toEqual(['prefer-rg'])
    expect(applied.shadow_policy).toEqual({ output: { format: 'json' }, tool: { deny: ['grep'] } })
    expect(applied.shadow_sources).toEqual(['trial-deny-grep', 'trial-prefer-grep'])
    expect(applied.shadow_conflicts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'output.format', winner: 'trial-deny-grep', loser: 'trial-prefer-grep' }),
        expect.objectContaining({ path: 'tool.grep', winner: 'trial-deny-grep', loser: 'trial-prefer-grep' }),
      ]),
    )
    expect(applied.shadow_conflict_explain).toHaveLength(2)
    expect(applied.shadow_tool_explain).toEqual(expect.arrayContaining([expect.stringContaining('grep')]))
  })

  it('are left out when shadow rules are not asked for', async () => {
    const { applied } = await evaluate({ context: { task: { kind: 'search' } }, include_shadow: false })
    expect(Object.keys(applied).filter((key) => key.startsWith('shadow_'))).toEqual([])
  })

  it('hold only the shadow rules whose condition matches the context', async () => {
    const { applied } = await evaluate({ context: { task: { kind: 'docs' } } })
    expect(applied).toMatchObject({ shadow_sources: ['trial-deny-grep'], shadow_conflicts: [] })
  })
})
