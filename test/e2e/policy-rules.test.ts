import * as fs from 'node:fs'
import { cp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import git from 'isomorphic-git'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectMcp } from '../contract/paths.js'
import { expectCleanError, parseJson, runMk } from '../helpers/mk.js'
import { gitCommitAll, gitInit, makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/* Issue 15 end to end: the built mk on the policy-rules fixture (run npm run build first). */

const fixture = fileURLToPath(new URL('../fixtures/policy-rules', import.meta.url))
const platformSearch = { agent: { id: 'planner-1', team_id: 'platform' }, environment: 'production', task: { kind: 'search' } }

let workspace: TempWorkspace
let head: string
beforeAll(async () => {
  workspace = await makeWorkspace()
  await cp(fixture, workspace.root, { recursive: true })
  await workspace.write(
    'knowledge/rules/no-bash-in-production.md',
    '---\ntype: rule\ntitle: No Bash in production\nsummary: Claude Code may not run Bash against production\nif: {"==": [{"var": "environment"}, "production"]}\nthen: {tool: {deny: [Bash]}}\n---\n',
  )
  await writeFile(join(workspace.root, 'platform-search.json'), JSON.stringify(platformSearch))
  await gitInit(workspace.root)
  head = await gitCommitAll(workspace.root, 'knowledge')
})
afterAll(async () => workspace.cleanup())

const mk = (args: string[], input?: string) =>
  runMk(args, { cwd: workspace.root, env: { MK_HOME: workspace.mkHome, MK_AGENT_ID: undefined }, ...(input === undefined ? {} : { input }) })

interface Selected {
  candidates: string[]
  selection: { allowed: string[]; denied: string[]; preferred: string[]; ordered: string[]; selected?: string; fallback?: string }
  rules: { considered: number; tool_explain: string[]; conflict_explain: string[]; shadow_selection?: { selected?: string; differs: boolean } }
}

async function select(args: string[], input?: string): Promise<Selected> {
  const run = await mk(['tools', 'select', ...args, '--json'], input)
  expect(run.exitCode, run.stderr).toBe(0)
  return parseJson<Selected>(run)
}

describe('mk rules evaluate', () => {
  it('returns the matched rules with rank, match detail and source, the skipped invalid rule and the applied policy', async () => {
    const run = await mk(['rules', 'evaluate', '--context', 'platform-search.json', '--json'])
    expect(run.exitCode, run.stderr).toBe(0)
    const answer = parseJson<Record<string, unknown>>(run)
    expect(answer).toMatchObject({
      considered: 14,
      matched: 7,
      skipped_invalid_then: [
        { rule_id: 'broken-then', path: 'knowledge/rules/broken-then.md', field: 'then', sample: { tool: { allow: 'rg' }, colour: 'red' } },
      ],
      agent_visibility_summary: {
        agent: { id: 'planner-1', team_id: 'platform' },
        rule_scope: { scanned: 14, filtered_by_scope: 1, filtered_by_lane: 2, skipped_invalid_then: 1, matched_active: 6, matched_shadow: 1 },
        lane: { applied: true, reason: 'agent_and_team_context' },
      },
      applied: { policy: { output: { format: 'json', strict: true }, tool: { deny: ['shell', 'Bash'], prefer: ['grep', 'rg'] } } },
    })
    const active = answer.active as { rule_id: string; rank: { score: number }; match_detail: unknown; source: unknown; if?: unknown }[]
    expect(active.map((match) => match.rule_id)).toEqual([
      'no-shell-in-production',
      'json-output-for-agents',
      'planner-1-prefers-grep',
      'no-bash-in-production',
      'prefer-rg-for-search',
      'search-tools-only',
    ])
    expect(active[0]).toMatchObject({
      rank: { score: 10052, evidence_score: 0.5, priority: 10, weight: 1, specificity: 2 },
      match_detail: { condition_paths: ['environment', 'task.kind'], condition_path_count: 2 },
      source: { path: 'knowledge/rules/no-shell-in-production.md', commit: head },
      if: { '==': [{ var: 'environment' }, 'production'] },
      exceptions: [{ '==': [{ var: 'task.kind' }, 'incident'] }],
    })
    expect((answer.shadow as { rule_id: string }[]).map((match) => match.rule_id)).toEqual(['shadow-deny-grep'])
  })

  it('reads the context from stdin and leaves shadow rules out with --no-shadow', async () => {
    const run = await mk(
      ['rules', 'evaluate', '--context', '-', '--no-shadow', '--json'],
      JSON.stringify({ agent: { id: 'planner-1' }, task: { kind: 'docs' } }),
    )
    expect(run.exitCode, run.stderr).toBe(0)
    const answer = parseJson<{ shadow: unknown[]; applied: { conflict_explain: string[] } }>(run)
    expect(answer.shadow).toEqual([])
    expect(answer.applied.conflict_explain).toEqual([
      'output.format: json-output-for-agents wins over markdown-output-for-docs ("json" instead of "markdown") — higher priority (5 vs 1)',
    ])
  })

  it('prints the rules and the policy for a person', async () => {
    const run = await mk(['rules', 'evaluate', '--context', 'platform-search.json'])
    expect(run.exitCode, run.stderr).toBe(0)
    expect(run.stdout).toContain('14 rules considered, 7 matched (6 active, 1 shadow), 1 skipped as invalid')
    expect(run.stdout).toContain('skipped broken-then (knowledge/rules/broken-then.md): then is not a valid policy patch')
    expect(run.stdout).toContain('conflict tool.shell: no-shell-in-production denies "shell", which search-tools-only would allow')
  })

  it('names the flag when the context is missing or not an object, with exit 2 and no stack trace', async () => {
    const missing = await mk(['rules', 'evaluate', '--context', 'nope.json', '--json'])
    expectCleanError(missing)
    expect(parseJson(missing)).toMatchObject({ errorCode: 'INVALID_INPUT', details: { field: '--context' } })
    expect(parseJson<{ message: string }>(missing).message).toContain('nope.json: no such file')
    const list = await mk(['rules', 'evaluate', '--context', '-'], '[1, 2]')
    expect(expectCleanError(list)).toContain('--context - (stdin): expected a JSON object')
  })
})

describe('mk tools select', () => {
  it('selects by the rules, explains each candidate, and reports the shadow selection', async () => {
    const answer = await select(['--context', 'platform-search.json', '--candidates', 'shell,rg,grep,fd,read,rg', '--include-shadow'])
    expect(answer.candidates).toEqual(['shell', 'rg', 'grep', 'fd', 'read'])
    expect(answer.selection).toEqual({
      allowed: ['rg', 'grep', 'read'],
      denied: ['shell', 'fd'],
      preferred: ['grep', 'rg'],
      ordered: ['grep', 'rg', 'read'],
      selected: 'grep',
    })
    expect(answer.rules.tool_explain).toEqual(
      expect.arrayContaining([
        'shell: denied by no-shell-in-production',
        'fd: not in the allow list of search-tools-only',
        'grep: allowed, preferred by planner-1-prefers-grep (rank 71)',
      ]),
    )
    expect(answer.rules.shadow_selection).toMatchObject({ selected: 'rg', differs: true })
  })

  it('refuses with NO_TOOLS_ALLOWED (exit 2) when strict and nothing is allowed, and falls back to deny-only with --no-strict', async () => {
    const strict = await mk(['tools', 'select', '--context', 'platform-search.json', '--candidates', 'shell,fd', '--json'])
    expectCleanError(strict)
    expect(parseJson(strict)).toMatchObject({
      errorCode: 'NO_TOOLS_ALLOWED',
      details: { denied: { shell: ['no-shell-in-production'], fd: ['search-tools-only'] } },
    })
    const loose = await select(['--context', 'platform-search.json', '--candidates', 'shell,fd', '--no-strict'])
    expect(loose.selection).toMatchObject({ allowed: ['fd'], denied: ['shell'], selected: 'fd', fallback: expect.stringContaining('fell back to deny-only') })
  })

  it('names the field when the candidates are empty', async () => {
    const run = await mk(['tools', 'select', '--candidates', ',', '--json'])
    expectCleanError(run)
    expect(JSON.stringify(parseJson(run))).toContain('candidates')
  })
})

describe('mk tools feedback', () => {
  it('credits the rules that named the tool, commits the outcome in MK_HOME, and changes their rank and the selection', async () => {
    const before = await select(['--context', 'platform-search.json', '--candidates', 'shell,rg,grep'])
    expect(before.selection.selected).toBe('grep')
    for (let run = 0; run < 3; run++) {
      const feedback = await mk([
        'tools',
        'feedback',
        '--context',
        'platform-search.json',
        '--candidates',
        'shell,rg,grep',
        '--tool',
        'rg',
        '--outcome',
        'positive',
        '--run-id',
        `run-${run}`,
        '--input-text',
        'find where the session timeout is set',
        '--json',
      ])
      expect(feedback.exitCode, feedback.stderr).toBe(0)
      expect(parseJson(feedback)).toMatchObject({
        updated_rules: 2,
        rule_ids: ['prefer-rg-for-search', 'search-tools-only'],
        commit: expect.stringMatching(/^[0-9a-f]{40}$/),
      })
    }
    const after = await select(['--context', 'platform-search.json', '--candidates', 'shell,rg,grep'])
    expect(after.selection.ordered).toEqual(['rg', 'grep'])
    const evaluated = parseJson<{ active: { rule_id: string; stats: unknown; rank: unknown }[] }>(
      await mk(['rules', 'evaluate', '--context', 'platform-search.json', '--json']),
    )
    expect(evaluated.active.find((match) => match.rule_id === 'prefer-rg-for-search')).toMatchObject({
      stats: { positive: 3, negative: 0 },
      rank: { evidence_score: 0.8, score: 81 },
    })

    const log = await git.log({ fs, dir: workspace.mkHome })
    const messages = log.map((entry) => entry.commit.message.split('\n')[0])
    expect(messages.filter((message) => message === 'rule outcome positive for rg: prefer-rg-for-search, search-tools-only')).toHaveLength(3)
    const ledger = fs
      .readdirSync(join(workspace.mkHome, 'rule-outcomes'))
      .map((folder) => join(workspace.mkHome, 'rule-outcomes', folder, 'prefer-rg-for-search.jsonl'))
      .find((path) => fs.existsSync(path))
    const lines = fs
      .readFileSync(ledger ?? '', 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.map((line) => line.run_id)).toEqual(['run-0', 'run-1', 'run-2'])
    expect(JSON.stringify(lines)).not.toContain('session timeout')
    expect(fs.readFileSync(join(workspace.mkHome, '.gitattributes'), 'utf8')).toContain('rule-outcomes/**/*.jsonl merge=union')
  })

  it('asks for exactly one of --input-text and --input-sha256, and for a selected tool among the candidates', async () => {
    const neither = await mk(['tools', 'feedback', '--candidates', 'rg', '--tool', 'rg', '--outcome', 'positive', '--json'])
    expectCleanError(neither)
    expect(parseJson(neither)).toMatchObject({ errorCode: 'INVALID_INPUT', details: { field: 'input_text' } })
    const outside = await mk(['tools', 'feedback', '--candidates', 'rg', '--tool', 'grep', '--outcome', 'positive', '--input-text', 'x', '--json'])
    expectCleanError(outside)
    expect(parseJson(outside)).toMatchObject({ errorCode: 'INVALID_INPUT', details: { field: 'selected_tool' } })
  })
})

describe('mk hook claude', () => {
  const event = (tool: string) =>
    JSON.stringify({ session_id: 's1', cwd: '/repo', hook_event_name: 'PreToolUse', tool_name: tool, tool_input: { command: 'kubectl get pods' } })

  it('denies a tool the rules deny, in the PreToolUse output format, with the rule as the reason', async () => {
    await workspace.write('prod.json', JSON.stringify({ environment: 'production' }))
    const run = await mk(['hook', 'claude', '--context', 'prod.json'], event('Bash'))
    expect(run.exitCode, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'mk policy rules: Bash: denied by no-bash-in-production (Claude Code may not run Bash against production)',
      },
    })
  })

  it('prints nothing (no decision) for a tool the rules let through and for other events', async () => {
    for (const input of [event('Read'), JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Bash' })]) {
      const run = await mk(['hook', 'claude', '--context', 'prod.json'], input)
      expect(run.exitCode, run.stderr).toBe(0)
      expect(run.stdout).toBe('')
    }
  })

  it('exits 2 (Claude Code refuses the call) on input it cannot read', async () => {
    expect(expectCleanError(await mk(['hook', 'claude'], 'not json'))).toContain('stdin: not valid JSON')
    expect(expectCleanError(await mk(['hook', 'claude'], '{"hook_event_name":"PreToolUse"}'))).toContain('tool_name')
  })
})

