import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { expectCleanError, parseJson, runMk } from '../helpers/mk.js'
import { workspacesRemovedAfterEach, type TempWorkspace } from '../helpers/workspace.js'

/** Markdown of just over 256 KiB, the most mk reads of a rules or knowledge file. */
const overCap = (header: string): string => `${header}${'- Always write a test before the fix.\n'.repeat(Math.ceil((256 * 1024) / 38) + 1)}`

const accepted = ['---', 'title: Use PostgreSQL', 'status: accepted', '---', '# Use PostgreSQL', ''].join('\n')

const workspace = workspacesRemovedAfterEach()

const mk = (ws: TempWorkspace, args: string[]) => runMk(args, { cwd: ws.root, env: { MK_HOME: ws.mkHome } })

describe('files read as rules or knowledge are capped at 256 KiB', () => {
  it('rules ingest refuses an AGENTS.md over the cap, naming it and the cap', async () => {
    const ws = await workspace({ 'AGENTS.md': overCap('# Agents\n\n') })
    const stderr = expectCleanError(await mk(ws, ['rules', 'ingest', 'AGENTS.md']))
    expect(stderr).toContain('documents[0].path: AGENTS.md is over 256 KiB, the most mk reads of a knowledge or rules file; split it into smaller files')
    const json = await mk(ws, ['rules', 'ingest', 'AGENTS.md', '--json'])
    expect(parseJson(json)).toMatchObject({ success: false, errorCode: 'INVALID_INPUT', details: { path: 'AGENTS.md', limitBytes: 256 * 1024 } })
  })

  it('rules ingest refuses an AGENTS.md under the cap whose rule item would be over it, and writes nothing', async () => {
    const text = overCap('# Agents\n\n').slice(0, 256 * 1024 - 100)
    const ws = await workspace({ 'AGENTS.md': text })
    const stderr = expectCleanError(await mk(ws, ['rules', 'ingest', 'AGENTS.md']))
    expect(stderr).toContain('AGENTS.md (as the rule item knowledge/rules/agents.md) is over 256 KiB')
    expect(existsSync(join(ws.root, 'knowledge/rules/agents.md'))).toBe(false)
  })

  it('knowledge check stops on a knowledge file over the cap (it may state constraints); knowledge list warns and answers from the rest', async () => {
    const ws = await workspace({
      'knowledge/adr/adr-0001-postgres.md': accepted,
      'knowledge/adr/adr-0002-huge.md': overCap('---\ntitle: Huge\nstatus: accepted\n---\n# Huge\n\n'),
    })
    const check = expectCleanError(await mk(ws, ['knowledge', 'check']))
    expect(check).toContain('knowledge/adr/adr-0002-huge.md: over 256 KiB, the most mk reads of a knowledge or rules file')
    const list = await mk(ws, ['knowledge', 'list', '--json'])
    expect(list.exitCode).toBe(0)
    expect(parseJson<{ items: { id: string }[] }>(list).items.map((item) => item.id)).toEqual(['adr-0001-postgres'])
    expect(list.stderr).toContain('knowledge/adr/adr-0002-huge.md: over 256 KiB')
  })
})

describe('policy rule conditions have an evaluation budget', () => {
  it('knowledge lint rejects the doubling rule of the issue, at its line', async () => {
    const doubling = { reduce: [Array.from({ length: 30 }, (_, index) => index), { merge: [{ var: 'accumulator' }, { var: 'accumulator' }] }, [1]] }
    const ws = await workspace({
      'knowledge/rules/doubling.md': [
        '---',
        'type: rule',
        'title: Doubling',
        `if: ${JSON.stringify(doubling)}`,
        'then: {output: {format: json}}',
        '---',
        '# Doubling',
        '',
      ].join('\n'),
    })
    const lint = await mk(ws, ['knowledge', 'lint', '--json'])
    expect(lint.exitCode).toBe(2)
    const problems = parseJson<{ problems: { file: string; line: number; code: string; message: string }[] }>(lint).problems
    expect(problems.filter((problem) => problem.code === 'over-logic-budget')).toEqual([
      {
        file: 'knowledge/rules/doubling.md',
        line: 4,
        code: 'over-logic-budget',
        severity: 'error',
        message: expect.stringContaining('grows exponentially') as string,
      },
    ])
  })
})
