import { describe, expect, it } from 'vitest'
import { composeBlock } from '../../../src/directives/block.js'
import { buildVocabulary, detectContext, headingTopics } from '../../../src/directives/context.js'
import { extractDirectives } from '../../../src/directives/extract.js'
import { mentionedPaths, mentionMatch } from '../../../src/directives/mentioned-paths.js'
import type { Directive } from '../../../src/directives/model.js'
import { prepareDirective, rankDirectives } from '../../../src/directives/rank.js'
import { statementKind } from '../../../src/directives/statement-kind.js'
import { directiveDocument, storedDirective } from '../../../src/directives/stored.js'
import type { KnowledgeItem } from '../../../src/knowledge/model.js'
import { parseKnowledgeFile } from '../../../src/knowledge/parse.js'
import { directiveOf } from '../../helpers/directive.js'

/** Issue 29: rules files read as their authors meant them (shapes taken from real AGENTS.md, CLAUDE.md and Cursor rules). */

async function item(path: string, text: string): Promise<KnowledgeItem> {
  const parsed = await parseKnowledgeFile({ path, absolutePath: `/ws/${path}`, source: 'project', layer: 'project', text })
  if (parsed.item === undefined) throw new Error(JSON.stringify(parsed.problems))
  return parsed.item
}

const rulesFile = (body: string, title = 'Guide'): string => `---\nid: guide\ntype: rule\ntitle: ${title}\n---\n${body}`

describe('statementKind: facts in capitals and descriptions that say "require"', () => {
  it('reads a negated fact as a description, an insisting capital as a rule', () => {
    expect(statementKind('What turbopack does NOT support: build-time wrapping of route handlers')).toBe('description')
    expect(statementKind('Does NOT extend `vitest.shared.ts` — own full vitest config')).toBe('rule')
    expect(statementKind('Test files use `.spec.ts` (NOT `.test.ts`)')).toBe('rule')
    expect(statementKind('`pnpm test:e2e` — run end-to-end tests; many require Cloudflare credentials.')).toBe('description')
  })

  it('reads an instruction after a short topic label as a rule, a sentence before a colon as no label', () => {
    expect(statementKind('Async testing: use anyio, not asyncio')).toBe('rule')
    expect(statementKind('Errors: Use `StructuredError` from `@agentuity/core`')).toBe('rule')
    expect(statementKind('Verification: Run format, lint, typecheck, build, test before committing')).toBe('rule')
    expect(statementKind('Test Count: 72 tests across 7 test files')).toBe('description')
    expect(statementKind('What turbopack does NOT support: Build-time wrapping of route handlers')).toBe('description')
  })
})