describe('mk knowledge lint on policy rules', () => {
  it('reports every malformed rule with file and line, and fails', async () => {
    const bad = await makeWorkspace({
      '.mkrc': 'knowledge:\n  sources:\n    - { name: project, layer: project, path: knowledge }\n',
      'knowledge/rules/unknown-operator.md': '---\ntype: rule\ntitle: A\nif: {"regex": [{"var": "task"}, "deploy"]}\nthen: {tool: {deny: [shell]}}\n---\n',
      'knowledge/rules/bad-then.md': '---\ntype: rule\ntitle: B\nif: true\nthen:\n  tool: {allow: rg}\n---\n',
      'knowledge/rules/private-no-owner.md': '---\ntype: rule\ntitle: C\nlane: private\nthen: {tool: {deny: [shell]}}\n---\n',
      'knowledge/rules/ranges.md': '---\ntype: rule\ntitle: D\npriority: 101\nweight: -1\nthen: {tool: {deny: [shell]}}\n---\n',
    })
    try {
      const run = await runMk(['knowledge', 'lint', '--json'], { cwd: bad.root, env: { MK_HOME: bad.mkHome } })
      expect(run.exitCode).toBe(2)
      const problems = parseJson<{ problems: { file: string; line: number; code: string }[] }>(run).problems.map((problem) => [
        problem.file,
        problem.line,
        problem.code,
      ])
      expect(problems).toEqual(
        expect.arrayContaining([
          ['knowledge/rules/unknown-operator.md', 4, 'unknown-logic-operator'],
          ['knowledge/rules/bad-then.md', 5, 'invalid-then'],
          ['knowledge/rules/private-no-owner.md', 4, 'invalid_private_rule_owner'],
          ['knowledge/rules/ranges.md', 4, 'invalid-priority'],
          ['knowledge/rules/ranges.md', 5, 'invalid-weight'],
        ]),
      )
    } finally {
      await bad.cleanup()
    }
  })
})

