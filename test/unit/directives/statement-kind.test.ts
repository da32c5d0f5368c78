import { describe, expect, it } from 'vitest'
import { claudeImports, resolveImport } from '../../../src/directives/ingest/claude-imports.js'
import { statementKind } from '../../../src/directives/statement-kind.js'

describe('statementKind', () => {
  it('reads a labelled example as an example, even under a conventions heading (codex-rs AGENTS.md)', () => {
    expect(statementKind('Example: patch summary file lines', true)).toBe('description')
    expect(statementKind('For example: the diff header', true)).toBe('description')
    expect(statementKind('Examples: never log a token', true)).toBe('rule')
    expect(statementKind('Use the logger', true)).toBe('rule')
  })

  it('reads a labelled convention of a rules section as a rule, a labelled path or command as a map (vercel/ai AGENTS.md)', () => {
    expect(statementKind('Test files: `*.test.ts` alongside source files', true)).toBe('rule')
    expect(statementKind('Type tests: `*.test-d.ts` for type-level tests', true)).toBe('rule')
    expect(statementKind('Test files: `*.test.ts` alongside source files')).toBe('description')
    expect(statementKind('Core logic: `packages/node/src/integrations/tracing/{provider}/index.ts`', true)).toBe('description')
    expect(statementKind('`pnpm test`: run the tests', true)).toBe('description')
    // Only the labelled code span's own text decides: a path later in the sentence does not make it a map entry.
    expect(statementKind('Snapshots: `toMatchSnapshot()` with files in `src/__snapshots__/`', true)).toBe('rule')
  })

  it('reads a series of instructions whose first verb is unlisted as a rule, by its later clauses (react-router AGENTS.md)', () => {
    expect(statementKind('API docs: Edit JSDoc in `packages/react-router/lib/`, run `pnpm docs`')).toBe('rule')
    expect(statementKind('Unstable features: Prefix `unstable_`, add `unstable: true` to frontmatter, include warning block')).toBe('rule')
    expect(statementKind('Formatting and linting use `ruff`; run `make format` (applies fixes) and `make lint` (checks only).')).toBe('rule')
    // A list of things whose later item starts like a verb ("build tools"), a pointer to more reading, a later sentence: not a series of instructions.
    expect(statementKind('Root Workspace dependencies: Shared dev tools, build tools, testing frameworks')).toBe('description')
    expect(statementKind('Authentication, see [authorization-and-rbac.mdc](mdc:.cursor/rules/authorization-and-rbac.mdc)')).toBe('description')
    expect(statementKind('Some tests rely on inline snapshots. Then, run the tests again')).toBe('description')
  })

  it('reads parameter lists, quoted examples and statements about a name as descriptions (PostHog ClickHouse AGENTS.md)', () => {
    // "(required)" annotates a parameter; it asks nothing of the change.
    expect(statementKind('`table`: Table name (required)')).toBe('description')
    expect(statementKind('`node_roles`: List of NodeRole values (default: `[NodeRole.DATA]` if not specified)')).toBe('description')
    expect(statementKind('`sharded`: must be `True` when operating on sharded tables')).toBe('rule')
    // A line of code alone, quoted under a rule, is an example of it, whatever its capitals say.
    expect(statementKind('`CREATE TABLE IF NOT EXISTS`')).toBe('description')
    expect(statementKind('`ALTER TABLE IF EXISTS DROP COLUMN`')).toBe('description')
    expect(statementKind('Always use `IF EXISTS` or `IF NOT EXISTS` clauses:')).toBe('rule')
    // A verb's word used as a name, then "is": a statement about the thing ("SYNC is not necessary for ...").
    expect(statementKind('SYNC is not necessary for non-replicated objects: Kafka table engine, Distributed table engine or MATERIALIZED VIEW.')).toBe(
      'description',
    )
    expect(statementKind('Format is checked in CI by the lint job')).toBe('description')
    expect(statementKind('Test is the default target')).toBe('description')
  })

  it('keeps the rules an independent review found these readings would drop', () => {
    // A hyphenated or colon name after the verb is not "is", "can" or "will".
    expect(statementKind('Use will-change sparingly on animated elements.')).toBe('rule')
    expect(statementKind('Run can-i-deploy before every release.')).toBe('rule')
    expect(statementKind('Use is:global sparingly in Astro styles.')).toBe('rule')
    expect(statementKind('Add is-loading to buttons while a request is in flight.')).toBe('rule')
    // Code alone is a rule where the heading or the rule introducing the list says so ("## Anti-patterns": `eval()`).
    expect(statementKind('`eval()`', true)).toBe('rule')
    expect(statementKind('`git push --force`', true)).toBe('rule')
    // "(required)" after a command in a checklist is a requirement; only a parameter's annotation is not.
    expect(statementKind('Lint: `pnpm lint` (required)')).toBe('rule')
    expect(statementKind('Signed commits: `git commit -S` (required)')).toBe('rule')
    expect(statementKind('`timeout`: Seconds to wait (default: `wait()` result, required by the proxy)')).toBe('description')
  })

  it('reads a requirement stated of every member of a kind as a rule', () => {
    expect(statementKind('Mode indicators: Every doc needs `[MODES: framework, data, declarative]`')).toBe('rule')
    expect(statementKind('Each package requires a README')).toBe('rule')
    expect(statementKind('Every package has a README')).toBe('description')
  })

  it('tells rules from file maps, command lists, descriptions and links (lines of real rules files)', () => {
    const rules = [
      'Never run `prettier` — use `yarn format` (Oxfmt) instead',
      'No `console.*` — use `logger` singleton',
      'Keep queue handlers idempotent where possible.',
      'When writing tests, focus on decoupling each `it` or `test` block.',
      'In Wrangler, use the logger rather than calling `console.*` directly.',
      'Tests must never depend on the action or outcome of previous tests.',
      'Bundle size is critical. Be mindful of imports and tree-shaking.',
      '`packages/types/` — Shared types (deprecated, never modify – instead find types in packages/core)',
      'Test files use `.spec.ts` (NOT `.test.ts`)',
    ]
    const descriptions = [
      '`packages/browser/` — Browser SDK + CDN bundles',
      'Dev: `pnpm --filter web run dev`',
      'Main exports: `src/index.ts`',
      '[Span Attributes](https://develop.sentry.dev/sdk/telemetry/attributes.md)',
      'Next.js 15 application with UI, tRPC backend, and public REST API routes.',
      '| Command | Purpose | | --- | --- |',
      'Why?',
      'Read @AGENTS.md for monorepo structure.',
    ]
    for (const text of rules) expect([text, statementKind(text)]).toEqual([text, 'rule'])
    for (const text of descriptions) expect([text, statementKind(text)]).toEqual([text, 'description'])
  })
})

describe('claudeImports', () => {
  it('finds @path imports outside code, not e-mail addresses or package scopes', () => {
    const text = 'See @AGENTS.md and @../docs/git.md.\nMail me@example.com, use `@scope/pkg`, @types/node.\n```\n@ignored.md\n```\n'
    expect(claudeImports(text)).toEqual(['AGENTS.md', '../docs/git.md'])
    expect(resolveImport('web/CLAUDE.md', '../AGENTS.md')).toBe('AGENTS.md')
    expect(resolveImport('CLAUDE.md', '../outside.md')).toBeUndefined()
  })
})
