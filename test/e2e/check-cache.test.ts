import { spawnSync } from 'node:child_process'
import { appendFileSync, existsSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeCheckWorkspace } from '../../scripts/bench/check-workspace.js'
import { runMk } from '../helpers/mk.js'

const formats = ['json', 'text', 'sarif'] as const

function git(root: string, ...args: string[]): void {
  const result = spawnSync('git', ['-c', 'user.email=dev@example.com', '-c', 'user.name=Dev', ...args], { cwd: root, encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`)
}

/**
 * Issue 18: checks that reuse file scans from earlier runs (the scan cache in
 * .mk/cache/check) print exactly what a check that reads every file prints,
 * in every format, after every kind of change.
 */
describe('knowledge check with a scan cache', () => {
  let root: string
  const cacheFolder = (): string => join(root, '.mk', 'cache', 'check')

  async function outputs(args: readonly string[], clearFirst: boolean): Promise<string[]> {
    const printed: string[] = []
    for (const format of formats) {
      if (clearFirst) rmSync(cacheFolder(), { recursive: true, force: true })
      const run = await runMk(['knowledge', 'check', ...args, '--format', format], { cwd: root, env: { MK_HOME: join(root, '..', 'home') } })
      printed.push(`exit ${run.exitCode}\n${run.stdout}${run.stderr}`)
    }
    return printed
  }

  /** With the cache of the previous state, then without any, then with the one just written: all the same. */
  async function expectSameAsFullScan(args: readonly string[]): Promise<string[]> {
    const incremental = await outputs(args, false)
    const full = await outputs(args, true)
    expect(incremental).toEqual(full)
    expect(await outputs(args, false)).toEqual(full)
    return full
  }

  beforeAll(async () => {
    ;({ root } = await makeCheckWorkspace(120))
    git(root, 'init', '-q')
    git(root, 'add', '-A')
    git(root, 'commit', '-qm', 'start')
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it('--staged: the same output after edits, deletions, renames and manifest changes are staged', async () => {
    const [start] = await expectSameAsFullScan(['--staged'])
    expect(start).toContain('exit 1')
    expect(statSync(join(cacheFolder(), 'staged.bin')).size).toBeGreaterThan(1000)
    expect(readFileSync(join(cacheFolder(), '.gitignore'), 'utf8')).toBe('*\n')

    appendFileSync(join(root, 'src/module0/file0.ts'), '  console.log("staged")\n')
    git(root, 'add', 'src/module0/file0.ts')
    const [edited] = await expectSameAsFullScan(['--staged'])
    expect(edited).toContain('"file": "src/module0/file0.ts"')

    // Not staged: the check reads the index, not this.
    appendFileSync(join(root, 'src/module4/file4.ts'), '  debugger;\n')
    await expectSameAsFullScan(['--staged'])

    git(root, 'rm', '-q', 'README.md')
    const [deleted] = await expectSameAsFullScan(['--staged'])
    expect(deleted).toContain('no file matches the required glob \\"README.md\\"')

    git(root, 'mv', 'lib/module2/file2.ts', 'lib/module2/moved.ts')
    await expectSameAsFullScan(['--staged'])

    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
    delete manifest.dependencies.pg
    manifest.dependencies.mysql2 = '^3.0.0'
    writeFileSync(join(root, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
    git(root, 'add', 'package.json')
    const [manifestChanged] = await expectSameAsFullScan(['--staged'])
    expect(manifestChanged).toContain('"subject": "mysql2"')
  }, 300_000)

  it('the same output after constraints, waivers, the baseline and ignore rules change', async () => {
    // The working tree check: files written in the last two seconds are read, not trusted to their stat data.
    await new Promise((resolve) => setTimeout(resolve, 2100))
    await expectSameAsFullScan([])
    expect(statSync(join(cacheFolder(), 'tree-result.bin')).size).toBeGreaterThan(1000)

    const knowledge = join(root, 'knowledge/adr/adr-0008-bench.md')
    writeFileSync(knowledge, readFileSync(knowledge, 'utf8').replace('pattern: "http://"', 'pattern: "https?://"'))
    const [changedConstraint] = await expectSameAsFullScan([])
    expect(changedConstraint).toContain('"pattern": "https?://"')

    writeFileSync(
      join(root, 'knowledge/waivers.yaml'),
      'waivers:\n  - constraint: adr-0003-bench#2\n    paths: ["lib/**"]\n    reason: lodash stays in lib until the rewrite\n',
    )
    const [waived] = await expectSameAsFullScan([])
    expect(waived).toContain('lodash stays in lib until the rewrite')

    const rebuilt = await runMk(['knowledge', 'check', '--update-baseline'], { cwd: root, env: { MK_HOME: join(root, '..', 'home') } })
    expect(rebuilt.exitCode).toBe(0)
    const [baselined] = await expectSameAsFullScan(['--staged'])
    expect(baselined).toContain('"hidden"')

    writeFileSync(join(root, '.gitignore'), 'node_modules/\ndist/\nservices/\n')
    const [ignored] = await expectSameAsFullScan([])
    expect(ignored).not.toContain('services/')
  }, 300_000)

  it("stores only a mark from a tree's first check, its result from the next, and prints the same from each", async () => {
    rmSync(cacheFolder(), { recursive: true, force: true })
    const check = async (): Promise<string> => {
      const run = await runMk(['knowledge', 'check', '--format', 'json'], { cwd: root, env: { MK_HOME: join(root, '..', 'home') } })
      return `exit ${run.exitCode}\n${run.stdout}${run.stderr}`
    }
    const first = await check()
    expect(existsSync(join(cacheFolder(), 'tree-seen'))).toBe(true)
    expect(existsSync(join(cacheFolder(), 'tree-result.bin'))).toBe(false)
    expect(existsSync(join(cacheFolder(), 'tree.bin'))).toBe(false)
    // The caches trust stat data only of files older than two seconds.
    await new Promise((resolve) => setTimeout(resolve, 2100))
    expect(await check()).toBe(first)
    expect(statSync(join(cacheFolder(), 'tree-result.bin')).size).toBeGreaterThan(1000)
    expect(await check()).toBe(first)
  }, 300_000)

  it("keeps no file scans from a tree's first check, and keeps them once the rules change", async () => {
    const scans = join(cacheFolder(), 'tree.bin')
    rmSync(cacheFolder(), { recursive: true, force: true })
    await outputs([], false)
    expect(existsSync(join(cacheFolder(), 'tree-result.bin'))).toBe(true)
    expect(existsSync(scans)).toBe(false)

    const knowledge = join(root, 'knowledge/adr/adr-0005-bench.md')
    const before = readFileSync(knowledge, 'utf8')
    writeFileSync(knowledge, before.replace('pattern: "debugger;"', 'pattern: "debugger;?"'))
    try {
      await outputs([], false)
      expect(statSync(scans).size).toBeGreaterThan(1000)
    } finally {
      writeFileSync(knowledge, before)
    }
  }, 300_000)

  it('--staged: the same output as an evaluation of every file after each kind of change, each of which changes it', async () => {
    const hook = ['--staged']
    // What the tests before left: this one starts without a baseline, waivers or ignore rules.
    writeFileSync(join(root, '.gitignore'), 'node_modules/\ndist/\n')
    for (const file of ['.mk-baseline.json', 'knowledge/waivers.yaml', '.mkrc']) rmSync(join(root, file), { force: true })
    let previous = (await expectSameAsFullScan(hook))[0]
    /** The hook's output after a change: the same as evaluating everything, and not what it was (a run that missed the change would print that). */
    const expectChanged = async (args: readonly string[] = hook): Promise<string> => {
      const [now] = await expectSameAsFullScan(args)
      expect(now).not.toBe(previous)
      previous = now as string
      return previous
    }
    const stage = (path: string, content: string): void => {
      writeFileSync(join(root, path), content)
      git(root, 'add', path)
    }

    stage('src/module4/added.ts', "import m from 'moment'\nconsole.log(m)\n")
    expect(await expectChanged()).toContain('src/module4/added.ts')

    stage('src/module4/added.ts', "import m from 'moment'\nconsole.log(m) // mk-ignore adr-0005-bench#1 -- a fixture\n")
    expect(await expectChanged()).toContain('a fixture')
    stage('src/module4/added.ts', "import m from 'moment'\nconsole.log(m) // mk-ignore adr-0005-bench#1\n")
    expect(await expectChanged()).toContain('missing-reason')

    const knowledge = join(root, 'knowledge/adr/adr-0005-bench.md')
    writeFileSync(knowledge, readFileSync(knowledge, 'utf8').replace('pattern: "TODO|FIXME"', 'pattern: "TODO|FIXME|XXX"'))
    expect(await expectChanged()).toContain('TODO|FIXME|XXX')

    writeFileSync(
      join(root, 'knowledge/waivers.yaml'),
      'waivers:\n  - constraint: adr-0003-bench#2\n    paths: ["services/**"]\n    reason: services keep lodash\n',
    )
    expect(await expectChanged()).toContain('services keep lodash')
    writeFileSync(
      join(root, 'knowledge/waivers.yaml'),
      'waivers:\n  - constraint: adr-0003-bench#2\n    paths: ["nowhere/**"]\n    reason: services keep lodash\n',
    )
    expect(await expectChanged()).toContain('matched no violation')

    const rebuilt = await runMk(['knowledge', 'check', '--update-baseline'], { cwd: root, env: { MK_HOME: join(root, '..', 'home') } })
    expect(rebuilt.exitCode).toBe(0)
    expect(await expectChanged()).toContain('"hidden"')
    stage('src/module4/added.ts', "import m from 'moment'\nconsole.log(m)\nconsole.log(m, 2)\n")
    expect(await expectChanged()).toContain('console.log(m, 2)')
    const baselineFile = join(root, '.mk-baseline.json')
    const baseline = JSON.parse(readFileSync(baselineFile, 'utf8')) as { entries: { file: string }[] }
    baseline.entries = baseline.entries.filter((entry) => !entry.file.startsWith('lib/'))
    writeFileSync(baselineFile, `${JSON.stringify(baseline, null, 2)}\n`)
    expect(await expectChanged()).toContain('"file": "lib/')
    git(root, 'rm', '-q', '--cached', 'services/module13/file13.ts')
    expect(await expectChanged()).toMatch(/"fixed": [1-9]/)

    writeFileSync(join(root, '.mkrc'), 'check:\n  ignore: ["lib/**"]\n')
    expect(await expectChanged()).not.toContain('"file": "lib/')
    // The index, not .gitignore, says what is staged: the output stays as it was.
    writeFileSync(join(root, '.gitignore'), 'node_modules/\ndist/\nlib/\n')
    await expectSameAsFullScan(hook)

    writeFileSync(knowledge, readFileSync(knowledge, 'utf8').replace('severity: block', 'severity: info'))
    await expectChanged()
    expect(await expectChanged([...hook, '--min-severity', 'info'])).toContain('"severity": "info"')
    writeFileSync(knowledge, readFileSync(knowledge, 'utf8').replace('severity: info', 'severity: warn'))
    expect(await expectChanged()).toContain('exit 0')
    expect(await expectChanged([...hook, '--fail-on', 'warn'])).toContain('exit 1')
    expect(await expectChanged([...hook, '--fail-on', 'block'])).toContain('exit 0')
  }, 600_000)

  it('a truncated, damaged or foreign cache file is ignored and rebuilt', async () => {
    const [expected] = await outputs(['--staged'], true)
    // The scan cache is read only when the staged result is not usable.
    for (const [name, alsoRemove] of [
      ['staged.bin', 'staged-result.bin'],
      ['staged-result.bin', undefined],
      ['baseline.bin', undefined],
    ] as const) {
      const cacheFile = join(cacheFolder(), name)
      const damage = async (): Promise<void> => {
        if (alsoRemove !== undefined) rmSync(join(cacheFolder(), alsoRemove), { force: true })
        expect((await outputs(['--staged'], false))[0]).toBe(expected)
      }
      const size = statSync(cacheFile).size

      truncateSync(cacheFile, Math.floor(size / 2))
      await damage()
      expect(statSync(cacheFile).size).toBe(size)

      const bytes = readFileSync(cacheFile)
      bytes[size - 100] = (bytes[size - 100] as number) ^ 0xff
      writeFileSync(cacheFile, bytes)
      await damage()

      writeFileSync(cacheFile, 'this is not a cache')
      await damage()
      expect((await outputs(['--staged'], false))[0]).toBe(expected)
    }
  }, 300_000)

  it('processes racing to write the cache all print the full answer, and leave a cache the next run can use', async () => {
    rmSync(cacheFolder(), { recursive: true, force: true })
    const [expected] = await outputs(['--staged'], true)
    for (let round = 0; round < 3; round++) {
      if (round > 0) {
        appendFileSync(join(root, 'src/module8/file8.ts'), `  // round ${round}\n`)
        git(root, 'add', 'src/module8/file8.ts')
      }
      const [full] = await outputs(['--staged'], true)
      if (round === 0) expect(full).toBe(expected)
      const racing = await Promise.all(
        Array.from({ length: 4 }, () =>
          runMk(['knowledge', 'check', '--staged', '--format', 'json'], { cwd: root, env: { MK_HOME: join(root, '..', 'home') } }),
        ),
      )
      for (const run of racing) expect(`exit ${run.exitCode}\n${run.stdout}${run.stderr}`).toBe(full)
      expect((await outputs(['--staged'], false))[0]).toBe(full)
    }
  }, 300_000)
})
