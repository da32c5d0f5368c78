import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { evaluateRules } from '../../../src/policy-rules/evaluate.js'
import { loadPolicyRules } from '../../../src/policy-rules/load.js'
import { mergePatches } from '../../../src/policy-rules/merge.js'
import type { PolicyRule, RuleStats } from '../../../src/knowledge/policy-rule/model.js'
import { byRank } from '../../../src/policy-rules/rank.js'
import { selectTools } from '../../../src/policy-rules/select.js'

/* Issue 15: the policy-rules fixture (16 files: 13 policy rules considered, a draft, a deprecated one, an ingested-style rule) against a table of contexts. */

const fixture = fileURLToPath(new URL('../../fixtures/policy-rules', import.meta.url))
let rules: PolicyRule[]
beforeAll(async () => {
  const workspace = await loadWorkspace({ cwd: fixture, env: { MK_HOME: '/nonexistent-mk-home' } })
  rules = (await loadPolicyRules(workspace)).rules
})

const none = (): RuleStats => ({ positive: 0, negative: 0 })

interface Case {
  name: string
  context: Record<string, unknown>
  candidates: string[]
  counts: Record<string, number>
  lane: string
  active: string[]
  shadow: string[]
  allowed: string[]
  denied: string[]
  preferred: string[]
  ordered: string[]
  selected: string | undefined
  conflicts: string[]
  shadowSelected?: string
}

const platformSearch = { agent: { id: 'planner-1', team_id: 'platform' }, environment: 'production', task: { kind: 'search' } }