describe('extractDirectives: labels, emphasis, rule lists and descriptive sections', () => {
  it('treats a bold label paragraph as a label, and marks what the author emphasised', async () => {
    const body = [
      '# Adding an integration',
      '',
      '**IMPORTANT - Runtime-Specific Placement:**',
      '',
      'If an SDK only works in one runtime, the integration code should live in that runtime package.',
      '',
      '**MANDATORY**: Only ever upgrade a single package at a time.',
      '',
      '- **All PRs target `develop`** (NOT `master`)',
      '- Keep tests independent.',
      '',
    ].join('\n')
    const found = extractDirectives(await item('knowledge/rules/guide.md', rulesFile(body)))
    expect(found.map((directive) => [directive.text, directive.emphasis === true])).toEqual([
      ['If an SDK only works in one runtime, the integration code should live in that runtime package.', true],
      ['MANDATORY: Only ever upgrade a single package at a time.', true],
      ['All PRs target `develop` (NOT `master`)', true],
      ['Keep tests independent.', false],
    ])
  })

  it('keeps a bold label with the short list that completes it', async () => {
    const body = '# Upgrades\n\n**Never upgrade to these versions:**\n\n- `2.x.x`\n- `0.2xx.x`\n'
    const found = extractDirectives(await item('knowledge/rules/guide.md', rulesFile(body)))
    expect(found.map((directive) => directive.text)).toEqual(['Never upgrade to these versions: `2.x.x`; `0.2xx.x`.'])
  })

  it('reads the items of a list a rule introduces as rules, even when they read like statements', async () => {
    const body = [
      '# Implementation',
      '',
      '- New api routes should follow these guidelines:',
      '  - Use the middleware as a wrapper',
      '  - Pagination starts at 1, typed by the pagination schema',
      '  - Define types of request and response in the types folder',
      '- The routes live in the public folder',
      '',
    ].join('\n')
    const texts = extractDirectives(await item('knowledge/rules/guide.md', rulesFile(body))).map((directive) => directive.text)
    expect(texts).toContain('Pagination starts at 1, typed by the pagination schema')
    expect(texts).not.toContain('The routes live in the public folder')
  })

  it('does not read a title such as "Guidelines for worker" as making every list a rule list; a descriptive section needs words that require', async () => {
    const body = [
      '# Codex Guidelines for worker',
      '',
      '## Purpose',
      '',
      '- Background job processor built on Express.',
      '',
      '## Overview',
      '',
      'Main CLI. Entry point is `src/cli.ts` (NOT `src/index.ts`).',
      '',
      '## Processor Conventions',
      '',
      '- Queue handlers are idempotent.',
      '',
    ].join('\n')
    const found = extractDirectives(await item('knowledge/rules/guide.md', rulesFile(body, 'Codex Guidelines for worker')))
    expect(found.map((directive) => directive.text)).toEqual(['Queue handlers are idempotent.'])
    const overview = extractDirectives(
      await item(
        'knowledge/rules/guide.md',
        rulesFile('# Tool\n\n## Overview\n\nEntry point is `src/cli.ts` (NOT `src/index.ts`).\n\nNever import from `dist/`.\n'),
      ),
    )
    expect(overview.map((directive) => directive.text)).toEqual(['Never import from `dist/`.'])
  })
})

describe('extractDirectives: what a rule reads with', () => {
  it('gives the items of a list a rule introduces that introduction, and the rules of a section its descriptions that name paths', async () => {
    const body = [
      '# Guide',
      '',
      '## Implementation',
      '',
      '- New api routes should follow these guidelines:',
      '  - Use the middleware as a wrapper',
      '  - Pagination starts at 1',
      '  - Add an end-to-end test',
      '',
      '## Snapshot tests',
      '',
      'This repo uses snapshot tests, especially in `codex-rs/tui`, to validate rendered output.',
      '',
      'Any change that affects user-visible UI must include snapshot coverage.',
      '',
      '## Style',
      '',
      'The code base is large.',
      '',
      '- Keep functions short.',
      '',
    ].join('\n')
    const found = extractDirectives(await item('knowledge/rules/guide.md', rulesFile(body)))
    const contextOf = (text: string): string | undefined => found.find((directive) => directive.text === text)?.context
    expect(contextOf('Use the middleware as a wrapper')).toBe('New api routes should follow these guidelines:')
    expect(contextOf('Any change that affects user-visible UI must include snapshot coverage.')).toBe(
      'This repo uses snapshot tests, especially in `codex-rs/tui`, to validate rendered output.',
    )
    // A description that names no path says nothing about where the section's rules apply.
    expect(contextOf('Keep functions short.')).toBeUndefined()
  })
})

