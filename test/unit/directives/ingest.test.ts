import { readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { runtimeEnvFrom } from '../../../src/config/workspace.js'
import { extractDirectives } from '../../../src/directives/extract.js'
import { loadKnowledge } from '../../../src/knowledge/load.js'
import { plainStyle } from '../../../src/style.js'
import { Resources } from '../../../src/tools/context.js'
import { dispatch, type DispatchOutcome } from '../../../src/tools/dispatcher.js'
import { rulesUpsertMarkdown } from '../../../src/tools/directives/ingest.js'
import { agentRuleFiles, normativeLines } from '../../fixtures/agent-rules.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

let workspace: TempWorkspace | undefined
afterEach(async () => workspace?.cleanup())

interface Ingested {
  upserted: { rules: number; sections: number; directives: number; patterns: number }
  items: { id: string; path: string; sourcePath: string; format: string; action: string }[]
  relations: { kind: string; from: string; to: string; shared: string[] }[]
  warnings: string[]
}

async function setup(files: Record<string, string> = agentRuleFiles): Promise<TempWorkspace> {
  workspace = await makeWorkspace({ 'knowledge/adr/.keep': '', ...files })
  return workspace
}

async function call(input: unknown): Promise<DispatchOutcome> {
  if (workspace === undefined) throw new Error('no workspace')
  const resources = new Resources()
  try {
    return await dispatch(rulesUpsertMarkdown, input, {
      workspace: await loadWorkspace({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } }),
      env: {},
      cwd: workspace.root,
      runtime: runtimeEnvFrom({}),
      style: plainStyle,
      resources,
    })
  } finally {
    await resources.closeAll()
  }
}

async function ingest(input: unknown): Promise<Ingested> {
  const outcome = await call(input)
  if (!outcome.ok) throw new Error(`${outcome.error.errorCode}: ${outcome.error.message}`)
  return outcome.output as Ingested
}

async function errorOf(input: unknown): Promise<{ errorCode: string; message: string }> {
  const outcome = await call(input)
  if (outcome.ok) throw new Error('expected an error')
  return outcome.error
}