const cases: Case[] = [
  {
    name: 'an empty context: only global rules and (lane not applied) private ones',
    context: {},
    candidates: ['shell', 'rg', 'grep'],
    counts: { scanned: 13, filtered_by_scope: 3, filtered_by_lane: 0, filtered_by_condition: 8, skipped_invalid_then: 1, matched_active: 1, matched_shadow: 0 },
    lane: 'missing_agent_context',
    active: ['payments-review-extension'],
    shadow: [],
    allowed: ['shell', 'rg', 'grep'],
    denied: [],
    preferred: [],
    ordered: ['shell', 'rg', 'grep'],
    selected: 'shell',
    conflicts: [],
  },
  {
    name: 'planner-1 of platform searching in production',
    context: platformSearch,
    candidates: ['shell', 'rg', 'grep', 'fd', 'read'],
    counts: { scanned: 13, filtered_by_scope: 1, filtered_by_lane: 2, filtered_by_condition: 3, skipped_invalid_then: 1, matched_active: 5, matched_shadow: 1 },
    lane: 'agent_and_team_context',
    active: ['no-shell-in-production', 'json-output-for-agents', 'planner-1-prefers-grep', 'prefer-rg-for-search', 'search-tools-only'],
    shadow: ['shadow-deny-grep'],
    allowed: ['rg', 'grep', 'read'],
    denied: ['shell', 'fd'],
    preferred: ['grep', 'rg'],
    ordered: ['grep', 'rg', 'read'],
    selected: 'grep',
    conflicts: ['tool.shell: no-shell-in-production denies "shell", which search-tools-only would allow — deny wins over allow and prefer, whatever the rank'],
    shadowSelected: 'rg',
  },
  {
    name: 'alice (no team) searching in production sees her private rule, not the payments one',
    context: { agent: { id: 'alice' }, environment: 'production', task: { kind: 'search' } },
    candidates: ['shell', 'rg', 'grep', 'fd', 'read'],
    counts: { scanned: 13, filtered_by_scope: 3, filtered_by_lane: 1, filtered_by_condition: 2, skipped_invalid_then: 1, matched_active: 5, matched_shadow: 1 },
    lane: 'agent_context',
    active: ['no-shell-in-production', 'json-output-for-agents', 'alice-prefers-fd', 'prefer-rg-for-search', 'search-tools-only'],
    shadow: ['shadow-deny-grep'],
    allowed: ['rg', 'grep', 'read'],
    denied: ['shell', 'fd'],
    preferred: ['rg', 'grep'],
    ordered: ['rg', 'grep', 'read'],
    selected: 'rg',
    conflicts: ['tool.shell: no-shell-in-production denies "shell", which search-tools-only would allow — deny wins over allow and prefer, whatever the rank'],
    shadowSelected: 'rg',
  },
  {
    name: 'an agent writing docs: two output rules conflict and the higher priority wins',
    context: { agent: { id: 'planner-1' }, task: { kind: 'docs' } },
    candidates: ['write', 'edit'],
    counts: { scanned: 13, filtered_by_scope: 2, filtered_by_lane: 2, filtered_by_condition: 6, skipped_invalid_then: 1, matched_active: 2, matched_shadow: 0 },
    lane: 'agent_context',
    active: ['json-output-for-agents', 'markdown-output-for-docs'],
    shadow: [],
    allowed: ['write', 'edit'],
    denied: [],
    preferred: [],
    ordered: ['write', 'edit'],
    selected: 'write',
    conflicts: ['output.format: json-output-for-agents wins over markdown-output-for-docs ("json" instead of "markdown") — higher priority (5 vs 1)'],
  },
  {
    name: 'a payments agent searching in staging: deny beats a preference, the private team rule applies',
    context: { agent: { id: 'pay-bot', team_id: 'payments' }, environment: 'staging', task: { kind: 'search' } },
    candidates: ['curl', 'rg', 'grep', 'wget'],
    counts: { scanned: 13, filtered_by_scope: 2, filtered_by_lane: 1, filtered_by_condition: 2, skipped_invalid_then: 1, matched_active: 6, matched_shadow: 1 },
    lane: 'agent_and_team_context',
    active: ['payments-no-network', 'json-output-for-agents', 'prefer-rg-for-search', 'search-tools-only', 'payments-review-extension', 'staging-prefers-curl'],
    shadow: ['shadow-deny-grep'],
    allowed: ['rg', 'grep'],
    denied: ['curl', 'wget'],
    preferred: ['rg', 'grep'],
    ordered: ['rg', 'grep'],
    selected: 'rg',
    conflicts: ['tool.curl: payments-no-network denies "curl", which staging-prefers-curl would prefer — deny wins over allow and prefer, whatever the rank'],
    shadowSelected: 'rg',
  },
  {
    name: 'an incident in production: the exception cancels the shell ban',
    context: { agent: { id: 'planner-1', team_id: 'platform' }, environment: 'production', task: { kind: 'incident' } },
    candidates: ['shell', 'kubectl'],
    counts: { scanned: 13, filtered_by_scope: 1, filtered_by_lane: 2, filtered_by_condition: 8, skipped_invalid_then: 1, matched_active: 1, matched_shadow: 0 },
    lane: 'agent_and_team_context',
    active: ['json-output-for-agents'],
    shadow: [],
    allowed: ['shell', 'kubectl'],
    denied: [],
    preferred: [],
    ordered: ['shell', 'kubectl'],
    selected: 'shell',
    conflicts: [],
  },
  {
    name: 'a platform deploy in staging: the team allow list and preference decide',
    context: { agent: { id: 'ops-bot', team_id: 'platform' }, environment: 'staging', task: { kind: 'deploy' } },
    candidates: ['shell', 'helm', 'kubectl', 'curl'],
    counts: { scanned: 13, filtered_by_scope: 2, filtered_by_lane: 2, filtered_by_condition: 5, skipped_invalid_then: 1, matched_active: 3, matched_shadow: 0 },
    lane: 'agent_and_team_context',
    active: ['json-output-for-agents', 'platform-deploy-tools', 'staging-prefers-curl'],
    shadow: [],
    allowed: ['shell', 'helm', 'kubectl'],
    denied: ['curl'],
    preferred: ['kubectl'],
    ordered: ['kubectl', 'shell', 'helm'],
    selected: 'kubectl',
    conflicts: [],
  },
]

