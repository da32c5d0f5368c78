import { spawn } from 'node:child_process'
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { expectCleanError, mkBin, mkEnv, parseJson, runMk } from '../helpers/mk.js'
import { gitCommitAll, gitInit, workspacesRemovedAfterEach } from '../helpers/workspace.js'
import { siteRepo } from '../fixtures/site-repo.js'

const workspace = workspacesRemovedAfterEach()

describe('mk site build', () => {
  it('writes the log, the graph, the constraint map and a page per item into .mk/site by default', async () => {
    const { root, mkHome } = await workspace(siteRepo)
    const run = await runMk(['site', 'build', '--json'], { cwd: root, env: { MK_HOME: mkHome } })
    expect(run.exitCode, run.stderr).toBe(0)
    const built = parseJson<{ out: string; items: number; violations: number }>(run)
    expect(built).toMatchObject({ out: join(root, '.mk', 'site'), items: 6, violations: 1 })
    expect((await readdir(join(built.out, 'items'))).length).toBe(6)
    const policy = await readFile(join(built.out, 'items', 'no-float-money.html'), 'utf8')
    expect(policy).toContain('<code class="violation-file">src/ledger/import.ts:2</code>')
  })

  it('refuses a folder outside the workspace and MK_HOME, and a non-empty folder it did not build', async () => {
    const { root, mkHome } = await workspace({ ...siteRepo, 'public/keep.txt': 'mine' })
    const outside = expectCleanError(await runMk(['site', 'build', '--out', '/tmp'], { cwd: root, env: { MK_HOME: mkHome } }))
    expect(outside).toContain('outside')
    const foreign = expectCleanError(await runMk(['site', 'build', '--out', 'public'], { cwd: root, env: { MK_HOME: mkHome } }))
    expect(foreign).toContain('was not built by mk site build')
    expect(await readFile(join(root, 'public', 'keep.txt'), 'utf8')).toBe('mine')
    // A second build replaces the first.
    expect((await runMk(['site', 'build', '--out', 'site'], { cwd: root, env: { MK_HOME: mkHome } })).exitCode).toBe(0)
    expect((await runMk(['site', 'build', '--out', 'site'], { cwd: root, env: { MK_HOME: mkHome } })).exitCode).toBe(0)
  })

  it('charts the baseline count at each commit that changed it', async () => {
    const ws = await workspace(siteRepo)
    const baseline = (count: number): string =>
      JSON.stringify({ version: 2, entries: [{ constraint: 'no-parse-float', file: 'src/ledger/import.ts', hash: 'h', count }] })
    await gitInit(ws.root)
    await ws.write('.mk-baseline.json', baseline(4))
    await gitCommitAll(ws.root, 'Adopt mk with a baseline', 1_700_000_000)
    await ws.write('.mk-baseline.json', baseline(1))
    await gitCommitAll(ws.root, 'Fix three float parses', 1_700_100_000)
    const run = await runMk(['site', 'build', '--json'], { cwd: ws.root, env: { MK_HOME: ws.mkHome } })
    expect(run.exitCode, run.stderr).toBe(0)
    const page = await readFile(join(ws.root, '.mk', 'site', 'constraints.html'), 'utf8')
    expect(page.replace(/\s+/g, ' ')).toContain('at each of the 2 commits that changed it: 4 then, 1 now (falling)')
    expect(page.match(/<td class="count">(\d+)<\/td>/g)).toEqual(['<td class="count">1</td>', '<td class="count">4</td>'])
  })
})

describe('mk site serve', () => {
  it('builds the site and serves it on 127.0.0.1 until stopped', async () => {
    const { root, mkHome } = await workspace(siteRepo)
    const child = spawn(process.execPath, [mkBin, 'site', 'serve', '--port', '0', '--json'], { cwd: root, env: mkEnv({ MK_HOME: mkHome }) })
    try {
      let stdout = ''
      // With --json the build's result comes first, then the preview's {url, out} once it listens.
      const started = await new Promise<{ url: string; out: string }>((resolve, reject) => {
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk
          const url = /"url": ?"([^"]+)"/.exec(stdout)?.[1]
          const out = /"url"[^}]*"out": ?"([^"]+)"/.exec(stdout)?.[1]
          if (url !== undefined && out !== undefined) resolve({ url, out })
        })
        child.on('exit', (code) => reject(new Error(`mk site serve exited ${String(code)}: ${stdout}`)))
      })
      expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
      expect(started.out).toBe(join(root, '.mk', 'site'))
      const page = await fetch(`${started.url}items/no-float-money.html`)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('src/ledger/import.ts:2')
    } finally {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
    }
  })
})
