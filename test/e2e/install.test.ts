import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const repository = fileURLToPath(new URL('../..', import.meta.url))

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): { stdout: string; stderr: string; status: number | null } {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env }, maxBuffer: 64 * 1024 * 1024 })
  return { stdout: result.stdout, stderr: result.stderr, status: result.status }
}

function sizeOf(path: string): number {
  const info = statSync(path)
  return info.isDirectory() ? readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0) : info.size
}

// Issue 12: the packed tarball installs with npm into a scratch project, with no environment
// variable, and runs there as a user runs it.
describe('the packed package', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'mk-install-'))
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))

  it('installs from its tarball and runs mk --help, init, knowledge check and memory add/search', () => {
    const packed = run('npm', ['pack', '--ignore-scripts', '--pack-destination', scratch, '--json'], repository)
    expect(packed.status, packed.stderr).toBe(0)
    const [{ filename, files }] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }]
    const shipped = files.map((file) => file.path)
    expect(shipped).toEqual(expect.arrayContaining(['LICENSE', '.mkrc.example', 'bin/run.js', 'dist/bundle/mk.cjs', 'oclif.manifest.json']))
    expect(shipped.filter((path) => /(^|\/)(test|bench|scripts)\//.test(path))).toEqual([])

    const project = join(scratch, 'project')
    run('mkdir', ['-p', project], scratch)
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', version: '1.0.0', private: true }))
    // The variables the CI script sets for this repository's own install are not a user's.
    const installed = run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(scratch, filename)], project, { ONNXRUNTIME_NODE_INSTALL: '' })
    expect(installed.status, installed.stderr).toBe(0)
    const megabytes = sizeOf(join(project, 'node_modules')) / 1e6
    console.log(`installed size: ${megabytes.toFixed(0)} MB`)
    expect(readdirSync(join(project, 'node_modules'))).not.toContain('onnxruntime-node')

    const env = { MK_HOME: join(scratch, 'home') }
    const mk = (...args: string[]) => run(join(project, 'node_modules', '.bin', 'mk'), args, project, env)
    expect(mk('--help').stdout).toContain('mk-knowledge')
    expect(run('git', ['init', '-q'], project).status).toBe(0)
    expect(mk('init').status).toBe(0)
    const checked = mk('knowledge', 'check')
    expect(checked.status, checked.stdout + checked.stderr).toBe(0)
    expect(mk('memory', 'add', 'We store everything in Postgres 15', '--layer', 'project').status).toBe(0)
    const found = mk('memory', 'search', 'Postgres', '--json')
    expect(found.status, found.stderr).toBe(0)
    expect((JSON.parse(found.stdout) as { results: { content: string }[] }).results[0]?.content).toBe('We store everything in Postgres 15')
  }, 900_000)
})