describe('policy rules fixture', () => {
  it('loads the 13 policy rules that can be considered: not the draft, the deprecated item or the rule item without if/then', () => {
    const ids = rules.map((rule) => rule.id)
    expect(ids).toHaveLength(14)
    expect(ids).toContain('draft-deny-everything')
    expect(ids).not.toContain('old-deny-rg')
    expect(ids).not.toContain('agents')
    expect(rules.find((rule) => rule.id === 'broken-then')?.defects.map((defect) => defect.field)).toEqual(['then'])
  })

  describe.each(cases.map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => {
    it('filters, matches and ranks the rules', () => {
      const evaluation = evaluateRules(rules, entry.context, none)
      expect(evaluation.counts).toEqual(entry.counts)
      expect(evaluation.lane.reason).toBe(entry.lane)
      expect(evaluation.active.map((ranked) => ranked.rule.id)).toEqual(entry.active)
      expect(evaluation.shadow.map((ranked) => ranked.rule.id)).toEqual(entry.shadow)
      expect(evaluation.skipped.map((skipped) => skipped.rule.id)).toEqual(['broken-then'])
      expect(evaluation.merged.conflictExplain).toEqual(entry.conflicts)
    })

    it('selects exactly the expected tools', () => {
      const evaluation = evaluateRules(rules, entry.context, none)
      const selection = selectTools(entry.candidates, evaluation.merged.tools, true)
      expect({
        allowed: selection.allowed,
        denied: selection.denied,
        preferred: selection.preferred,
        ordered: selection.ordered,
        selected: selection.selected,
      }).toEqual({ allowed: entry.allowed, denied: entry.denied, preferred: entry.preferred, ordered: entry.ordered, selected: entry.selected })
      if (entry.shadowSelected !== undefined) {
        const withShadow = mergePatches([...evaluation.active, ...evaluation.shadow].sort(byRank))
        expect(selectTools(entry.candidates, withShadow.tools, true).selected).toBe(entry.shadowSelected)
      }
    })
  })

  it('makes one policy from the matched rules: the winner of each setting, allow lists intersected, deny lists united', () => {
    const evaluation = evaluateRules(rules, { agent: { id: 'pay-bot', team_id: 'payments' }, environment: 'staging', task: { kind: 'search' } }, none)
    expect(evaluation.merged.policy).toEqual({
      output: { format: 'json', strict: true },
      tool: { allow: ['rg', 'grep', 'read', 'shell'], deny: ['curl', 'wget'], prefer: ['rg', 'grep'] },
      extensions: { acme: { reviewers: 2 } },
    })
    expect(evaluation.merged.conflicts).toEqual([
      { path: 'tool.curl', winner: 'payments-no-network', loser: 'staging-prefers-curl', winner_value: 'deny', loser_value: 'prefer' },
    ])
  })

  it('ranks by priority × 1000 + evidence × 100 × weight + specificity', () => {
    const evaluation = evaluateRules(rules, platformSearch, none)
    const ranks = Object.fromEntries(evaluation.active.map(({ rule, rank }) => [rule.id, rank]))
    expect(ranks['no-shell-in-production']).toEqual({ score: 10052, evidence_score: 0.5, priority: 10, weight: 1, specificity: 2 })
    expect(ranks['planner-1-prefers-grep']).toEqual({ score: 71, evidence_score: 0.5, priority: 0, weight: 1, specificity: 21 })
  })

  it('lets evidence move a rule: three positive outcomes put rg before the agent rule preferring grep', () => {
    const stats = (id: string): RuleStats => (id === 'prefer-rg-for-search' ? { positive: 3, negative: 0 } : none())
    const evaluation = evaluateRules(rules, platformSearch, stats)
    expect(evaluation.active.find((ranked) => ranked.rule.id === 'prefer-rg-for-search')?.rank).toMatchObject({ evidence_score: 0.8, score: 81 })
    expect(selectTools(['shell', 'rg', 'grep'], evaluation.merged.tools, true).ordered).toEqual(['rg', 'grep'])
  })

  it('leaves nothing when strict and every candidate is denied, and falls back to deny-only when not strict', () => {
    const evaluation = evaluateRules(rules, platformSearch, none)
    const strict = selectTools(['shell', 'fd'], evaluation.merged.tools, true)
    expect(strict).toMatchObject({ allowed: [], selected: undefined, fallback: undefined })
    expect(strict.explain).toEqual(['shell: denied by no-shell-in-production', 'fd: not in the allow list of search-tools-only'])
    const loose = selectTools(['shell', 'fd'], evaluation.merged.tools, false)
    expect(loose).toMatchObject({ allowed: ['fd'], denied: ['shell'], ordered: ['fd'], selected: 'fd' })
    expect(loose.fallback).toMatch(/fell back to deny-only/)
  })

  it('says why nothing is left when not strict and every candidate is denied with no allow list in play', () => {
    const tools = { allowed: undefined, allowRules: [], deniedBy: new Map([['shell', ['no-shell-in-production']]]), preferred: [] }
    expect(selectTools(['shell'], tools, false)).toMatchObject({ allowed: [], selected: undefined, fallback: 'every candidate is denied: nothing to select' })
    expect(selectTools(['shell'], tools, true).fallback).toBeUndefined()
  })
})