describe('rules_upsert_markdown', () => {
  it('has examples that match its schemas', () => {
    for (const example of rulesUpsertMarkdown.examples) {
      expect(rulesUpsertMarkdown.input.safeParse(example.input).success).toBe(true)
      expect(rulesUpsertMarkdown.output.safeParse(example.output).success).toBe(true)
    }
  })

  it('writes one rule item per rules file, and every normative line of each is a directive', async () => {
    const ws = await setup()
    const result = await ingest({ documents: [{ path: '.' }] })
    expect(result.items.map((item) => [item.sourcePath, item.path, item.format, item.action])).toEqual([
      ['.cursor/rules/general.mdc', 'knowledge/rules/cursor-rules-general.md', 'cursor', 'created'],
      ['.cursor/rules/react-components.mdc', 'knowledge/rules/cursor-rules-react-components.md', 'cursor', 'created'],
      ['.github/copilot-instructions.md', 'knowledge/rules/github-copilot-instructions.md', 'copilot', 'created'],
      ['.github/instructions/sql.instructions.md', 'knowledge/rules/github-instructions-sql-instructions.md', 'copilot', 'created'],
      ['AGENTS.md', 'knowledge/rules/agents.md', 'agents-md', 'created'],
      ['CLAUDE.md', 'knowledge/rules/claude.md', 'claude', 'created'],
    ])
    const expectedDirectives = Object.values(normativeLines).flat().length
    expect(result.upserted).toEqual({ rules: 6, sections: 4 + 3 + 1 + 1 + 1, directives: expectedDirectives, patterns: 4 })
    expect(result.warnings).toEqual([])

    const workspaceConfig = await loadWorkspace({ cwd: ws.root, env: { MK_HOME: ws.mkHome } })
    const base = await loadKnowledge(workspaceConfig)
    expect(base.problems.filter((problem) => problem.severity === 'error')).toEqual([])
    for (const [sourcePath, lines] of Object.entries(normativeLines)) {
      const entry = result.items.find((item) => item.sourcePath === sourcePath)
      const item = base.items.find((candidate) => candidate.id === entry?.id)
      if (item === undefined) throw new Error(`no item for ${sourcePath}`)
      expect(item).toMatchObject({ type: 'rule', status: 'accepted' })
      expect(extractDirectives(item).map((directive) => directive.text)).toEqual(lines)
    }
  })

  it('records globs, applyTo and the description, and gives plain-word rules their severity', async () => {
    const ws = await setup()
    await ingest({ documents: [{ path: '.cursor/rules' }, { path: '.github' }, { path: 'AGENTS.md' }] })
    const base = await loadKnowledge(await loadWorkspace({ cwd: ws.root, env: { MK_HOME: ws.mkHome } }))
    const byId = new Map(base.items.map((item) => [item.id, item]))
    expect(byId.get('cursor-rules-react-components')).toMatchObject({
      title: 'React components',
      summary: 'Conventions for React components in the console',
      appliesTo: ['apps/console/**/*.tsx', 'packages/ui/**/*.{ts,tsx}'],
    })
    expect(byId.get('cursor-rules-general')?.appliesTo).toEqual([])
    expect(byId.get('github-instructions-sql-instructions')?.appliesTo).toEqual(['migrations/**/*.sql', 'src/db/**'])
    const agents = byId.get('agents')
    if (agents === undefined) throw new Error('AGENTS.md not ingested')
    const severities = Object.fromEntries(extractDirectives(agents).map((directive) => [directive.text, directive.severity]))
    expect(severities).toMatchObject({
      'Use Node 20 and pnpm 9; do not use npm or yarn.': 'MUST',
      'New code MUST come with unit tests next to it.': 'MUST',
      'Never skip a failing test to make the build green.': 'MUST',
      'Prefer named exports over default exports.': 'SHOULD',
    })
    const text = await readFile(join(ws.root, 'knowledge/rules/agents.md'), 'utf8')
    expect(text).toContain('source_path: AGENTS.md\ningested_from: agents-md\n')
    expect(text).toContain('## Build\n\n- Use Node 20')
  })

  it('changes nothing when the same files are ingested again: counts zero, files byte-identical, mtimes kept', async () => {
    const ws = await setup()
    await ingest({ documents: [{ path: '.' }] })
    const files = [
      'agents',
      'claude',
      'cursor-rules-general',
      'cursor-rules-react-components',
      'github-copilot-instructions',
      'github-instructions-sql-instructions',
    ]
    const before = await Promise.all(
      files.map(async (id) => ({
        text: await readFile(join(ws.root, `knowledge/rules/${id}.md`), 'utf8'),
        stat: await stat(join(ws.root, `knowledge/rules/${id}.md`)),
      })),
    )
    const again = await ingest({ documents: [{ path: '.' }] })
    expect(again.upserted).toEqual({ rules: 0, sections: 0, directives: 0, patterns: 0 })
    expect(new Set(again.items.map((item) => item.action))).toEqual(new Set(['unchanged']))
    for (const [index, id] of files.entries()) {
      const path = join(ws.root, `knowledge/rules/${id}.md`)
      expect(await readFile(path, 'utf8')).toBe(before[index]?.text)
      expect((await stat(path)).mtimeMs).toBe(before[index]?.stat.mtimeMs)
    }
  })

  it('updates an item when its source changes, and leaves it when overwrite is off', async () => {
    const ws = await setup()
    await ingest({ documents: [{ path: 'AGENTS.md' }] })
    await writeFile(join(ws.root, 'AGENTS.md'), `${agentRuleFiles['AGENTS.md']}\n## Review\n\n- Keep pull requests under 400 lines.\n`)
    const kept = await ingest({ documents: [{ path: 'AGENTS.md' }], options: { overwrite: false } })
    expect(kept.items[0]?.action).toBe('skipped')
    expect(kept.warnings[0]).toContain('overwrite is off')
    const updated = await ingest({ documents: [{ path: 'AGENTS.md' }] })
    expect(updated.items[0]?.action).toBe('updated')
    expect(updated.upserted).toEqual({ rules: 1, sections: 5, directives: normativeLines['AGENTS.md']!.length + 1, patterns: 0 })
  })

  it('uses content instead of reading the path, and never replaces a hand-written item', async () => {
    const ws = await setup({ 'knowledge/rules/windsurfrules.md': '---\ntitle: Our own\n---\n- keep\n' })
    const result = await ingest({
      documents: [
        { path: '.kilocode/rules/style.md', content: '# Style\n\n- Use tabs.\n' },
        { path: '.windsurfrules', content: '- Windsurf rule\n' },
      ],
    })
    expect(result.items.map((item) => [item.id, item.action])).toEqual([
      ['kilocode-rules-style', 'created'],
      ['windsurfrules', 'skipped'],
    ])
    expect(result.warnings).toEqual(['.windsurfrules: not ingested: knowledge/rules/windsurfrules.md exists and was not written by an ingest of this file'])
    expect(await readFile(join(ws.root, 'knowledge/rules/windsurfrules.md'), 'utf8')).toBe('---\ntitle: Our own\n---\n- keep\n')
  })

  it('relates items scoped to a common glob and rules stated twice', async () => {
    await setup()
    const result = await ingest({
      documents: [
        { path: 'AGENTS.md' },
        { path: 'CLAUDE.md' },
        { path: '.github/instructions/sql.instructions.md' },
        { path: '.clinerules/db.md', content: '---\nglobs: src/db/**\n---\n- Migrations MUST be reversible.\n' },
      ],
    })
    expect(result.relations).toEqual([
      { kind: 'duplicates', from: 'agents', to: 'claude', shared: ['Run `pnpm test` and make sure it passes before every commit.'] },
      { kind: 'duplicates', from: 'clinerules-db', to: 'github-instructions-sql-instructions', shared: ['Migrations MUST be reversible.'] },
      { kind: 'shares_globs', from: 'clinerules-db', to: 'github-instructions-sql-instructions', shared: ['src/db/**'] },
    ])
  })

  it('skips a file that mk rules export generated, whose rules are in the knowledge already', async () => {
    await setup()
    expect((await ingest({ documents: [{ path: 'AGENTS.md' }] })).items).toHaveLength(1)
    const exported =
      '# Rules for coding agents\n\n<!-- Generated by mk rules export --format claude -->\n\n- [MUST] Never skip a failing test to make the build green.\n'
    const result = await ingest({ documents: [{ path: 'CLAUDE.md', content: exported }] })
    expect(result.items).toEqual([])
    expect(result.warnings).toEqual(['CLAUDE.md: skipped: mk rules export wrote it from the knowledge, which holds its rules already'])
  })

  it('ingests a file mk rules export generated elsewhere, whose rules this knowledge does not hold', async () => {
    await setup()
    const exported = '# Rules for coding agents\n\n<!-- Generated by mk rules export --format claude -->\n\n## Build\n\n- [SHOULD] Never skip a failing test.\n'
    const first = await ingest({ documents: [{ path: 'CLAUDE.md', content: exported }] })
    expect(first.items).toMatchObject([{ id: 'claude', action: 'created' }])
    expect(first.upserted.directives).toBe(1)
    // Read again, it is the item it made: nothing changes.
    expect((await ingest({ documents: [{ path: 'CLAUDE.md', content: exported }] })).items).toMatchObject([{ id: 'claude', action: 'unchanged' }])
  })

  it('rejects an empty list, an unknown format, a missing file and a path outside the workspace, naming the field', async () => {
    await setup()
    expect(await errorOf({ documents: [] })).toMatchObject({ errorCode: 'INVALID_INPUT', message: expect.stringContaining('documents') })
    await workspace?.write('README.md', '# Readme\n')
    expect(await errorOf({ documents: [{ path: 'AGENTS.md' }, { path: 'README.md' }] })).toMatchObject({
      errorCode: 'INVALID_INPUT',
      message: expect.stringContaining('documents[1].path: "README.md" is not an agent rules file mk knows'),
    })
    expect(await errorOf({ documents: [{ path: '.clinerules' }] })).toMatchObject({
      errorCode: 'INVALID_INPUT',
      message: 'documents[0].path: cannot read ".clinerules": no such file or folder',
    })
    expect(await errorOf({ documents: [{ path: '../elsewhere/AGENTS.md' }] })).toMatchObject({
      errorCode: 'INVALID_INPUT',
      message: expect.stringContaining('documents[0].path'),
    })
    expect(await errorOf({ documents: [{ path: 'knowledge' }] })).toMatchObject({
      errorCode: 'INVALID_INPUT',
      message: expect.stringContaining('holds no agent rules file'),
    })
  })

  it('is refused in read-only mode', async () => {
    await setup()
    if (workspace === undefined) throw new Error('no workspace')
    const outcome = await dispatch(
      rulesUpsertMarkdown,
      { documents: [{ path: 'AGENTS.md' }] },
      {
        workspace: await loadWorkspace({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } }),
        env: {},
        cwd: workspace.root,
        runtime: runtimeEnvFrom({ MK_READ_ONLY: '1' }),
        style: plainStyle,
        resources: new Resources(),
      },
    )
    expect(outcome).toMatchObject({ ok: false, error: { errorCode: 'FORBIDDEN' } })
  })
})