describe('extractDirectives: a bold label captions the list after it', () => {
  const body = [
    '# Guide',
    '',
    '## Provider Development',
    '',
    '**Provider Options Schemas** (user-facing):',
    '',
    '- Use `.optional()` unless `null` is meaningful',
    '- Be as restrictive as possible for future flexibility',
    '',
    '**Key rules:**',
    '',
    '- Keep handlers small',
    '- Never log secrets',
    '',
    '## Schemas',
    '',
    '- **Response Schemas**:',
    '  - Use `.nullish()` instead of `.optional()`',
    '',
    '## Routes',
    '',
    '- New api routes should follow these guidelines:',
    '  - Use the middleware as a wrapper',
    '',
  ].join('\n')

  it('gives each item the label above its list, as a small heading', async () => {
    const found = extractDirectives(await item('knowledge/rules/guide.md', rulesFile(body)))
    const captionOf = (text: string): string | undefined => found.find((directive) => directive.text === text)?.caption
    expect(captionOf('Be as restrictive as possible for future flexibility')).toBe('Provider Options Schemas (user-facing)')
    expect(captionOf('Never log secrets')).toBe('Key rules')
    expect(captionOf('Use `.nullish()` instead of `.optional()`')).toBe('Response Schemas')
    // A list a rule introduces reads with the rule (its context), not with a caption.
    expect(captionOf('Use the middleware as a wrapper')).toBeUndefined()
  })

  it('searches, ranks and shows a rule with its caption', async () => {
    const [optional] = extractDirectives(await item('knowledge/rules/guide.md', rulesFile(body)))
    if (optional === undefined) throw new Error('no directive')
    const vocabulary = buildVocabulary({ learnedTopics: headingTopics(['Provider Development', 'Provider Options Schemas (user-facing)']) })
    expect([...prepareDirective(optional, vocabulary).sectionTopics]).toContain('provider options schemas user-facing')
    const document = directiveDocument(optional, { ownTopics: [], itemTopics: [] })
    expect(document.title).toBe('Guide > Provider Development > Provider Options Schemas (user-facing)')
    expect(storedDirective(document)?.directive.caption).toBe('Provider Options Schemas (user-facing)')
    const block = composeBlock([{ directive: optional, rationale: '', keys: [] }], [], {
      tokenBudget: 400,
      maxItems: 8,
      includeBreadcrumbs: true,
      countTokens: (text) => text.length,
    })
    expect(block.contextBlock).toContain('— Guide > Provider Development > Provider Options Schemas (user-facing)')
  })
})

describe('mentionedPaths', () => {
  it('reads the paths a rule names from the folder its file is scoped to', () => {
    const mentioned = mentionedPaths('Prefer env-flag gating in `src/app.ts`; processors go in `src/queues/*`; see `src/` and https://example.com/a/b', [
      'worker/**',
    ])
    expect(mentioned).toEqual([
      { path: 'worker/src/', isFile: false, anyFolder: true },
      { path: 'worker/src/app.ts', isFile: true },
      { path: 'worker/src/queues/', isFile: false },
    ])
    expect(mentionMatch(mentioned, ['worker/src/app.ts'])).toBe(2)
    expect(mentionMatch(mentioned, ['worker/src/queues/refill.ts'])).toBe(1)
    expect(mentionMatch(mentioned, ['web/src/app.ts'])).toBe(0)
  })

  it('reads a file name written alone as code (`Cargo.toml`) as every file of that name', () => {
    const mentioned = mentionedPaths('If you change Rust dependencies (`Cargo.toml` or `Cargo.lock`), run `just bazel-lock-update`', [])
    expect(mentionMatch(mentioned, ['codex-rs/core/Cargo.toml'])).toBe(2)
    expect(mentionMatch(mentioned, ['codex-rs/core/src/lib.rs'])).toBe(0)
    expect(mentionMatch(mentionedPaths('Use named exports in package `index.ts` files', []), ['packages/client/src/index.ts'])).toBe(2)
  })

  it('reads a folder name written alone as code (`test/`) as the folder of that name a file sits in, inside the scope of its rule', () => {
    const root = mentionedPaths('Tests in `test/` folder (never `src/` or `__tests__/`)', [])
    expect(mentionMatch(root, ['packages/runtime/test/route-validation.test.ts'])).toBe(1)
    expect(mentionMatch(root, ['test/cli.test.ts'])).toBe(1)
    // Only the folder the file sits in: a file deeper under `src/` is not named by it.
    expect(mentionMatch(root, ['packages/runtime/src/agent/router.ts'])).toBe(0)
    expect(mentionMatch(root, ['packages/runtime/testing/helpers.ts'])).toBe(0)
    const scoped = mentionedPaths('Put fixtures in `fixtures/`', ['worker/**'])
    expect(mentionMatch(scoped, ['worker/queues/fixtures/job.json'])).toBe(1)
    expect(mentionMatch(scoped, ['web/fixtures/job.json'])).toBe(0)
  })

  it('meets a task with a rule that names a file beside its own in the folder of its feature, and with no folder of another package', () => {
    const wrapper = mentionedPaths('Use [withMiddlewares.ts](mdc:web/src/features/public-api/server/withMiddlewares.ts) as a wrapper', [])
    expect(mentionMatch(wrapper, ['web/src/features/public-api/types/dataset-runs.ts'])).toBe(1)
    expect(mentionMatch(wrapper, ['web/src/features/datasets/types/runs.ts'])).toBe(0)
    expect(mentionMatch(mentionedPaths('Read `packages/core/src/utils/object.ts` first', []), ['packages/node/src/utils/fetch.ts'])).toBe(0)
    // Words with a slash in prose ("part/content types") are no file.
    expect(mentionMatch(mentionedPaths('Match message part/content types exhaustively', ['pydantic_ai/models/**']), ['pydantic_ai/models/openai.py'])).toBe(0)
  })
})

