import { existsSync, readFileSync } from 'node:fs'
import { mkdir, rename, symlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseJson, runMk } from '../helpers/mk.js'
import { workspacesRemovedAfterEach, type TempWorkspace } from '../helpers/workspace.js'

interface CheckOutput {
  passed: boolean
  violations: { constraintId: string; message: string; subject: string; location: { file: string; line: number } }[]
  baseline?: { hidden: number; fixed: number }
  skipped: { overBudget: { constraintId: string; severity: string; file: string; reason: string }[] }
}

const policy = (constraints: string[]): string =>
  ['---', 'title: Rules', 'type: policy', 'status: accepted', 'severity: block', 'constraints:', ...constraints, '---', '# Rules', ''].join('\n')
const noMysql = ['  - id: no-mysql', '    operator: must_not_use', '    target: dependency', '    pattern: "^mysql2?$"', '    message: Use PostgreSQL.']
const noConsole = ['  - id: no-console', '    operator: must_not_match', '    target: code', '    pattern: "console\\\\.log"']
const wordLines = ['  - id: word-lines', '    operator: must_not_match', '    target: code', '    pattern: "^(\\\\w+\\\\s?)*$"', '    paths: ["data/**"]']

const workspace = workspacesRemovedAfterEach()

function mk(ws: TempWorkspace, args: string[], env: Record<string, string> = {}) {
  return runMk(args, { cwd: ws.root, env: { MK_HOME: ws.mkHome, ...env } })
}

const manifest = (dependencies: Record<string, string>): string => `${JSON.stringify({ name: 'app', dependencies }, null, 2)}\n`

