import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

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
// Issue 17: the same install is imported as a library, from JavaScript and from a TypeScript compiler.
// Issue 26.8: it installs on Node 20 with no EBADENGINE warning, in at most 150 MB.
describe('the packed package', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'mk-install-'))
  const project = join(scratch, 'project')
  let installLog = ''
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))

  // Packed and installed once for both tests: a minute of npm.
  beforeAll(() => {
    const packed = run('npm', ['pack', '--ignore-scripts', '--pack-destination', scratch, '--json'], repository)
    expect(packed.status, packed.stderr).toBe(0)
    const [{ filename, files }] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }]
    const shipped = files.map((file) => file.path)
    expect(shipped).toEqual(
      expect.arrayContaining([
        'LICENSE',
        '.mkrc.example',
        'bin/run.js',
        'bin/package.json',
        'dist/bundle/mk.cjs',
        'dist/bundle/load-bundle.cjs',
        'oclif.manifest.json',
        'dist/library/index.js',
        'dist/library/index.d.ts',
      ]),
    )
    expect(shipped.filter((path) => /(^|\/)(test|bench|scripts)\//.test(path))).toEqual([])
    // The build's code caches and no other: none of an earlier build, none a test's mk run wrote beside them.
    const build = readFileSync(join(repository, 'dist', 'bundle', 'mk.cjs'), 'latin1')
      .split('\n', 1)[0]
      ?.slice('//mk-build:'.length)
    expect(shipped.filter((path) => path.endsWith('.code-cache')).sort()).toEqual(
      ['', '.memory-add', '.memory-search'].map((name) => `dist/bundle/mk.cjs.${build}${name}.code-cache`).sort(),
    )

    run('mkdir', ['-p', project], scratch)
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', version: '1.0.0', private: true }))
    // The variables the CI script sets for this repository's own install are not a user's; the
    // flag is the README's, and the install scripts print into the log so a download attempt shows.
    const installed = run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--build-from-source', '--foreground-scripts', join(scratch, filename)],
      project,
      { ONNXRUNTIME_NODE_INSTALL: '' },
    )
    expect(installed.status, installed.stderr).toBe(0)
    installLog = installed.stdout + installed.stderr
  }, 900_000)

  it('installs with no engine warning, no download outside the registry and in at most 150 MB, with one tokenizer encoding instead of gpt-tokenizer', () => {
    expect(installLog).not.toContain('EBADENGINE')
    // Nothing from outside the npm registry: better-sqlite3's install asked GitHub for a binary before it
    // compiled, and said so in the log ("prebuild-install warn install getaddrinfo ENOTFOUND github.com").
    expect(installLog).not.toMatch(/github\.com|getaddrinfo/)
    // On disk, as `du` counts it (164 MB before gpt-tokenizer was left out).
    const du = run('du', ['-sk', join(project, 'node_modules')], project)
    expect(du.status, du.stderr).toBe(0)
    expect(Number.parseInt(du.stdout, 10) / 1024).toBeLessThanOrEqual(150)
    expect(readdirSync(join(project, 'node_modules'))).not.toContain('gpt-tokenizer')
  })

  it('installs from its tarball and runs mk --help, init, knowledge check and memory add/search', () => {
    const megabytes = sizeOf(join(project, 'node_modules')) / 1e6
    console.log(`installed size: ${megabytes.toFixed(0)} MB`)
    expect(readdirSync(join(project, 'node_modules'))).not.toContain('onnxruntime-node')

    const env = { MK_HOME: join(scratch, 'home') }
    const mk = (...args: string[]) => run(join(project, 'node_modules', '.bin', 'mk'), args, project, env)
    expect(mk('--help').stdout).toContain('mk-knowledge')
    expect(run('git', ['init', '-q'], project).status).toBe(0)
    expect(mk('init').status).toBe(0)
    // Token budgets count with the o200k file the build wrote, the only tokenizer the package ships.
    const directives = mk('rules', 'directives', 'add a service', '--json')
    expect(directives.status, directives.stderr).toBe(0)
    expect((JSON.parse(directives.stdout) as { tokens: number }).tokens).toBeGreaterThan(0)
    const checked = mk('knowledge', 'check')
    expect(checked.status, checked.stdout + checked.stderr).toBe(0)
    expect(mk('memory', 'add', 'We store everything in Postgres 15', '--layer', 'project').status).toBe(0)
    const found = mk('memory', 'search', 'Postgres', '--json')
    expect(found.status, found.stderr).toBe(0)
    expect((JSON.parse(found.stdout) as { results: { content: string }[] }).results[0]?.content).toBe('We store everything in Postgres 15')
  }, 900_000)

  it('is imported as a typed library: openMk, memoryAdd, memorySearch, knowledgeQuery, and an MkError with its code', () => {
    const repo = join(scratch, 'library-repo')
    mkdirSync(join(repo, 'knowledge', 'adr'), { recursive: true })
    writeFileSync(join(repo, 'knowledge', 'adr', 'adr-0001-queue.md'), queueDecision)
    expect(run('git', ['init', '-q'], repo).status).toBe(0)
    writeFileSync(join(project, 'use-library.mjs'), libraryScript)
    const used = run(process.execPath, ['use-library.mjs', repo], project, { MK_HOME: join(scratch, 'library-home') })
    expect(used.status, used.stderr).toBe(0)
    expect(JSON.parse(used.stdout)).toEqual({
      added: true,
      foundFirst: 'Webhook deliveries are retried three times with backoff',
      knowledgeFirst: 'adr-0001-queue',
      errorIsMkError: true,
      errorCode: 'INVALID_INPUT',
    })

    // The declarations stand alone (no zod, no mk source) and are precise: each @ts-expect-error must find an error.
    writeFileSync(join(project, 'typed.mts'), typedScript)
    const compiler = join(repository, 'node_modules', 'typescript', 'bin', 'tsc')
    const typeRoots = join(repository, 'node_modules', '@types')
    const checked = run(
      process.execPath,
      [
        compiler,
        '--noEmit',
        '--strict',
        '--target',
        'es2022',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--typeRoots',
        typeRoots,
        '--types',
        'node',
        'typed.mts',
      ],
      project,
    )
    expect(checked.status, checked.stdout + checked.stderr).toBe(0)
  }, 300_000)
})