describe('headingTopics', () => {
  it('learns no topic from the verbs every task uses or from "files" and "commands"', () => {
    expect(headingTopics(['Add/Change tRPC endpoint', 'Generated Files', 'Common Commands', 'Writing tests'])).toEqual({
      'trpc endpoint': ['trpc', 'endpoint'],
      generated: ['generated', 'generat', 'generate'],
      tests: ['tests'],
    })
  })

  it('meets a task that says "handle" or "log" with a heading that says "Handling" or "Logging"', () => {
    const learned = headingTopics(['Exception Handling', 'Logging', 'Formatting'])
    expect(learned['exception handling']).toEqual(['exception', 'handling', 'handl', 'handle'])
    expect(learned.logging).toEqual(['logging', 'logg', 'logge', 'log'])
    expect(learned.formatting).toContain('format')
    const vocabulary = buildVocabulary({ learnedTopics: learned })
    expect(detectContext('Handle and log a failed JSON parse of an incoming message', vocabulary).topics).toEqual(
      expect.arrayContaining(['exception handling', 'logging']),
    )
  })
})

/** A SHOULD of a rules file (the shape ingest gives agent rules), with any field overridden. */
const directive = (id: string, text: string, fields: Partial<Directive> = {}): Directive =>
  directiveOf(id, text, { itemType: 'rule', path: `knowledge/rules/${id.split('#')[0] ?? id}.md`, severity: 'SHOULD', keyword: undefined, ...fields })

describe('rankDirectives: requested rules, named files, emphasis', () => {
  const vocabulary = buildVocabulary({})
  const rank = (task: string, directives: Directive[], taskTerms: string[]): string[] =>
    rankDirectives(
      directives.map((entry) => prepareDirective(entry, vocabulary)),
      detectContext(task, vocabulary),
      new Map(directives.map((entry) => [entry.id, 0.1])),
      { strictLayer: true, similarityFloor: 0.35, taskTerms: new Set(taskTerms) },
    ).ranked.map((entry) => entry.directive.id)

  it('serves a requested rule only when its description fits the task', () => {
    const requested = directive('api#impl-1', 'Use the middleware as a wrapper', {
      activation: 'requested',
      requestedWhen: 'How to create new public api routes',
    })
    const always = directive('tests#writing-1', 'Tests must never depend on each other', { activation: 'always' })
    expect(rank('add a public api endpoint', [requested, always], ['public', 'api', 'endpoint'])).toEqual(['api#impl-1', 'tests#writing-1'])
    expect(rank('fix the flaky test', [requested, always], ['flaky', 'test'])).toEqual(['tests#writing-1'])
  })

  it("fits a requested rule's description by the task's files, their language counting only beside a word", () => {
    const frontend = directive('react#top-1', 'Use Tailwind CSS as primary styling solution', {
      activation: 'requested',
      requestedWhen: 'Rules for writing frontend code (mostly React + Typescript with Kea)',
    })
    const migrations = directive('py#top-1', 'Name migrations after what they change', { activation: 'requested', requestedWhen: 'Writing Python migrations' })
    const fits = (terms: string[], languages: string[]): string[] =>
      rankDirectives(
        [frontend, migrations].map((entry) => prepareDirective(entry, vocabulary)),
        detectContext('build it', vocabulary),
        new Map(),
        { strictLayer: true, similarityFloor: 0.35, taskTerms: new Set(terms), taskLanguages: new Set(languages) },
      ).ranked.map((entry) => entry.directive.id)
    // frontend/…/Legend.tsx: a folder word and the language make two of the description's six words.
    expect(fits(['frontend', 'legend'], ['typescript'])).toEqual(['react#top-1'])
    // billing/invoice.py: the language alone is no fit.
    expect(fits(['billing', 'invoice', 'rounding'], ['python'])).toEqual([])
  })

  it('puts a rule that names a file the task touches, and a rule its author emphasised, first', () => {
    const plain = directive('worker#conventions-1', 'Keep handlers small', { activation: 'always' })
    const naming = directive('worker#conventions-2', 'Prefer env-flag gating in `src/app.ts`', { activation: 'always', appliesTo: ['worker/**'] })
    const bold = directive('worker#conventions-3', 'Only ever upgrade one package at a time', { activation: 'always', emphasis: true })
    expect(rank('add a consumer. Files: worker/src/app.ts', [plain, naming, bold], ['consumer'])).toEqual([
      'worker#conventions-2',
      'worker#conventions-3',
      'worker#conventions-1',
    ])
  })
})