describe('inside mk mcp', () => {
  it('sees a rule edited while the server runs', async () => {
    const server = await connectMcp(workspace)
    try {
      const context = { environment: 'qa' }
      expect(await server.call('tools_select', { context, candidates: ['curl', 'wget'] })).toMatchObject({
        ok: true,
        output: { selection: { selected: 'curl' } },
      })
      await workspace.write(
        'knowledge/rules/no-curl-in-qa.md',
        '---\ntype: rule\ntitle: No curl in qa\nif: {"==": [{"var": "environment"}, "qa"]}\nthen: {tool: {deny: [curl]}}\n---\n',
      )
      expect(await server.call('tools_select', { context, candidates: ['curl', 'wget'] })).toMatchObject({
        ok: true,
        output: { selection: { selected: 'wget', denied: ['curl'] } },
      })
    } finally {
      await server.close()
      await rm(join(workspace.root, 'knowledge/rules/no-curl-in-qa.md'))
    }
  })
})

describe('MCP profiles', () => {
  it('gives the worker profile rules_evaluate and tools_select, which answer, and never tools_feedback', async () => {
    const worker = await connectMcp(workspace, ['--profile', 'worker'])
    try {
      const names = (await worker.client.listTools()).tools.map((tool) => tool.name)
      expect(names).toEqual(expect.arrayContaining(['rules_evaluate', 'tools_select']))
      expect(names).not.toContain('tools_feedback')
      const selected = await worker.call('tools_select', { context: platformSearch, candidates: ['shell', 'rg', 'grep'] })
      expect(selected).toMatchObject({ ok: true, output: { selection: { denied: ['shell'] } } })
    } finally {
      await worker.close()
    }
    const main = await connectMcp(workspace)
    try {
      expect((await main.client.listTools()).tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['rules_evaluate', 'tools_select', 'tools_feedback']),
      )
    } finally {
      await main.close()
    }
  })
})
