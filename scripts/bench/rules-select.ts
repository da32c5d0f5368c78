import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connectMk, timed } from './mcp-client.js'
import { median, round } from './measure.js'

const environments = ['production', 'staging', 'development']
const teams = ['platform', 'payments', 'search', 'mobile']

/** `count` policy rules over `tools` tool names: global, team and agent scoped, a fifth of them shadow, conditions of one to three paths. */
async function policyWorkspace(count: number, tools: readonly string[]): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'mk-bench-policy-'))
  const dir = join(root, 'knowledge', 'rules')
  await mkdir(dir, { recursive: true })
  await writeFile(join(root, '.mkrc'), 'search:\n  embedding:\n    provider: none\n')
  for (let index = 0; index < count; index++) {
    const scope = index % 3 === 0 ? 'team' : index % 7 === 0 ? 'agent' : 'global'
    const target = scope === 'team' ? [`target_team_id: ${teams[index % teams.length]}`] : scope === 'agent' ? ['target_agent_id: planner-1'] : []
    const condition = [
      `{"==": [{"var": "environment"}, "${environments[index % environments.length]}"]}`,
      `{"in": [{"var": "task.kind"}, ["search", "edit", "deploy"]]}`,
      `{">=": [{"var": "task.risk"}, ${index % 5}]}`,
    ].slice(0, 1 + (index % 3))
    const tool = (offset: number): string => tools[(index * 7 + offset) % tools.length] ?? 'tool-0'
    const then =
      index % 4 === 0
        ? `{tool: {deny: [${tool(1)}]}}`
        : index % 4 === 1
          ? `{tool: {prefer: [${tool(2)}, ${tool(3)}]}}`
          : `{output: {format: ${index % 2 === 0 ? 'json' : 'markdown'}}, tool: {prefer: [${tool(5)}]}}`
    const frontmatter = [
      '---',
      `id: rule-${index}`,
      'type: rule',
      `title: Rule ${index}`,
      `state: ${index % 5 === 0 ? 'shadow' : 'active'}`,
      `scope: ${scope}`,
      ...target,
      `priority: ${(index % 11) - 5}`,
      `if: {"and": [${condition.join(', ')}]}`,
      `then: ${then}`,
      '---',
    ]
    await writeFile(join(dir, `rule-${index}.md`), `${frontmatter.join('\n')}\n# Rule ${index}\n`)
  }
  return root
}

/** Issue 15's budget: tools_select with 200 rules and 200 candidates ≤ 20 ms inside the MCP server. */
export async function benchRulesSelect(): Promise<Record<string, unknown>> {
  const tools = Array.from({ length: 200 }, (_, index) => `tool-${index}`)
  const root = await policyWorkspace(200, tools)
  const client = await connectMk(root)
  const context = (run: number): Record<string, unknown> => ({
    agent: { id: 'planner-1', team_id: teams[run % teams.length] },
    environment: environments[run % environments.length],
    task: { kind: 'search', risk: run % 5 },
  })
  const matched: number[] = []
  const call = async (run: number): Promise<void> => {
    const result = await client.callTool({ name: 'tools_select', arguments: { context: context(run), candidates: tools, strict: false, include_shadow: true } })
    if (result.isError === true) throw new Error(`tools_select failed: ${JSON.stringify(result.content)}`)
    matched.push((result.structuredContent as { rules: { matched: number } }).rules.matched)
  }
  const first = await timed(() => call(0))
  const warm: number[] = []
  for (let run = 1; run <= 40; run++) warm.push(await timed(() => call(run)))
  await client.close()
  await rm(root, { recursive: true, force: true })
  const warmMedian = median(warm)
  return {
    rules: 200,
    candidates: tools.length,
    first_call_ms: round(first),
    warm_median_ms: round(warmMedian),
    warm_max_ms: round(Math.max(...warm)),
    runs: warm.length,
    matched_rules_median: median(matched),
    budget_ms: 20,
    within_budget: warmMedian <= 20,
    note: 'round trip through the MCP client (JSON-RPC over stdio included); the context changes on every call',
  }
}
