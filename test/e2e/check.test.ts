import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { afterEach, describe, expect, it } from 'vitest'
import { parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

interface CheckOutput {
  passed: boolean
  violations: { constraintId: string; knowledgeItemId: string; severity: string; subject: string; location: { file: string; line: number; column: number } }[]
  summary: { info: number; warn: number; block: number }
  waived: { constraintId: string; waiver: { reason: string } }[]
  waiverProblems: { kind: string; file: string; line: number }[]
  baseline?: { hidden: number; fixed: number }
  skipped: { binary: number; tooLarge: number; symlinks: number; constraints: number }
}

const databaseAdr = [
  '---',
  'title: Database selection for new services',
  'type: adr',
  'status: accepted',
  'severity: block',
  'summary: New services store relational data in PostgreSQL.',
  'constraints:',
  '  - id: no-mysql',
  '    operator: must_not_use',
  '    target: dependency',
  '    pattern: "^(mysql|mysql2|mariadb)$"',
  '    message: MySQL is not allowed for new services; use PostgreSQL.',
  '  - id: no-mysql-import',
  '    operator: must_not_use',
  '    target: import',
  '    pattern: "mysql2?"',
  '  - id: no-console',
  '    operator: must_not_match',
  '    target: code',
  '    pattern: "console\\\\.log\\\\("',
  '    paths: ["src/**"]',
  '---',
  '# Database selection for new services',
  '',
].join('\n')

const cleanFiles = {
  'knowledge/adr/adr-0042-database.md': databaseAdr,
  'package.json': JSON.stringify({ name: 'app', dependencies: { pg: '^8.0.0' } }, null, 2),
  'src/db.ts': "import { Pool } from 'pg'\nexport const pool = new Pool()\n",
}

const workspaces: TempWorkspace[] = []
afterEach(async () => {
  for (const workspace of workspaces.splice(0)) await workspace.cleanup()
})

async function workspace(files: Record<string, string> = cleanFiles): Promise<TempWorkspace> {
  const created = await makeWorkspace(files)
  workspaces.push(created)
  return created
}

function mk(ws: TempWorkspace, args: string[], input?: string) {
  return runMk(args, { cwd: ws.root, env: { MK_HOME: ws.mkHome }, ...(input === undefined ? {} : { input }) })
}

function git(ws: TempWorkspace, args: string[], env: Record<string, string> = {}) {
  return spawnSync('git', args, {
    cwd: ws.root,
    encoding: 'utf8',
    // No user or system git config: a global feature.manyFiles would change the index format under the tests.
    env: {
      ...process.env,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      MK_HOME: ws.mkHome,
      NO_COLOR: '1',
      GIT_AUTHOR_NAME: 'T',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 'T',
      GIT_COMMITTER_EMAIL: 't@example.com',
      ...env,
    },
  })
}

function gitInitCommit(ws: TempWorkspace): void {
  expect(git(ws, ['init', '-q', '-b', 'main']).status).toBe(0)
  expect(git(ws, ['add', '-A']).status).toBe(0)
  expect(git(ws, ['commit', '-q', '--no-verify', '-m', 'initial']).status).toBe(0)
}

/** A committed repository whose index holds a console.log in src/db.ts (line 2) that its working tree no longer has. */
async function consoleLogStagedOnly(): Promise<TempWorkspace> {
  const ws = await workspace()
  gitInitCommit(ws)
  await ws.write('src/db.ts', "import { Pool } from 'pg'\nconsole.log('connecting')\nexport const pool = new Pool()\n")
  expect(git(ws, ['add', 'src/db.ts']).status).toBe(0)
  await ws.write('src/db.ts', cleanFiles['src/db.ts'])
  return ws
}

describe('mk knowledge check', () => {
  it('passes a clean working tree and fails on a forbidden dependency at the line of its key', async () => {
    const ws = await workspace()
    const clean = await mk(ws, ['knowledge', 'check', '--json'])
    expect(clean.exitCode).toBe(0)
    expect(parseJson<CheckOutput>(clean).passed).toBe(true)

    await ws.write('package.json', JSON.stringify({ name: 'app', dependencies: { pg: '^8.0.0', mysql2: '^3.0.0' } }, null, 2))
    const failed = await mk(ws, ['knowledge', 'check'])
    expect(failed.exitCode).toBe(1)
    expect(failed.stdout).toContain('package.json:5:5')
    expect(failed.stdout).toContain('MySQL is not allowed for new services; use PostgreSQL.')
    expect(failed.stdout).toContain('[no-mysql]')
    expect(failed.stdout).toContain('adr-0042-database: Database selection for new services (knowledge/adr/adr-0042-database.md')
  })

  it("rejects an agent's --stdin proposal and names the constraint that blocks it", async () => {
    const ws = await workspace()
    const proposal = JSON.stringify({
      files: [{ path: 'src/orders.ts', content: "import mysql from 'mysql2/promise'\nexport const db = mysql.createPool({})\n" }],
      dependencies: [{ name: 'mysql2', version: '^3.9.0' }],
    })
    const run = await mk(ws, ['knowledge', 'check', '--stdin', '--json'], proposal)
    expect(run.exitCode).toBe(1)
    const output = parseJson<CheckOutput>(run)
    expect(output.passed).toBe(false)
    expect(output.violations.map((violation) => [violation.constraintId, violation.subject, violation.location.file, violation.location.line])).toEqual([
      ['no-mysql', 'mysql2', 'package.json', 1],
      ['no-mysql-import', 'mysql2/promise', 'src/orders.ts', 1],
    ])
    expect(output.violations[0]?.knowledgeItemId).toBe('adr-0042-database')
    expect(existsSync(join(ws.root, 'src/orders.ts'))).toBe(false)

    const allowed = await mk(ws, ['knowledge', 'check', '--dependencies', 'pg@8', '--json'])
    expect(allowed.exitCode).toBe(0)
  })

  it('checks the staged content, not the working tree', async () => {
    const ws = await consoleLogStagedOnly()

    const staged = await mk(ws, ['knowledge', 'check', '--staged', '--fail-on', 'warn', '--json'])
    expect(staged.exitCode).toBe(1)
    expect(parseJson<CheckOutput>(staged).violations).toMatchObject([{ constraintId: 'no-console', location: { file: 'src/db.ts', line: 2, column: 1 } }])
    const tree = await mk(ws, ['knowledge', 'check', '--fail-on', 'warn', '--json'])
    expect(tree.exitCode).toBe(0)
  })

  it('reads an index of version 3, which git writes once a file is marked skip-worktree', async () => {
    const ws = await consoleLogStagedOnly()
    // An extended flag makes git write index version 3.
    expect(git(ws, ['update-index', '--skip-worktree', 'package.json']).status).toBe(0)
    expect(readFileSync(join(ws.root, '.git', 'index')).readUInt32BE(4)).toBe(3)

    const staged = await mk(ws, ['knowledge', 'check', '--staged', '--fail-on', 'warn', '--json'])
    expect(staged.exitCode).toBe(1)
    expect(parseJson<CheckOutput>(staged).violations).toMatchObject([{ constraintId: 'no-console', location: { file: 'src/db.ts', line: 2, column: 1 } }])
  })

  it('checks what is staged in a linked work tree (git worktree add)', async () => {
    const ws = await workspace()
    gitInitCommit(ws)
    const linked = join(ws.root, '..', 'linked')
    expect(git(ws, ['worktree', 'add', '-q', linked]).status).toBe(0)
    const inLinked = (args: string[]) => spawnSync('git', args, { cwd: linked, encoding: 'utf8' })
    writeFileSync(join(linked, 'src/db.ts'), "console.log('staged in the linked tree')\n")
    expect(inLinked(['add', 'src/db.ts']).status).toBe(0)
    writeFileSync(join(linked, 'src/db.ts'), cleanFiles['src/db.ts'])

    const staged = await runMk(['knowledge', 'check', '--staged', '--fail-on', 'warn', '--json'], { cwd: linked, env: { MK_HOME: ws.mkHome } })
    expect(staged.exitCode).toBe(1)
    expect(parseJson<CheckOutput>(staged).violations).toMatchObject([{ constraintId: 'no-console', location: { file: 'src/db.ts', line: 1, column: 1 } }])
    // The main work tree's index is untouched.
    expect((await mk(ws, ['knowledge', 'check', '--staged', '--fail-on', 'warn', '--json'])).exitCode).toBe(0)
    // Hooks are shared by every work tree: installing from the linked one writes the main repository's.
    expect((await runMk(['hook', 'install'], { cwd: linked, env: { MK_HOME: ws.mkHome } })).exitCode).toBe(0)
    expect(readFileSync(join(ws.root, '.git', 'hooks', 'pre-commit'), 'utf8')).toContain('mk-managed-hook')
  })

  it('stops honouring a waiver that expired yesterday and reports it', async () => {
    const ws = await workspace({ ...cleanFiles, 'src/legacy.ts': "import mysql from 'mysql'\n" })
    const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString().slice(0, 10)
    const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10)
    const waivers = (expires: string) =>
      [
        'waivers:',
        '  - constraint: no-mysql-import',
        '    paths: ["src/legacy.ts"]',
        '    reason: migrating to pg in ticket 42',
        '    owner: team-data',
        `    expires: ${expires}`,
        '',
      ].join('\n')

    await ws.write('knowledge/waivers.yaml', waivers(tomorrow))
    const valid = await mk(ws, ['knowledge', 'check', '--json'])
    expect(valid.exitCode).toBe(0)
    expect(parseJson<CheckOutput>(valid).waived).toMatchObject([{ constraintId: 'no-mysql-import', waiver: { reason: 'migrating to pg in ticket 42' } }])

    await ws.write('knowledge/waivers.yaml', waivers(yesterday))
    const expired = await mk(ws, ['knowledge', 'check', '--json'])
    expect(expired.exitCode).toBe(1)
    const output = parseJson<CheckOutput>(expired)
    expect(output.violations.map((violation) => violation.constraintId)).toEqual(['no-mysql-import'])
    expect(output.waiverProblems).toMatchObject([{ kind: 'expired', file: 'knowledge/waivers.yaml', line: 2 }])
  })

  it('honours an inline waiver with a reason, not one without', async () => {
    const ws = await workspace({
      ...cleanFiles,
      'src/a.ts':
        "// mk-ignore no-mysql-import -- read-only reporting replica, see ADR 51\nimport mysql from 'mysql2'\nimport other from 'mysql' // mk-ignore no-mysql-import\n",
    })
    const run = await mk(ws, ['knowledge', 'check', '--json'])
    expect(run.exitCode).toBe(1)
    const output = parseJson<CheckOutput>(run)
    expect(output.waived.map((waived) => waived.constraintId)).toEqual(['no-mysql-import'])
    expect(output.violations).toMatchObject([{ location: { file: 'src/a.ts', line: 3 } }])
    expect(output.waiverProblems).toMatchObject([{ kind: 'missing-reason', line: 3 }])
  })

  it('hides a baselined violation but not a new one, and prunes fixed ones on update', async () => {
    const ws = await workspace({ ...cleanFiles, 'src/old.ts': "import legacy from 'mysql'\n" })
    expect((await mk(ws, ['knowledge', 'check'])).exitCode).toBe(1)
    const update = await mk(ws, ['knowledge', 'check', '--update-baseline', '--json'])
    expect(update.exitCode).toBe(0)
    expect(parseJson(update)).toEqual({ file: '.mk-baseline.json', violations: 1, added: 1, pruned: 0 })
    expect(readFileSync(join(ws.root, '.mk-baseline.json'), 'utf8')).not.toContain('import legacy')

    // Lines added above move the old violation; it stays hidden because the key is its text, not its line.
    await ws.write('src/old.ts', "// header\n\nimport legacy from 'mysql'\n")
    const hidden = await mk(ws, ['knowledge', 'check', '--json'])
    expect(hidden.exitCode).toBe(0)
    expect(parseJson<CheckOutput>(hidden).baseline).toEqual({ file: '.mk-baseline.json', hidden: 1, fixed: 0 })

    await ws.write('src/new.ts', "import fresh from 'mysql2'\n")
    const fresh = await mk(ws, ['knowledge', 'check', '--json'])
    expect(fresh.exitCode).toBe(1)
    expect(parseJson<CheckOutput>(fresh).violations.map((violation) => violation.location.file)).toEqual(['src/new.ts'])

    await ws.write('src/old.ts', '// fixed\n')
    await ws.write('src/new.ts', '// fixed\n')
    expect(parseJson(await mk(ws, ['knowledge', 'check', '--update-baseline', '--json']))).toEqual({
      file: '.mk-baseline.json',
      violations: 0,
      added: 0,
      pruned: 1,
    })
  })

  it('writes SARIF 2.1.0 that validates against the SARIF schema', async () => {
    const ws = await workspace({
      ...cleanFiles,
      'src/a.ts': "import mysql from 'mysql2'\nconsole.log(mysql)\n",
      'src/b.ts': "// mk-ignore no-mysql-import -- fixture\nimport m from 'mysql'\n",
    })
    const run = await mk(ws, ['knowledge', 'check', '--format', 'sarif'])
    expect(run.exitCode).toBe(1)
    const schemaFile = fileURLToPath(new URL('../fixtures/sarif/sarif-schema-2.1.0.json', import.meta.url))
    const { $schema: _draft, id, ...schema } = JSON.parse(readFileSync(schemaFile, 'utf8')) as Record<string, unknown>
    const ajv = new Ajv({ strict: false, allErrors: true })
    const addFormats = addFormatsModule as unknown as (instance: Ajv) => Ajv
    addFormats(ajv)
    const validate = ajv.compile({ ...schema, $id: String(id) })
    const log = JSON.parse(run.stdout) as {
      runs: {
        tool: { driver: { rules: { id: string; shortDescription: { text: string } }[] } }
        results: { ruleId: string; level: string; suppressions?: unknown[] }[]
      }[]
    }
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true)
    const [sarifRun] = log.runs
    expect(sarifRun?.tool.driver.rules.map((rule) => rule.id)).toEqual(['no-mysql', 'no-mysql-import', 'no-console'])
    expect(sarifRun?.tool.driver.rules[0]?.shortDescription.text).toBe('Database selection for new services')
    expect(sarifRun?.results.map((result) => [result.ruleId, result.level, result.suppressions === undefined])).toEqual([
      ['no-mysql-import', 'error', true],
      ['no-console', 'error', true],
      ['no-mysql-import', 'error', false],
    ])
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: {} } }] })).toBe(false)
  })

  it('writes GitHub workflow commands', async () => {
    const ws = await workspace({ ...cleanFiles, 'src/a.ts': "import mysql from 'mysql2'\n" })
    const run = await mk(ws, ['knowledge', 'check', '--format', 'github'])
    expect(run.exitCode).toBe(1)
    expect(run.stdout.split('\n')[0]).toBe(
      '::error file=src/a.ts,line=1,col=1,title=no-mysql-import (adr-0042-database)::import of mysql2 is not allowed (matches /mysql2?/) — Database selection for new services (knowledge/adr/adr-0042-database.md)',
    )
  })

  it('does not hang on a catastrophic pattern from another repository', async () => {
    const ws = await workspace({
      'knowledge/policy/redos.md': [
        '---',
        'title: Pathological pattern',
        'constraints:',
        '  - operator: must_not_match',
        '    target: code',
        '    pattern: "(a+)+$"',
        '    severity: block',
        '---',
        '',
      ].join('\n'),
      'data.txt': `${'a'.repeat(200_000)}!\n`,
    })
    const run = await mk(ws, ['knowledge', 'check', '--json'])
    expect(run.exitCode).toBe(0)
  })

  it('exits 2 with a one-line error, never 0, when the check cannot be trusted', async () => {
    const broken = await workspace({
      ...cleanFiles,
      'knowledge/adr/adr-0043-broken.md': '---\ntitle: Broken\nconstraints:\n  - operator: must_not_match\n    target: code\n    pattern: "(unclosed"\n---\n',
    })
    const invalid = await mk(broken, ['knowledge', 'check'])
    expect(invalid.exitCode).toBe(2)
    expect(invalid.stderr).toMatch(/knowledge\/adr\/adr-0043-broken.md:6: .*invalid regular expression/)
    expect(invalid.stderr).not.toMatch(/\n\s+at /)

    const ws = await workspace()
    const outside = await mk(ws, ['knowledge', 'check', '--files', '../../etc/passwd', '--json'])
    expect(outside.exitCode).toBe(2)
    expect(parseJson(outside)).toMatchObject({ success: false, errorCode: 'INVALID_INPUT' })
    const badStdin = await mk(ws, ['knowledge', 'check', '--stdin'], '{not json')
    expect(badStdin.exitCode).toBe(2)
    expect(badStdin.stderr).toContain('--stdin: not valid JSON')
  })

  it('a large tree and the same files proposed on stdin give the same findings and waivers', async () => {
    // 600 files with violations and inline waivers spread through them: the disk and proposal inputs must agree.
    const files: Record<string, string> = { ...cleanFiles }
    for (let index = 0; index < 600; index++) {
      const folder = `src/module-${index % 7}`
      const body =
        index % 5 === 0
          ? "import mysql from 'mysql2'\nconsole.log(mysql)\n"
          : index % 3 === 0
            ? 'console.log(1) // mk-ignore no-console -- a test fixture\n'
            : 'export const ok = 1\n'
      files[`${folder}/file-${index}.ts`] = body
    }
    const ws = await workspace(files)
    const tree = await mk(ws, ['knowledge', 'check', '--json'])
    const proposal = JSON.stringify({
      files: Object.entries(files)
        .filter(([path]) => !path.startsWith('knowledge/'))
        .map(([path, content]) => ({ path, content })),
    })
    const single = await mk(ws, ['knowledge', 'check', '--stdin', '--json'], proposal)
    expect(tree.exitCode).toBe(1)
    const [fromTree, fromStdin] = [parseJson<CheckOutput>(tree), parseJson<CheckOutput>(single)]
    expect(fromTree.summary).toEqual({ info: 0, warn: 0, block: 240 })
    expect(fromTree.violations).toEqual(fromStdin.violations)
    expect(fromTree.waived).toHaveLength(160)
    expect(fromTree.waived).toEqual(fromStdin.waived)
  })

  it('skips binary files and files over 1 MB, counting them, and checks a file of exactly 1 MB', async () => {
    const line = 'console.log(1)\n'
    // Under the per-file match budget (scan-budget.ts), so every match is reported.
    const matches = line.repeat(500)
    const files: Record<string, string> = {
      ...cleanFiles,
      'src/binary.ts': `console.log(1)\n\0${line}`,
      'src/huge.ts': `${'x'.repeat(1024 * 1024)}\n${line}`,
      'src/exact.ts': `${matches}${'x'.repeat(1024 * 1024 - matches.length)}`,
      'src/bom.ts': `\ufeff${line}`,
    }
    const ws = await workspace(files)
    const run = await mk(ws, ['knowledge', 'check', '--json'])
    const result = parseJson<CheckOutput>(run)
    expect(Buffer.byteLength(files['src/exact.ts'] ?? '')).toBe(1024 * 1024)
    expect(result.skipped).toMatchObject({ binary: 1, tooLarge: 1 })
    const byFile = new Map<string, number>()
    for (const violation of result.violations) byFile.set(violation.location.file, (byFile.get(violation.location.file) ?? 0) + 1)
    expect(byFile.get('src/binary.ts')).toBeUndefined()
    expect(byFile.get('src/huge.ts')).toBeUndefined()
    expect(byFile.get('src/exact.ts')).toBe(500)
    expect(result.violations.find((violation) => violation.location.file === 'src/bom.ts')?.location).toEqual({ file: 'src/bom.ts', line: 1, column: 1 })
  })

  it('an unreadable manifest among many files stops the check with exit 2, naming it', async () => {
    const files: Record<string, string> = { ...cleanFiles }
    for (let index = 0; index < 400; index++) files[`src/file-${index}.ts`] = 'export const ok = 1\n'
    for (const service of ['a', 'm', 'z']) files[`services/${service}/package.json`] = service === 'm' ? '{ "dependencies": ' : '{}'
    const ws = await workspace(files)
    const run = await mk(ws, ['knowledge', 'check'])
    expect(run.exitCode).toBe(2)
    expect(run.stderr).toContain('services/m/package.json: not valid JSON')
    expect(run.stderr).not.toMatch(/\n\s+at /)
  })

  it('never loads the search index, ink or an embedding runtime', async () => {
    const ws = await workspace()
    const trace = join(ws.root, '..', 'modules.txt')
    await writeFile(
      join(ws.root, '..', 'hooks.mjs'),
      "import { appendFileSync } from 'node:fs'\nexport async function resolve(specifier, context, next) {\n  const result = await next(specifier, context)\n  appendFileSync(process.env.MK_TRACE_FILE, `${result.url}\\n`)\n  return result\n}\n",
    )
    // ES modules are traced as they resolve; CommonJS ones (the bundle, and what it requires) are listed at exit.
    await writeFile(
      join(ws.root, '..', 'register.mjs'),
      "import { appendFileSync } from 'node:fs'\nimport { createRequire, register } from 'node:module'\nregister('./hooks.mjs', import.meta.url)\nawait import('node:os')\n" +
        "process.on('exit', () => appendFileSync(process.env.MK_TRACE_FILE, `${Object.keys(createRequire(import.meta.url).cache).join('\\n')}\\n`))\n",
    )
    const run = await runMk(['knowledge', 'check'], {
      cwd: ws.root,
      env: { MK_HOME: ws.mkHome, MK_TRACE_FILE: trace, NODE_OPTIONS: `--import ${join(ws.root, '..', 'register.mjs')}` },
    })
    expect(run.exitCode).toBe(0)
    const loaded = readFileSync(trace, 'utf8')
    // Both traces work (the ES module trace saw the import made after it was registered; the launcher and the bundle are CommonJS); heavy parts are never bundled, so they show as their packages.
    expect(loaded).toContain('node:os')
    expect(loaded).toContain('/dist/bundle/load-bundle.cjs')
    expect(loaded).toContain('/dist/bundle/mk.cjs')
    for (const heavy of ['better-sqlite3', 'sqlite-vec', '/ink/', '@energetic-ai', '@huggingface', '@tensorflow', '@modelcontextprotocol', 'onnxruntime']) {
      expect(loaded, heavy).not.toContain(heavy)
    }
  })
})

