import { spawnSync } from 'node:child_process'
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const repository = fileURLToPath(new URL('../..', import.meta.url))
const hasPreCommit = spawnSync('pre-commit', ['--version']).status === 0

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): { output: string; status: number | null } {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env }, maxBuffer: 64 * 1024 * 1024 })
  return { output: `${result.stdout}${result.stderr}`, status: result.status }
}

const adr = `---
title: No MySQL
type: adr
status: accepted
constraints:
  - id: no-mysql
    operator: must_not_use
    target: dependency
    pattern: '^mysql2?$'
    severity: block
    message: MySQL is not allowed; use PostgreSQL.
---
# No MySQL
`

// Issue 12: a repository using mk's .pre-commit-hooks.yaml installs and runs with the real
// pre-commit (Debian's package; .ci/run installs it), which builds mk from a clone of this
// repository with npm and nothing from outside the npm registry.
describe.skipIf(!hasPreCommit)('the pre-commit framework', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'mk-pre-commit-'))
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))

  it('installs mk-knowledge-check and blocks a staged violation, then passes once it is fixed', () => {
    const hooks = join(scratch, 'hooks')
    expect(run('git', ['clone', '-q', repository, hooks], scratch).status).toBe(0)
    const rev = run('git', ['rev-parse', 'HEAD'], hooks).output.trim()
    const project = join(scratch, 'project')
    mkdirSync(join(project, 'knowledge', 'adr'), { recursive: true })
    writeFileSync(join(project, 'knowledge', 'adr', 'adr-0001-no-mysql.md'), adr)
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, dependencies: { mysql: '^2.18.1' } }, null, 2))
    writeFileSync(join(project, '.pre-commit-config.yaml'), `repos:\n  - repo: ${hooks}\n    rev: ${rev}\n    hooks:\n      - id: mk-knowledge-check\n`)
    for (const args of [
      ['init', '-q'],
      ['config', 'user.email', 'dev@example.com'],
      ['config', 'user.name', 'Dev'],
      ['add', '-A'],
    ]) {
      expect(run('git', args, project).status).toBe(0)
    }
    const env = { PRE_COMMIT_HOME: join(scratch, 'pre-commit-home'), MK_HOME: join(scratch, 'mk-home'), npm_config_prefer_offline: 'true' }

    const blocked = run('pre-commit', ['run', '--all-files'], project, env)
    expect(blocked.status, blocked.output).toBe(1)
    expect(blocked.output).toContain('MySQL is not allowed; use PostgreSQL.')

    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, dependencies: { pg: '^8.11.0' } }, null, 2))
    expect(run('git', ['add', '-A'], project).status).toBe(0)
    const passed = run('pre-commit', ['run', '--all-files'], project, env)
    expect(passed.status, passed.output).toBe(0)
    expect(passed.output).toMatch(/mk knowledge check\.+Passed/)
  }, 1_800_000)
})
