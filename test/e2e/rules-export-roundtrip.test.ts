import { cp, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { extractDirectives } from '../../src/directives/extract.js'
import { parseKnowledgeFile } from '../../src/knowledge/parse.js'
import { parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/**
 * Export → ingest round trip (issue 29): rules files with a nested AGENTS.md, a code block, a
 * relative link, headings, a numbered procedure, an emphasised rule and Cursor rules of each type
 * are ingested, exported in each format, and the export is ingested into a fresh workspace: the
 * directives read back are the ones ingested, except what the format says it cannot express.
 */
const rulesFiles: Record<string, string> = {
  'AGENTS.md': `# Acme monorepo

Acme holds the web app and the queue worker. This paragraph describes and is not a rule.

## Conventions

- Use pnpm, never npm.
- See [the commit convention](./docs/commit-convention.md) before committing.
- **Never push to \`main\` directly**; open a pull request.

## Testing

- Run the web tests before every commit:

  \`\`\`bash
  pnpm --filter web test
  \`\`\`

### Releasing

1. Bump the version in \`package.json\`.
2. Tag the release commit.
`,
  'CLAUDE.md': '@AGENTS.md\n',
  'web/AGENTS.md': `# Web

## Components

- Always use \`top-banner-offset\` instead of \`top-0\` for sticky headers:

  \`\`\`tsx
  <div className="sticky top-banner-offset" />
  \`\`\`

- Components MUST NOT fetch data directly.
`,
  'worker/AGENTS.md': `# Worker

- Keep queue handlers idempotent.
`,
  '.cursor/rules/react.mdc': `---
description: React components
globs: "**/*.tsx"
alwaysApply: false
---
# React components

- Prefer function components over classes.
`,
  '.cursor/rules/public-api.mdc': `---
description: How to add a public API route
globs:
alwaysApply: false
---
# Public API

- Wrap every route in [withMiddlewares](web/src/withMiddlewares.ts).
`,
}

interface DirectiveKey {
  /** The item it was read from: not compared, since the fresh workspace names its items after the exported files. */
  item: string
  severity: string
  text: string
  code: string | undefined
  section: string
  step: boolean
  emphasis: boolean
  scope: string[]
  activation: string
}

/** The directives of a workspace's ingested rule items, read as mk reads them, keyed by what must survive a round trip. */
async function directivesOf(root: string): Promise<DirectiveKey[]> {
  const folder = join(root, 'knowledge/rules')
  const keys: DirectiveKey[] = []
  for (const name of (await readdir(folder)).sort()) {
    const path = `knowledge/rules/${name}`
    const parsed = await parseKnowledgeFile({
      path,
      absolutePath: join(root, path),
      source: 'project',
      layer: 'project',
      text: await readFile(join(root, path), 'utf8'),
    })
    if (parsed.item === undefined) throw new Error(`${path}: ${JSON.stringify(parsed.problems)}`)
    for (const directive of extractDirectives(parsed.item))
      keys.push({
        item: directive.itemId,
        severity: directive.severity,
        text: directive.text,
        code: directive.code,
        section: directive.breadcrumb.at(-1) ?? '',
        step: directive.step === true,
        emphasis: directive.emphasis === true,
        scope: [...directive.appliesTo].sort(),
        // A rule of AGENTS.md is served like a Cursor rule attached by its folder's globs, or always applied at the root.
        activation: directive.activation ?? (directive.appliesTo.length > 0 ? 'auto' : 'always'),
      })
  }
  return keys.sort((a, b) => a.text.localeCompare(b.text))
}

const withoutItem = ({ item: _item, ...key }: DirectiveKey): Omit<DirectiveKey, 'item'> => key

interface Exported {
  files: { path: string; content: string }[]
  unexpressed: { itemId: string; what: string }[]
}

const workspaces: TempWorkspace[] = []
afterAll(async () => Promise.all(workspaces.map((workspace) => workspace.cleanup())))

async function ingested(files: Record<string, string>): Promise<TempWorkspace> {
  const workspace = await makeWorkspace(files)
  workspaces.push(workspace)
  const run = await runMk(['rules', 'ingest', '.', '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
  expect(run.exitCode, run.stderr).toBe(0)
  return workspace
}

describe('mk rules export → mk rules ingest', () => {
  it.each([
    // AGENTS.md and CLAUDE.md nest a folder's rules in its own file, but cannot scope rules to file globs or serve them on request.
    ['agents-md', ['cursor-rules-public-api', 'cursor-rules-react']],
    ['claude', ['cursor-rules-public-api', 'cursor-rules-react']],
    ['cursor', []],
    // Copilot scopes files by applyTo, but has no rule an agent asks for by its description.
    ['copilot', ['cursor-rules-public-api']],
  ])(
    '%s keeps folders, headings, code, links and severities; it reports what it cannot express',
    async (format, lost) => {
      const original = await ingested(rulesFiles)
      const before = await directivesOf(original.root)
      expect(before.length).toBe(11)

      const exported = await runMk(['rules', 'export', '--format', format, '--json'], { cwd: original.root, env: { MK_HOME: original.mkHome } })
      expect(exported.exitCode, exported.stderr).toBe(0)
      const { files, unexpressed } = parseJson<Exported>(exported)
      expect([...new Set(unexpressed.map((entry) => entry.itemId))].sort()).toEqual(lost)
      if (format === 'agents-md') expect(files.map((file) => file.path)).toEqual(['AGENTS.md', 'web/AGENTS.md', 'worker/AGENTS.md'])
      const text = files.map((file) => file.content).join('\n')
      expect(text).toContain('[the commit convention](./docs/commit-convention.md)')
      expect(text).toContain('<div className="sticky top-banner-offset" />')

      // The files as a user would copy them into another repository, and ingest them there.
      const written = await runMk(['rules', 'export', '--format', format, '--out', 'exported'], { cwd: original.root, env: { MK_HOME: original.mkHome } })
      expect(written.exitCode, written.stderr).toBe(0)
      const fresh = await makeWorkspace()
      workspaces.push(fresh)
      await cp(join(original.root, 'exported'), fresh.root, { recursive: true })
      const reingest = await runMk(['rules', 'ingest', '.', '--json'], { cwd: fresh.root, env: { MK_HOME: fresh.mkHome } })
      expect(reingest.exitCode, reingest.stderr).toBe(0)
      const after = await directivesOf(fresh.root)

      // What the format cannot express (a scope, a way of being served) is what the fresh workspace cannot know: those rules come back for everywhere.
      const expected = before.map((key) => (lost.includes(key.item) ? { ...key, scope: [], activation: 'always' } : key))
      expect(after.map(withoutItem)).toEqual(expected.map(withoutItem))
    },
    120_000,
  )
})

/**
 * The same round trip on real rules files (test/fixtures/rules-files): Cursor rules written without a heading, rules
 * always applied with globs beside, rules requested by their description, nested AGENTS.md files. A Cursor export gives
 * back every directive as it was, sections included; the other formats every directive of the items they do not report,
 * except the section of an item written without a heading, which a file of several items must give one.
 */
const realFixtures = fileURLToPath(new URL('../fixtures/rules-files/', import.meta.url))

async function roundTrip(repo: string, format: string): Promise<{ before: DirectiveKey[]; after: DirectiveKey[]; lost: string[] }> {
  const original = await makeWorkspace()
  workspaces.push(original)
  await cp(join(realFixtures, repo), original.root, { recursive: true, verbatimSymlinks: true })
  const ingest = await runMk(['rules', 'ingest', '.', '--json'], { cwd: original.root, env: { MK_HOME: original.mkHome } })
  expect(ingest.exitCode, ingest.stderr).toBe(0)
  const exported = await runMk(['rules', 'export', '--format', format, '--out', 'exported', '--json'], {
    cwd: original.root,
    env: { MK_HOME: original.mkHome },
  })
  expect(exported.exitCode, exported.stderr).toBe(0)
  const lost = [...new Set(parseJson<Exported>(exported).unexpressed.map((entry) => entry.itemId))]
  const fresh = await makeWorkspace()
  workspaces.push(fresh)
  await cp(join(original.root, 'exported'), fresh.root, { recursive: true })
  const reingest = await runMk(['rules', 'ingest', '.', '--json'], { cwd: fresh.root, env: { MK_HOME: fresh.mkHome } })
  expect(reingest.exitCode, reingest.stderr).toBe(0)
  return { before: await directivesOf(original.root), after: await directivesOf(fresh.root), lost }
}

const withoutSection = ({ section: _section, ...key }: Omit<DirectiveKey, 'item'>): Omit<DirectiveKey, 'item' | 'section'> => key
const byText = (a: { text: string }, b: { text: string }): number => a.text.localeCompare(b.text)

describe('mk rules export → mk rules ingest, on real rules files', () => {
  it.each(['posthog', 'langfuse', 'sentry-javascript-cursor'])(
    '%s: a Cursor export gives back every directive, section and scope included',
    async (repo) => {
      const { before, after, lost } = await roundTrip(repo, 'cursor')
      expect(lost).toEqual([])
      expect(after.map(withoutItem)).toEqual(before.map(withoutItem))
    },
    120_000,
  )

  it.each([
    // Python and Rust rules scoped by file globs, which AGENTS.md writes as prose; a frontend rule requested by its description.
    ['posthog', 'agents-md', ['cursor-rules-django-python', 'cursor-rules-react-typescript', 'cursor-rules-rust']],
    // Four rules always applied with globs beside, and one requested by its description.
    [
      'langfuse',
      'copilot',
      [
        'cursor-rules-authorization-and-rbac',
        'cursor-rules-banner-positioning',
        'cursor-rules-entitlements',
        'cursor-rules-frontend-features',
        'cursor-rules-public-api',
      ],
    ],
  ])(
    '%s, %s: every directive of an item it does not report comes back',
    async (repo, format, reported) => {
      const { before, after, lost } = await roundTrip(repo, format)
      expect([...lost].sort()).toEqual(reported)
      const kept = before.filter((key) => !lost.includes(key.item))
      const keys = (list: DirectiveKey[]): Omit<DirectiveKey, 'item' | 'section'>[] => list.map(withoutItem).map(withoutSection).sort(byText)
      const keptKeys = keys(kept).map((key) => JSON.stringify(key))
      expect(keys(after).filter((key) => keptKeys.includes(JSON.stringify(key)))).toEqual(keys(kept))
      expect(after.length).toBe(before.length)
    },
    120_000,
  )
})