describe('rankDirectives: what a rule reads with', () => {
  const vocabulary = buildVocabulary({ learnedTopics: headingTopics(['TUI code conventions']) })
  it('reads a rule with the folder its section names and the topic of the rule introducing its list', () => {
    const snapshot = directive('agents#snapshot-tests-1', 'Any change that affects user-visible UI must include snapshot coverage.', {
      severity: 'MUST',
      breadcrumb: ['Guide', 'Snapshot tests'],
      context: 'This repo uses snapshot tests, especially in `codex-rs/tui`, to validate rendered output.',
    })
    const ranked = rankDirectives(
      [prepareDirective(snapshot, vocabulary)],
      detectContext('Show the model name in the TUI status line. Files: codex-rs/tui/src/status_line.rs', vocabulary),
      new Map(),
      { strictLayer: true, similarityFloor: 0.35 },
    ).ranked
    expect(ranked.map((entry) => entry.rationale)).toEqual(['names a folder the task works in; covers tui code conventions'])
    const wrapper = directive('api#implementation-2', 'Use the middleware as a wrapper', { context: 'New api routes should follow these guidelines:' })
    expect([...prepareDirective(wrapper, vocabulary).ownTopics]).toContain('api')
  })
})

describe('rankDirectives: the nearest rules file', () => {
  const vocabulary = buildVocabulary({})
  it('puts the conventions of the nearest rules file before root rules that only share a word with the task', () => {
    const root = directiveOf('agents#conventions-1', 'Read the changeset guide before a release', {
      itemType: 'rule',
      severity: 'MUST',
      keyword: undefined,
      activation: 'always',
    })
    const nested = directiveOf('wrangler-agents#conventions-1', 'No `console.*`: use the `logger` singleton', {
      itemType: 'rule',
      severity: 'MUST',
      keyword: undefined,
      appliesTo: ['packages/wrangler/**'],
      breadcrumb: ['Wrangler', 'Conventions'],
      itemTitle: 'Wrangler',
    })
    const ranked = rankDirectives(
      [root, nested].map((entry) => prepareDirective(entry, vocabulary)),
      detectContext('Add a kv export command. Files: packages/wrangler/src/kv/index.ts', vocabulary),
      new Map([
        [root.id, 0.25],
        [nested.id, 0.05],
      ]),
      { strictLayer: true, similarityFloor: 0.35 },
    )
    expect(ranked.ranked.map((entry) => entry.directive.id)).toEqual(['wrangler-agents#conventions-1', 'agents#conventions-1'])
  })
})
