import { describe, expect, it } from 'vitest'
import { extractDirectives, headingAnchor, sentences, strongestKeyword } from '../../../src/directives/extract.js'
import type { KnowledgeItem } from '../../../src/knowledge/model.js'
import { parseKnowledgeFile } from '../../../src/knowledge/parse.js'

async function item(path: string, text: string): Promise<KnowledgeItem> {
  const parsed = await parseKnowledgeFile({ path, absolutePath: `/ws/${path}`, source: 'project', layer: 'project', text })
  if (parsed.item === undefined) throw new Error(JSON.stringify(parsed.problems))
  return parsed.item
}

const securityPolicy = `---
id: security-baseline
title: Security baseline
type: policy
topics: [security, api]
applies_to: [application]
authoritative_for: [security]
---
# Security baseline

Everything here is reviewed yearly.

## Input validation

All services MUST validate input at the boundary. Errors are logged, e.g. the request id. Handlers SHOULD NOT trust client-side checks.

\`\`\`ts
// the MUST in code is an example, not a rule
\`\`\`

## Rules

- Rotate keys every 90 days
- Never log access tokens
  - Nested items count too
`

describe('extractDirectives', () => {
  it('finds keyword sentences and the list items under a rules heading of a policy, with breadcrumbs and stable ids', async () => {
    const directives = extractDirectives(await item('knowledge/policies/security.md', securityPolicy))
    expect(directives.map((directive) => [directive.id, directive.severity, directive.keyword, directive.text])).toEqual([
      ['security-baseline#input-validation-1', 'MUST', 'MUST', 'All services MUST validate input at the boundary.'],
      ['security-baseline#input-validation-2', 'SHOULD', 'SHOULD NOT', 'Handlers SHOULD NOT trust client-side checks.'],
      ['security-baseline#rules-1', 'SHOULD', undefined, 'Rotate keys every 90 days'],
      ['security-baseline#rules-2', 'MUST', undefined, 'Never log access tokens'],
      ['security-baseline#rules-3', 'SHOULD', undefined, 'Nested items count too'],
    ])
    const first = directives[0]
    expect(first?.breadcrumb).toEqual(['Security baseline', 'Input validation'])
    expect(first?.topics).toEqual(['security', 'api'])
    expect(first?.appliesTo).toEqual(['application'])
    expect(first?.authoritativeFor).toEqual(['security'])
    expect(first?.line).toBe(15)
  })

  it('keeps the ids of one section when another section is edited', async () => {
    const before = extractDirectives(await item('knowledge/policies/security.md', securityPolicy))
    const edited = securityPolicy.replace('All services MUST validate', 'Every service MUST validate').replace('## Rules', 'Intro MAY change.\n\n## Rules')
    const after = extractDirectives(await item('knowledge/policies/security.md', edited))
    const rules = (list: typeof before): string[] =>
      list.filter((directive) => directive.section === 'rules').map((directive) => `${directive.id} ${directive.text}`)
    expect(rules(after)).toEqual(rules(before))
  })

  it('takes list items of ADRs only when they carry a keyword', async () => {
    const adr = await item(
      'knowledge/adr/0001-db.md',
      '# 1. Use PostgreSQL\n\n## Status\n\nAccepted\n\n## Decision\n\n- We use PostgreSQL 15\n- New tables SHOULD use ULID keys\n',
    )
    expect(extractDirectives(adr).map((directive) => directive.text)).toEqual(['New tables SHOULD use ULID keys'])
  })

  it('takes every list item of a rule item, under any heading', async () => {
    const rule = await item('knowledge/rules/agents.md', '---\ntype: rule\n---\n# Agent rules\n\n## Code style\n\n- Use tabs\n- Do not use default exports\n')
    expect(extractDirectives(rule).map((directive) => [directive.id, directive.severity])).toEqual([
      ['agents#code-style-1', 'SHOULD'],
      ['agents#code-style-2', 'MUST'],
    ])
  })

  it('numbers sections that share a heading like GitHub does', async () => {
    const spec = await item('knowledge/specs/api.md', '# API\n\n## Setup\n\nYou MUST run it.\n\n## Other\n\n### Setup\n\nYou MAY skip it.\n')
    expect(extractDirectives(spec).map((directive) => directive.id)).toEqual(['api#setup-1', 'api#setup-1-1'])
  })

  it('keeps inline code as written', async () => {
    const spec = await item('knowledge/specs/logs.md', '# Logs\n\nEvery line MUST carry a `service` field, e.g. `{"service": "billing"}`.\n')
    expect(extractDirectives(spec).map((directive) => directive.text)).toEqual(['Every line MUST carry a `service` field, e.g. `{"service": "billing"}`.'])
  })
})

