import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { expectCleanError, parseJson, runMk } from '../helpers/mk.js'
import { gitCommitAll, gitInit, makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'
import { agentRuleFiles, normativeLines } from '../fixtures/agent-rules.js'

let workspace: TempWorkspace | undefined
afterEach(async () => workspace?.cleanup())

function mk(args: string[]) {
  if (workspace === undefined) throw new Error('no workspace')
  return runMk(args, { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
}

interface Ingested {
  upserted: { rules: number; sections: number; directives: number; patterns: number }
  items: { id: string; path: string; action: string }[]
}

describe('mk rules ingest and export', () => {
  it('ingests a repository of agent rules files, changes nothing the second time, and exports them back', async () => {
    workspace = await makeWorkspace(agentRuleFiles)
    await gitInit(workspace.root)
    await gitCommitAll(workspace.root, 'agent rules')

    const first = await mk(['rules', 'ingest', 'AGENTS.md', 'CLAUDE.md', '.cursor/rules', '.github', '--json'])
    expect(first.exitCode).toBe(0)
    const ingested = parseJson<Ingested>(first)
    expect(ingested.upserted).toMatchObject({ rules: 6, directives: Object.values(normativeLines).flat().length, patterns: 4 })

    const agentsItem = join(workspace.root, 'knowledge/rules/agents.md')
    const before = { text: await readFile(agentsItem, 'utf8'), mtime: (await stat(agentsItem)).mtimeMs }
    const second = parseJson<Ingested>(await mk(['rules', 'ingest', '.', '--json']))
    expect(second.upserted).toEqual({ rules: 0, sections: 0, directives: 0, patterns: 0 })
    expect(second.items.every((item) => item.action === 'unchanged')).toBe(true)
    expect(await readFile(agentsItem, 'utf8')).toBe(before.text)
    expect((await stat(agentsItem)).mtimeMs).toBe(before.mtime)

    const lint = await mk(['knowledge', 'lint', '--json'])
    expect(parseJson<{ errorCount: number }>(lint).errorCount).toBe(0)

    const printed = await mk(['rules', 'export', '--format', 'cursor'])
    expect(printed.exitCode).toBe(0)
    expect(printed.stdout).toContain('==> .cursor/rules/cursor-rules-react-components.mdc <==')
    expect(printed.stdout).toContain('globs: apps/console/**/*.tsx,packages/ui/**/*.{ts,tsx}')
    expect(printed.stdout).toContain('- [MUST] Components MUST NOT fetch data directly')

    const claude = await mk(['rules', 'export', '--format', 'claude'])
    expect(claude.stdout).toBe((await mk(['rules', 'export', '--format', 'claude'])).stdout)
    expect(claude.stdout).toContain('- [MUST] Never commit secrets or `.env` files.')

    const written = await mk(['rules', 'export', '--format', 'agents-md', '--out', 'generated'])
    expect(written.exitCode).toBe(0)
    expect(await readFile(join(workspace.root, 'generated/AGENTS.md'), 'utf8')).toBe(
      parseJson<{ files: { content: string }[] }>(await mk(['rules', 'export', '--format', 'agents-md', '--json'])).files[0]?.content,
    )
    const kept = await mk(['rules', 'export', '--format', 'agents-md', '--out', '.'])
    expect(kept.stdout).toContain('skipped   AGENTS.md')
    expect(await readFile(join(workspace.root, 'AGENTS.md'), 'utf8')).toBe(agentRuleFiles['AGENTS.md'])
  })

  it('fails cleanly with exit 2 on an unknown format or a missing file', async () => {
    workspace = await makeWorkspace({ 'README.md': '# Readme\n' })
    const unknown = expectCleanError(await mk(['rules', 'ingest', 'README.md']))
    expect(unknown).toContain('[INVALID_INPUT] documents[0].path: "README.md" is not an agent rules file mk knows')
    const missing = expectCleanError(await mk(['rules', 'ingest', 'CLAUDE.md']))
    expect(missing).toContain('cannot read "CLAUDE.md"')
    expectCleanError(await mk(['rules', 'export', '--format', 'windsurf']))
  })
})
