import { cp, readFile, rm, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectCleanError, parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

const fixture = fileURLToPath(new URL('../fixtures/directives', import.meta.url))
const task = 'add a new endpoint that stores customer addresses in Postgres'

interface Answer {
  context_block: string
  fallback?: string
  citations: { sourcePath: string; section: string; severity: string; itemId: string; directiveId: string }[]
  tokens: number
  diagnostics?: {
    detectedLayer?: string
    topics: string[]
    scoringNotes: string[]
    retrievalStats: { searched: number; considered: number; selected: number }
    cut: { directives: string[]; memories: string[] }
  }
}

let workspace: TempWorkspace
beforeAll(async () => {
  workspace = await makeWorkspace()
  await cp(fixture, workspace.root, { recursive: true })
})
afterAll(async () => workspace.cleanup())

const mk = (args: string[]) => runMk(args, { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })

async function directives(args: string[]): Promise<Answer> {
  const run = await mk(['rules', 'directives', ...args, '--json'])
  expect(run.exitCode, run.stderr).toBe(0)
  return parseJson<Answer>(run)
}

const bullets = (block: string): string[] => block.split('\n').filter((line) => line.startsWith('- ['))

/** Items about other subjects than the task's, and items that must never be served (rejected, proposed, overridden). */
const unrelated = ['frontend', 'testing', 'licences', 'caching', 'code-review', 'graphql', 'adr-0004-mysql']

describe('mk rules directives on a knowledge base of 18 items in three layers', () => {
  it('serves the MUST rules on personal data, persistence and endpoints first, cited, none from unrelated items', async () => {
    const answer = await directives([task, '--diagnostics'])
    const lines = bullets(answer.context_block)
    expect(answer.context_block.startsWith('# Contextual rules for this task\n')).toBe(true)
    expect(lines.length).toBe(answer.citations.length)
    const first = answer.citations.slice(0, 6)
    expect(first.every((citation) => citation.severity === 'MUST')).toBe(true)
    const items = answer.citations.map((citation) => citation.itemId)
    // Authority tips rules that are about as relevant; it does not put the security baseline before the rules on endpoints.
    expect(items).toEqual(expect.arrayContaining(['api-design', 'adr-0001-postgresql', 'privacy-pii']))
    expect(answer.context_block).toContain('List endpoints MUST paginate with opaque cursors')
    expect(answer.context_block).toContain('Services MUST use PostgreSQL 15 or later')
    expect(answer.context_block).toContain('Personal data such as names, postal addresses')
    for (const item of unrelated) expect(items).not.toContain(item)
    expect(answer.diagnostics).toMatchObject({ detectedLayer: 'persistence' })
    expect(answer.diagnostics?.topics).toEqual(expect.arrayContaining(['persistence', 'privacy', 'api']))
  })

  it('cites each bullet to a file and section that hold its text', async () => {
    const answer = await directives([task, '--max-items', '12', '--budget', '2000'])
    const lines = bullets(answer.context_block)
    for (const [position, citation] of answer.citations.entries()) {
      const line = lines[position] ?? ''
      expect(line).toContain(`[${position + 1}: ${citation.sourcePath}#${citation.section}]`)
      expect(line.startsWith(`- [${citation.severity}] `)).toBe(true)
      const source = await readFile(`${workspace.root}/${citation.sourcePath}`, 'utf8')
      const text = line.slice(`- [${citation.severity}] `.length, line.indexOf(' — '))
      expect(source.replace(/\s+/g, ' ')).toContain(text)
    }
  })

  it('keeps the block within 300, 900 and 2,000 tokens as o200k counts them, preferring the higher-ranked rules', async () => {
    // With room for everything, the block holds the first twelve and diagnostics list the rest, in rank order.
    const full = await directives([task, '--max-items', '12', '--budget', '32000', '--diagnostics'])
    const order = [...full.citations.map((citation) => citation.directiveId), ...(full.diagnostics?.cut.directives ?? [])]
    for (const budget of [300, 900, 2000]) {
      const answer = await directives([task, '--budget', String(budget), '--max-items', '12'])
      expect(countTokens(answer.context_block)).toBeLessThanOrEqual(budget)
      expect(answer.tokens).toBe(countTokens(answer.context_block))
      const ids = answer.citations.map((citation) => citation.directiveId)
      expect(ids).toEqual(order.slice(0, ids.length))
      // Even the smallest block holds a MUST rule on personal data, the task's first concern.
      expect(answer.citations.map((citation) => citation.itemId)).toContain('privacy-pii')
    }
    const small = await directives([task, '--budget', '300'])
    const large = await directives([task, '--budget', '2000', '--max-items', '12'])
    expect(small.citations.length).toBeLessThan(large.citations.length)
  })

  it('serves the project layer where it overrides a company item, and never rejected or proposed items unless asked', async () => {
    const answer = await directives(['add request logging to the billing service', '--max-items', '12'])
    expect(answer.context_block).toContain('Services MUST log in JSON with a `service` field')
    expect(answer.context_block).not.toMatch(/Services MUST log in JSON\. /)
    const graphql = 'expose a GraphQL schema for the new API'
    expect((await directives([graphql])).citations.map((citation) => citation.itemId)).not.toContain('graphql')
    expect((await directives([graphql, '--include-proposed'])).citations.map((citation) => citation.itemId)).toContain('graphql')
  })

  it('cuts an oversized task and says so', async () => {
    const long = `${task}. ${'Keep the change small and reviewable. '.repeat(80)}`.trimEnd()
    const answer = await directives([long, '--diagnostics'])
    expect(answer.diagnostics?.scoringNotes.join('\n')).toContain(`taskDescription truncated from ${long.length} to 2000 characters`)
    expect(answer.citations.map((citation) => citation.itemId)).toContain('privacy-pii')
  })

  it('warns about a knowledge file it could not read, since its rules are missing from the block', async () => {
    await writeFile(`${workspace.root}/knowledge/policies/broken.md`, '---\ntitle: [broken\n---\nWe MUST do it.\n')
    const run = await mk(['rules', 'directives', task, '--json'])
    expect(run.exitCode).toBe(0)
    expect(run.stderr).toMatch(/knowledge\/policies\/broken\.md:\d+: malformed YAML frontmatter/)
    await rm(`${workspace.root}/knowledge/policies/broken.md`)
  })

  it('falls back to the core items, saying why, when nothing matches', async () => {
    const answer = await directives(['qwzx blorft', '--diagnostics'])
    expect(new Set(answer.citations.map((citation) => citation.itemId))).toEqual(new Set(['security-baseline']))
    expect(answer.diagnostics?.scoringNotes.join('\n')).toContain('no rule matched the task: these are the core items')
    expect(answer.fallback).toContain('rules.coreItems')
    expect(answer.fallback).toContain('the closest to the task in meaning first')
    expect(answer.context_block).toContain('_No rule matched this task: these are the core items')
  })

  it('serves the rules closest in meaning, saying so, when nothing matches and no rule is meant for every task', async () => {
    const loose = await makeWorkspace({
      'knowledge/policies/money.md':
        '---\nid: money\ntype: policy\nstatus: accepted\n---\n# Money\n\nAmounts of money SHOULD be stored as integers in minor units.\n',
      'knowledge/policies/cake.md': '---\nid: cake\ntype: policy\nstatus: accepted\n---\n# Cake\n\nBirthday cake SHOULD be shared with the whole floor.\n',
    })
    try {
      const run = await runMk(['rules', 'directives', 'Add a price column to the products table', '--json', '--no-memories'], {
        cwd: loose.root,
        env: { MK_HOME: loose.mkHome },
      })
      const answer = parseJson<Answer>(run)
      expect(answer.fallback).toContain('so these are the rules closest to it in meaning')
      expect(answer.citations[0]?.itemId).toBe('money')
      expect(answer.context_block).toContain('(close in meaning)')
    } finally {
      await loose.cleanup()
    }
  })

  it('serves the rules meant for every task when nothing matches and no core items are named, and says why an empty block is empty', async () => {
    const bare = await makeWorkspace({
      'knowledge/policies/commits.md': '---\nid: commits\ntype: policy\nstatus: accepted\n---\n# Commits\n\nEvery commit MUST pass the tests.\n',
      'knowledge/policies/web.md': '---\nid: web\ntype: policy\nstatus: accepted\napplies_to: ["web/**"]\n---\n# Web\n\nPages MUST load in two seconds.\n',
    })
    const empty = await makeWorkspace()
    try {
      const run = await runMk(['rules', 'directives', 'qwzx blorft', '--json'], { cwd: bare.root, env: { MK_HOME: bare.mkHome } })
      const answer = parseJson<Answer>(run)
      expect(answer.citations.map((citation) => citation.itemId)).toEqual(['commits'])
      expect(answer.fallback).toContain('rules meant for every task')
      // Right after mk init no accepted item states a rule: the block says so instead of being silently empty.
      expect((await runMk(['init'], { cwd: empty.root, env: { MK_HOME: empty.mkHome } })).exitCode).toBe(0)
      const none = parseJson<Answer>(await runMk(['rules', 'directives', 'qwzx blorft', '--json'], { cwd: empty.root, env: { MK_HOME: empty.mkHome } }))
      expect(none.citations).toEqual([])
      expect(none.fallback).toContain('no accepted knowledge item states a rule yet')
      expect(none.context_block).toContain('No rule matched this task')
    } finally {
      await bare.cleanup()
      await empty.cleanup()
    }
  })

  it('adds the most relevant memory after the rules', async () => {
    expect((await mk(['memory', 'add', 'Customer addresses are kept in the billing schema of the Postgres cluster'])).exitCode).toBe(0)
    const answer = await directives([task, '--budget', '2000'])
    const block = answer.context_block
    expect(block).toContain('## Remembered')
    expect(block.indexOf('## Remembered')).toBeGreaterThan(block.lastIndexOf('- [MUST]'))
    expect(block).toContain('Customer addresses are kept in the billing schema')
    const without = await directives([task, '--no-memories'])
    expect(without.context_block).not.toContain('## Remembered')
  })

  it('follows an edited and a deleted ADR', async () => {
    const path = `${workspace.root}/knowledge/adr/0002-ulid-keys.md`
    const original = await readFile(path, 'utf8')
    await cp(path, `${path}.bak`)
    await writeFile(path, original.replace('New tables SHOULD use ULID primary keys instead of sequences.', 'New tables MUST use UUIDv7 primary keys.'))
    const edited = await directives(['create a table for invoices in the database', '--max-items', '12', '--budget', '2000'])
    expect(edited.context_block).toContain('New tables MUST use UUIDv7 primary keys.')
    expect(edited.context_block).not.toContain('SHOULD use ULID')
    await rm(path)
    const deleted = await directives(['create a table for invoices in the database', '--max-items', '12', '--budget', '2000'])
    expect(deleted.citations.map((citation) => citation.itemId)).not.toContain('adr-0002-ulid-keys')
    await cp(`${path}.bak`, path)
    await rm(`${path}.bak`)
  })

  it('prints the block for people, with diagnostics on request', async () => {
    const run = await mk(['rules', 'directives', task, '--diagnostics'])
    expect(run.exitCode).toBe(0)
    expect(run.stdout).toContain('# Contextual rules for this task')
    expect(run.stdout).toMatch(/directives: \d+ searched, \d+ considered, \d+ selected/)
  })

  it('detects the context of a task', async () => {
    const run = await mk(['rules', 'context', task, '--json'])
    expect(run.exitCode).toBe(0)
    expect(parseJson(run)).toMatchObject({ detectedLayer: 'persistence', topics: expect.arrayContaining(['privacy']) })
  })

  it('reads the knowledge again when .mkrc adds to the vocabulary', async () => {
    const task = 'set up quarantine for the checkout suite'
    // Without the word the rule may still come close in meaning, but not as covering the topic .mkrc adds.
    expect((await directives([task])).context_block).not.toContain('(covers flakiness)')
    const config = await readFile(`${workspace.root}/.mkrc`, 'utf8')
    await writeFile(`${workspace.root}/.mkrc`, config.replace('rules:\n', 'rules:\n  topics:\n    flakiness: [quarantine, flaky]\n'))
    const answer = await directives([task])
    expect(answer.citations.map((citation) => citation.directiveId)).toContain('testing#rules-3')
    expect(answer.context_block).toContain('Quarantine a flaky test within one working day — Testing > Rules (covers flakiness)')
    await writeFile(`${workspace.root}/.mkrc`, config)
  })

  it.each([
    [['rules', 'directives', '   '], 'taskDescription'],
    [['rules', 'directives', task, '--budget', '49'], 'tokenBudget'],
    [['rules', 'directives', task, '--mode', 'wizard'], 'modeSlug'],
    [['rules', 'context', ''], 'text'],
  ])('rejects bad input %j naming the field, exit 2', async (args, field) => {
    const run = await mk([...args, '--json'])
    expectCleanError(run)
    expect(parseJson(run)).toMatchObject({ success: false, errorCode: 'INVALID_INPUT', message: expect.stringContaining(field) })
  })
})