describe('knowledge check cannot hang, escape or lie', () => {
  it('issue 11.7: a 999 KB minified line with 6,180 matches is reported over budget, never passed, in bounded memory', async () => {
    const minified = `${'var a=1;console.log(a);'.repeat(6_180)}${'x'.repeat(999_000 - 23 * 6_180)}`
    const ws = await workspace({ 'knowledge/policy/rules.md': policy(noConsole), 'dist/app.min.js': minified })
    // 4.27 GB before: each match copied its line. The heap is capped well below that.
    const run = await mk(ws, ['knowledge', 'check', '--json'], { NODE_OPTIONS: '--max-old-space-size=192' })
    expect(run.exitCode).toBe(1)
    const output = parseJson<CheckOutput>(run)
    expect(output.passed).toBe(false)
    expect(output.skipped.overBudget).toEqual([{ constraintId: 'no-console', severity: 'block', file: 'dist/app.min.js', reason: 'matches' }])
    const text = await mk(ws, ['knowledge', 'check'])
    expect(text.stdout).toMatch(/not judged[\s\S]*dist\/app\.min\.js\s+over 1000 matches\s+\[no-console\]/)
    const github = await mk(ws, ['knowledge', 'check', '--format', 'github'])
    expect(github.stdout).toContain('::error file=dist/app.min.js,title=no-console not judged::dist/app.min.js was not judged: over 1000 matches')
  })

  it('issue 11.7: a line-spanning pattern over 400 KB of lines finishes and judges every line', async () => {
    const ws = await workspace({ 'knowledge/policy/rules.md': policy(wordLines), 'data/words.txt': 'word word\n'.repeat(40_000), 'data/ok.txt': 'a-b' })
    const run = await mk(ws, ['knowledge', 'check', '--json'])
    const output = parseJson<CheckOutput>(run)
    // Every line matches: far more than the match budget, so the file is reported, not passed.
    expect(output.skipped.overBudget).toEqual([{ constraintId: 'word-lines', severity: 'block', file: 'data/words.txt', reason: 'matches' }])
    expect(output.violations).toEqual([])
    expect(run.exitCode).toBe(1)
  })

  it('issue 11.8: --files through a folder linked to /etc is refused and nothing of it is printed', async () => {
    const ws = await workspace({
      'knowledge/policy/rules.md': policy(['  - id: root-user', '    operator: must_not_match', '    target: code', '    pattern: "root"']),
      'src/a.ts': 'x\n',
    })
    await symlink('/etc', join(ws.root, 'src', 'etc_link'))
    for (const args of [
      ['knowledge', 'check', '--files', 'src/etc_link/passwd'],
      ['tools', 'call', 'knowledge_check', '--input', JSON.stringify({ paths: ['src/etc_link/passwd'] })],
    ]) {
      const run = await mk(ws, [...args, '--json'])
      expect(run.exitCode, run.stdout).toBe(2)
      expect(parseJson(run)).toMatchObject({ success: false, errorCode: 'INVALID_INPUT' })
      expect(run.stdout).toMatch(/resolves to \/etc, outside the workspace/)
      expect(run.stdout + run.stderr).not.toContain('root:')
    }
  })

  it('issue 11.8: memory.dir and a knowledge source outside the workspace are never written to', async () => {
    const ws = await workspace({ '.mkrc': 'memory:\n  dir: ../elsewhere\n', 'knowledge/policy/rules.md': policy(noConsole) })
    const add = await mk(ws, ['memory', 'add', 'a fact', '--layer', 'project', '--json'])
    expect(add.exitCode).toBe(2)
    expect(parseJson(add)).toMatchObject({ errorCode: 'INVALID_INPUT', message: expect.stringContaining('.mkrc memory.dir') })
    expect(existsSync(join(dirname(ws.root), 'elsewhere'))).toBe(false)

    // A company knowledge folder outside the workspace is read, but `knowledge new` does not write there.
    const company = join(dirname(ws.root), 'company')
    await mkdir(join(company, 'adr'), { recursive: true })
    await ws.write('.mkrc', 'knowledge:\n  sources:\n    - name: company\n      layer: project\n      path: ../company\n')
    const created = await mk(ws, ['knowledge', 'new', 'adr', 'Escape', '--json'])
    expect(created.exitCode).toBe(2)
    expect(parseJson(created)).toMatchObject({ errorCode: 'INVALID_INPUT', message: expect.stringContaining('knowledge source "company"') })
    expect(existsSync(join(company, 'adr', 'adr-0001-escape.md'))).toBe(false)
    expect((await mk(ws, ['knowledge', 'list', '--json'])).exitCode).toBe(0)
  })

  it('issue 11.8: memories of a local source that leads out of the workspace are neither added nor deleted', async () => {
    const config =
      'knowledge:\n  sources:\n    - name: project\n      layer: project\n      path: knowledge\n    - name: shared\n      layer: team\n      path: shared\n'
    const ws = await workspace({ '.mkrc': config, 'knowledge/policy/rules.md': policy(noConsole), 'shared/policy/x.md': policy([]) })
    const added = await mk(ws, ['memory', 'add', 'the team fact', '--layer', 'team', '--json'])
    expect(added.exitCode, added.stdout).toBe(0)
    const { memoryId: id } = parseJson<{ memoryId: string }>(added)
    // The shared folder now lies outside the workspace, reached through a link.
    const outside = join(dirname(ws.root), 'shared-elsewhere')
    await rename(join(ws.root, 'shared'), outside)
    await symlink(outside, join(ws.root, 'shared'))
    const deleted = await mk(ws, ['memory', 'delete', id, '--yes', '--json'])
    expect(deleted.exitCode, deleted.stdout).toBe(2)
    expect(parseJson(deleted)).toMatchObject({ errorCode: 'INVALID_INPUT', message: expect.stringContaining('the team/shared memory folder') })
    expect(existsSync(join(outside, 'memory', `${id}.md`))).toBe(true)
    const again = await mk(ws, ['memory', 'add', 'another team fact', '--layer', 'team', '--json'])
    expect(again.exitCode).toBe(2)
  })

  it('issue 11.14: a dependency added after a baselined one leaves it baselined', async () => {
    const ws = await workspace({ 'knowledge/policy/rules.md': policy(noMysql), 'package.json': manifest({ mysql: '^2.0.0' }) })
    expect((await mk(ws, ['knowledge', 'check', '--update-baseline'])).exitCode).toBe(0)
    expect(JSON.parse(readFileSync(join(ws.root, '.mk-baseline.json'), 'utf8'))).toMatchObject({ version: 2 })
    await ws.write('package.json', manifest({ mysql: '^2.0.0', pg: '^8.0.0' }))
    const run = await mk(ws, ['knowledge', 'check', '--json'])
    expect(run.exitCode).toBe(0)
    expect(parseJson<CheckOutput>(run).baseline).toMatchObject({ hidden: 1, fixed: 0 })
  })

  it('names the violating package even when the constraint has its own message', async () => {
    const ws = await workspace({ 'knowledge/policy/rules.md': policy(noMysql), 'package.json': manifest({ pg: '^8.0.0', mysql2: '^3.0.0' }) })
    const run = await mk(ws, ['knowledge', 'check'])
    expect(run.exitCode).toBe(1)
    expect(run.stdout).toContain('package.json:5:5  Use PostgreSQL. (dependency mysql2)')
  })
})