describe('mk hook install', () => {
  it('installs a pre-commit hook that blocks a real git commit', async () => {
    const ws = await workspace()
    gitInitCommit(ws)
    const install = await mk(ws, ['hook', 'install'])
    expect(install.exitCode).toBe(0)
    expect(install.stdout).toContain('created .git/hooks/pre-commit')
    expect(install.stdout).toContain('husky')
    expect(install.stdout).toContain('lefthook')
    expect((await mk(ws, ['hook', 'install', '--json'])).stdout).toContain('"action": "unchanged"')

    await ws.write('package.json', JSON.stringify({ name: 'app', dependencies: { mysql: '^2.18.0' } }, null, 2))
    expect(git(ws, ['add', 'package.json']).status).toBe(0)
    const blocked = git(ws, ['commit', '-m', 'add mysql'])
    expect(blocked.status).not.toBe(0)
    expect(blocked.stdout + blocked.stderr).toContain('[no-mysql]')
    expect(git(ws, ['log', '--oneline']).stdout.trim().split('\n')).toHaveLength(1)

    await ws.write('package.json', JSON.stringify({ name: 'app', dependencies: { pg: '^8.1.0' } }, null, 2))
    expect(git(ws, ['add', 'package.json']).status).toBe(0)
    const allowed = git(ws, ['commit', '-q', '-m', 'bump pg'])
    expect(allowed.status, allowed.stderr).toBe(0)
  })

  it('blocks `git commit -a`, whose hook sees the index git is about to commit (GIT_INDEX_FILE)', async () => {
    const ws = await workspace()
    gitInitCommit(ws)
    expect((await mk(ws, ['hook', 'install'])).exitCode).toBe(0)
    // Changed in the working tree only: git stages it into a temporary index just for this commit.
    await ws.write('package.json', JSON.stringify({ name: 'app', dependencies: { mysql: '^2.18.0' } }, null, 2))
    const blocked = git(ws, ['commit', '-a', '-m', 'add mysql'])
    expect(blocked.status).not.toBe(0)
    expect(blocked.stdout + blocked.stderr).toContain('[no-mysql]')
    expect(git(ws, ['log', '--oneline']).stdout.trim().split('\n')).toHaveLength(1)

    // A GIT_INDEX_FILE that names no file cannot be checked: never a silent pass.
    const missing = await runMk(['knowledge', 'check', '--staged'], {
      cwd: ws.root,
      env: { MK_HOME: ws.mkHome, GIT_INDEX_FILE: join(ws.root, 'no-such-index') },
    })
    expect(missing.exitCode).toBe(2)
    expect(missing.stderr).toContain('GIT_INDEX_FILE names')
  })

  it('refuses to replace a hook it did not write unless --force, and keeps the old one', async () => {
    const ws = await workspace()
    gitInitCommit(ws)
    await ws.write('.git/hooks/pre-commit', '#!/bin/sh\necho team hook\n')
    const refused = await mk(ws, ['hook', 'install'])
    expect(refused.exitCode).toBe(2)
    expect(refused.stderr).toContain('[CONFLICT]')
    expect(readFileSync(join(ws.root, '.git/hooks/pre-commit'), 'utf8')).toContain('team hook')
    const forced = await mk(ws, ['hook', 'install', '--force', '--json'])
    expect(forced.exitCode).toBe(0)
    expect(parseJson(forced)).toMatchObject({ action: 'replaced', backup: '.git/hooks/pre-commit.mk-backup' })
    expect(readFileSync(join(ws.root, '.git/hooks/pre-commit.mk-backup'), 'utf8')).toContain('team hook')
  })
})

describe('mk knowledge check --format json on bad input', () => {
  it('prints the error object on stdout, like --json, and a single line without it', async () => {
    const ws = await workspace()
    const asJson = await mk(ws, ['knowledge', 'check', '--stdin', '--format', 'json'], 'not json\n')
    expect(asJson.exitCode).toBe(2)
    expect(JSON.parse(asJson.stdout)).toMatchObject({ success: false, errorCode: 'INVALID_INPUT', message: expect.stringContaining('--stdin: not valid JSON') })
    const asText = await mk(ws, ['knowledge', 'check', '--stdin'], 'not json\n')
    expect(asText.exitCode).toBe(2)
    expect(asText.stdout).toBe('')
    expect(asText.stderr.trim().split('\n')[0]).toMatch(/^Error \[INVALID_INPUT\] --stdin: not valid JSON/)
    expect(asText.stderr.trim().split('\n')).toHaveLength(2)
  })
})