describe('pieces', () => {
  it('picks the strongest keyword', () => {
    expect(strongestKeyword('You MAY cache, but you MUST NOT store it')).toEqual({ keyword: 'MUST NOT', severity: 'MUST' })
    expect(strongestKeyword('It is NOT RECOMMENDED')).toEqual({ keyword: 'NOT RECOMMENDED', severity: 'SHOULD' })
    expect(strongestKeyword('you must use lower case')).toBeUndefined()
  })
  it('does not read a keyword named in quotes or code as one used', () => {
    const boilerplate = 'The key words "MUST", "MUST NOT", “SHOULD”, `MAY` and \'OPTIONAL\' in this document are to be interpreted as described in BCP 14.'
    expect(strongestKeyword(boilerplate)).toBeUndefined()
    expect(strongestKeyword('Writers MUST NOT use "MAY" for requirements')).toEqual({ keyword: 'MUST NOT', severity: 'MUST' })
  })
  it('makes anchors and sentences', () => {
    expect(headingAnchor('Input validation & PII (v2)')).toBe('input-validation-pii-v2')
    expect(sentences('One MUST. Two e.g. three SHOULD! 4 MAY?')).toEqual(['One MUST.', 'Two e.g. three SHOULD!', '4 MAY?'])
    expect(sentences('Use a cache, e.g. Redis. Prefer Postgres vs. MySQL. Done.')).toEqual(['Use a cache, e.g. Redis.', 'Prefer Postgres vs. MySQL.', 'Done.'])
  })
})

describe('extractDirectives on an agent rules file', () => {
  const rulesFile = `---
id: agents
type: rule
title: Agents
---
# Agents

Monorepo with 40+ packages, managed with Yarn workspaces.

## Architecture

- \`packages/core/\` — Base SDK: interfaces, types, core functionality
- \`packages/types/\` — Shared types (deprecated, never modify)

## Commit Attribution

AI commits MUST include a \`Co-Authored-By\` line when known:

\`\`\`
Co-Authored-By: <model> <noreply@example.com>
\`\`\`

Never emit either of the following, in any form:

- A \`Co-Authored-By:\` trailer naming a tool.
- A "Generated with" footer.

## Links

- See [the convention](./commit-convention.md) before committing.
`

  it('keeps rules, drops file maps and descriptions, keeps a rule its code block, its link target and the list that completes it', async () => {
    const found = extractDirectives(await item('knowledge/rules/agents.md', rulesFile))
    expect(found.map((directive) => directive.text)).toEqual([
      '`packages/types/` — Shared types (deprecated, never modify)',
      'AI commits MUST include a `Co-Authored-By` line when known:',
      'Never emit either of the following, in any form: A `Co-Authored-By:` trailer naming a tool; A "Generated with" footer.',
      'See [the convention](./commit-convention.md) before committing.',
    ])
    expect(found[1]?.code).toBe('```\nCo-Authored-By: <model> <noreply@example.com>\n```')
    expect(found[2]?.severity).toBe('MUST')
  })
})

describe('extractDirectives on files mk rules export wrote', () => {
  it('reads a `[SHOULD]` marker as the severity, not as part of the rule', async () => {
    const found = extractDirectives(
      await item(
        'knowledge/rules/agents.md',
        '---\nid: agents\ntype: rule\ntitle: Rules\n---\n# Rules\n\n- [SHOULD] Never run `eslint` directly.\n- **[MUST]** Components MUST NOT fetch data.\n',
      ),
    )
    expect(found.map((directive) => [directive.severity, directive.text, directive.keyword, directive.emphasis === true])).toEqual([
      ['SHOULD', 'Never run `eslint` directly.', undefined, false],
      ['MUST', 'Components MUST NOT fetch data.', 'MUST NOT', true],
    ])
  })

  it('knows the title heading written with code (`worker`) as the title: it makes no list under it a rules list', async () => {
    const found = extractDirectives(
      await item(
        'knowledge/rules/worker-agents.md',
        '---\nid: worker-agents\ntype: rule\ntitle: Codex Guidelines for worker\n---\n# Codex Guidelines for `worker`\n\n## Queues\n\n- Queue consumers live in `src/queues`.\n- Keep queue handlers idempotent.\n',
      ),
    )
    expect(found.map((directive) => directive.text)).toEqual(['Keep queue handlers idempotent.'])
  })
})