const queueDecision = `---
id: adr-0001-queue
type: adr
title: Webhooks go through a durable queue
status: accepted
date: 2026-11-25
summary: Outgoing webhooks are queued in a durable queue so a slow receiver never blocks a request.
---
# Webhooks go through a durable queue

Outgoing webhooks are queued, never sent inside the request.
`

const libraryScript = `import { openMk, MkError } from 'mk-knowledge'

const mk = await openMk({ cwd: process.argv[2] })
try {
  const added = await mk.memoryAdd({ content: 'Webhook deliveries are retried three times with backoff', layer: 'project' })
  const found = await mk.memorySearch({ query: 'how often are webhooks retried' })
  const knowledge = await mk.knowledgeQuery({ text: 'durable queue for webhooks' })
  const failure = await mk.memorySearch({ query: 7 }).catch((error) => error)
  process.stdout.write(JSON.stringify({
    added: found.results.some((result) => result.memoryId === added.memoryId),
    foundFirst: found.results[0]?.content,
    knowledgeFirst: knowledge.items[0]?.id,
    errorIsMkError: failure instanceof MkError,
    errorCode: failure.code,
  }))
} finally {
  await mk.close()
}
`

const typedScript = `import { openMk, MkError, type Mk } from 'mk-knowledge'

const mk: Mk = await openMk({ cwd: '.', env: { MK_HOME: '/tmp/unused' } })
const found = await mk.memorySearch({ query: 'retries', limit: 3 })
const first: string | undefined = found.results[0]?.memoryId
// @ts-expect-error memory_search needs a query
await mk.memorySearch({ limit: 3 })
// @ts-expect-error a search result has memoryId, not id
console.log(found.results[0]?.id)
const items: { id: string; title: string }[] = (await mk.knowledgeQuery({ text: 'queue' })).items
const code: MkError['code'] = new MkError('NOT_FOUND', 'none').code
await mk.close()
console.log(first, items, code)
`
