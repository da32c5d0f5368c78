import { spawnSync } from 'node:child_process'
import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeCheckWorkspace } from '../../scripts/bench/check-workspace.js'
import { mkBin, runMk } from '../helpers/mk.js'

const formats = ['json', 'text', 'sarif'] as const

/** Files changed within two seconds are read whatever their stat data says (ADR 0017): waiting past that makes the stored identities count. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 2100))

/**
 * Issue 18 (ADR 0023): a working-tree check answered from the last one's
 * stored result and the files that changed since prints exactly what a check
 * that evaluates every file prints, in every format, after every kind of change.
 */
describe('knowledge check of the working tree from its stored result', () => {
  let root: string
  const cacheFolder = (): string => join(root, '.mk', 'cache', 'check')

  async function outputs(args: readonly string[]): Promise<string[]> {
    const printed: string[] = []
    for (const format of formats) {
      const run = await runMk(['knowledge', 'check', ...args, '--format', format], { cwd: root, env: { MK_HOME: join(root, '..', 'home') } })
      printed.push(`exit ${run.exitCode}\n${run.stdout}${run.stderr}`)
    }
    return printed
  }

  /** From the stored result, then with no cache at all: the same. */
  async function expectSameAsFullEvaluation(args: readonly string[] = []): Promise<string> {
    const incremental = await outputs(args)
    rmSync(cacheFolder(), { recursive: true, force: true })
    const full = await outputs(args)
    expect(incremental).toEqual(full)
    return full[0] as string
  }

  beforeAll(async () => {
    ;({ root } = await makeCheckWorkspace(150))
    spawnSync('git', ['init', '-q'], { cwd: root })
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it('the same output as an evaluation of every file after each kind of change, each of which changes it', async () => {
    let previous = await expectSameAsFullEvaluation()
    await outputs([])
    expect(statSync(join(cacheFolder(), 'tree-result.bin')).size).toBeGreaterThan(1000)
    /** The output after a change, from a stored result written before it: the same as evaluating everything, and not what it was. */
    const expectChanged = async (change: () => void, args: readonly string[] = []): Promise<string> => {
      await settle()
      await outputs(args)
      change()
      const now = await expectSameAsFullEvaluation(args)
      expect(now).not.toBe(previous)
      previous = now
      return now
    }

    expect(await expectChanged(() => appendFileSync(join(root, 'src/module0/file0.ts'), '  debugger;\n'))).toContain('debugger;')
    expect(await expectChanged(() => writeFileSync(join(root, 'src/module4/added.ts'), "import m from 'moment'\nconsole.log(m)\n"))).toContain(
      'src/module4/added.ts',
    )
    expect(await expectChanged(() => rmSync(join(root, 'src/module4/added.ts')))).not.toContain('src/module4/added.ts')
    expect(await expectChanged(() => renameSync(join(root, 'lib/module2/file2.ts'), join(root, 'lib/module2/moved.ts')))).toContain('lib/module2/moved.ts')
    expect(await expectChanged(() => rmSync(join(root, 'README.md')))).toContain('no file matches the required glob \\"README.md\\"')
    expect(await expectChanged(() => writeFileSync(join(root, 'README.md'), '# back\n'))).not.toContain('README.md\\"')
    expect(
      await expectChanged(() => {
        const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
        manifest.dependencies.mysql2 = '^3.0.0'
        writeFileSync(join(root, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
      }),
    ).toContain('"subject": "mysql2"')
    await expectChanged(() => {
      mkdirSync(join(root, 'links'))
      symlinkSync(join(root, 'src/module0/file0.ts'), join(root, 'links/file0.ts'))
    })
    await expectChanged(() => appendFileSync(join(root, 'src/module4/file4.ts'), '// mk-ignore adr-0005-bench#1\n'))
    await expectChanged(() => writeFileSync(join(root, '.gitignore'), 'node_modules/\ndist/\nservices/\n'))

    const knowledge = join(root, 'knowledge/adr/adr-0005-bench.md')
    expect(
      await expectChanged(() => writeFileSync(knowledge, readFileSync(knowledge, 'utf8').replace('pattern: "TODO|FIXME"', 'pattern: "TODO|FIXME|XXX"'))),
    ).toContain('TODO|FIXME|XXX')
    expect(
      await expectChanged(() =>
        writeFileSync(
          join(root, 'knowledge/waivers.yaml'),
          'waivers:\n  - constraint: adr-0003-bench#2\n    paths: ["lib/**"]\n    reason: lib keeps lodash\n',
        ),
      ),
    ).toContain('lib keeps lodash')
    const baselined = await expectChanged(() => {
      const run = spawnSync(process.execPath, [mkBin, 'knowledge', 'check', '--update-baseline'], { cwd: root, encoding: 'utf8' })
      expect(run.status).toBe(0)
    })
    expect(baselined).toContain('"hidden"')
    expect(await expectChanged(() => appendFileSync(join(root, 'src/module8/file8.ts'), '  console.log("new")\n'))).toContain('console.log(\\"new\\")')
    expect(await expectChanged(() => writeFileSync(join(root, '.mkrc'), 'check:\n  ignore: ["lib/**"]\n'))).not.toContain('"file": "lib/')
    // Applied to the stored result's findings, not part of what it is stored for.
    await expectSameAsFullEvaluation(['--min-severity', 'info'])
    await expectSameAsFullEvaluation(['--fail-on', 'warn'])
  }, 600_000)

  it('a baseline behind a symbolic link: a change to the file it points to is seen', async () => {
    rmSync(join(root, '.mkrc'), { force: true })
    const rebuilt = spawnSync(process.execPath, [mkBin, 'knowledge', 'check', '--update-baseline'], { cwd: root, encoding: 'utf8' })
    expect(rebuilt.status).toBe(0)
    mkdirSync(join(root, 'baselines'), { recursive: true })
    renameSync(join(root, '.mk-baseline.json'), join(root, 'baselines/real.json'))
    symlinkSync('baselines/real.json', join(root, '.mk-baseline.json'))
    await settle()
    expect((await outputs([]))[0]).toContain('exit 0')
    writeFileSync(join(root, 'baselines/real.json'), '{"version":2,"entries":[]}\n')
    const now = await expectSameAsFullEvaluation()
    expect(now).toContain('exit 1')
  }, 300_000)

  it('a damaged or foreign stored result is ignored and rewritten', async () => {
    const expected = await expectSameAsFullEvaluation()
    await outputs([])
    const file = join(cacheFolder(), 'tree-result.bin')
    const size = statSync(file).size
    const bytes = readFileSync(file)
    bytes[size - 50] = (bytes[size - 50] as number) ^ 0xff
    writeFileSync(file, bytes)
    expect((await outputs([]))[0]).toBe(expected)
    expect(statSync(file).size).toBe(size)
    writeFileSync(file, 'not a result')
    expect((await outputs([]))[0]).toBe(expected)
    expect(statSync(file).size).toBe(size)
  }, 300_000)
})
