import { spawn, spawnSync } from 'node:child_process'
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { expectCleanError, mkBin, parseJson, runMk, type MkRun } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

// The command line as people type it (issue 11, "The command line as people type it").

const adr = (title: string): string => `---\ntitle: ${title}\nstatus: accepted\ntype: adr\n---\n\n# ${title}\n\nWe decided.\n`

let ws: TempWorkspace
let mk: (args: string[], cwd?: string) => Promise<MkRun>

beforeEach(async () => {
  ws = await makeWorkspace({
    '.mkrc': 'search:\n  embedding:\n    provider: none\n',
    'knowledge/adr/adr-0001-use-postgresql.md': adr('Use PostgreSQL'),
    'knowledge/adr/adr-0002-use-kafka.md': adr('Use Kafka'),
    'knowledge/adr/adr-00021-kafka-topics.md': adr('Kafka topic names'),
    'knowledge/adr/adr-0030-queues.md': adr('Queues'),
  })
  mk = (args, cwd = ws.root) => runMk(args, { cwd, env: { MK_HOME: ws.mkHome, MK_AGENT_ID: undefined, MK_SESSION_ID: undefined } })
})
afterEach(() => ws.cleanup())

interface Memory {
  content: string
  tags: string[]
}

async function onlyMemory(): Promise<Memory> {
  const listed = parseJson<{ memories: Memory[] }>(await mk(['memory', 'list', '--json']))
  expect(listed.memories).toHaveLength(1)
  return listed.memories[0] as Memory
}

describe('flags and arguments in any order', () => {
  it('takes a repeatable flag before the content: mk memory add --tag db "..."', async () => {
    const added = await mk(['memory', 'add', '--tag', 'db', '--tag', 'infra', 'We store everything in Postgres'])
    expect(added.exitCode, added.stderr).toBe(0)
    expect(await onlyMemory()).toMatchObject({ content: 'We store everything in Postgres', tags: ['db', 'infra'] })
    const found = await mk(['memory', 'search', '--tag', 'db', 'postgres', '--json'])
    expect(found.exitCode, found.stderr).toBe(0)
    expect(parseJson<{ results: unknown[] }>(found).results).toHaveLength(1)
    const queried = await mk(['knowledge', 'query', '--type', 'adr', 'kafka', '--json'])
    expect(queried.exitCode, queried.stderr).toBe(0)
  })

  it('takes content starting with "-" after --, also behind flags', async () => {
    const added = await mk(['memory', 'add', '--tag', 'cli', '--', '-v means verbose'])
    expect(added.exitCode, added.stderr).toBe(0)
    expect(await onlyMemory()).toMatchObject({ content: '-v means verbose', tags: ['cli'] })
  })

  it('takes global flags before the command: mk --cwd DIR knowledge list, mk --json --cwd=DIR ...', async () => {
    const elsewhere = dirname(ws.root)
    const listed = await mk(['--cwd', ws.root, 'knowledge', 'list'], elsewhere)
    expect(listed.exitCode, listed.stderr).toBe(0)
    expect(listed.stdout).toContain('adr-0002-use-kafka')
    const json = await mk(['--json', `--cwd=${ws.root}`, 'knowledge', 'list', '--type', 'adr'], elsewhere)
    expect(json.exitCode, json.stderr).toBe(0)
    expect(parseJson<{ items: unknown[] }>(json).items).toHaveLength(4)
    const added = await mk(['--json', '--cwd', ws.root, 'memory', 'add', '--', '-x is a flag'], elsewhere)
    expect(added.exitCode, added.stderr).toBe(0)
    expect(await onlyMemory()).toMatchObject({ content: '-x is a flag' })
  })
})

describe('help and overview', () => {
  it('mk help shows the help, mk help memory add that of the command', async () => {
    const help = await mk(['help'])
    expect(help.exitCode, help.stderr).toBe(0)
    expect(help.stdout).toContain('TOPICS')
    expect(help.stdout).toContain('memory')
    const command = await mk(['help', 'memory', 'add'])
    expect(command.exitCode, command.stderr).toBe(0)
    expect(command.stdout).toContain('$ mk memory add CONTENT')
  })

  it('mk --json alone prints the version and the commands as JSON', async () => {
    const run = await mk(['--json'])
    expect(run.exitCode, run.stderr).toBe(0)
    const overview = parseJson<{ name: string; version: string; commands: { command: string; summary: string }[] }>(run)
    expect(overview).toMatchObject({ name: 'mk', version: expect.stringMatching(/^\d+\.\d+\.\d+/) })
    expect(overview.commands).toContainEqual({ command: 'mk memory add', summary: 'Add a memory' })
  })
})

describe('mk knowledge show with a prefix of an id', () => {
  it('finds the one item the prefix stands for', async () => {
    const shown = await mk(['knowledge', 'show', 'adr-0001', '--json'])
    expect(shown.exitCode, shown.stderr).toBe(0)
    expect(parseJson<{ id: string }>(shown).id).toBe('adr-0001-use-postgresql')
    // adr-00021-kafka-topics starts with adr-0002 too, but not at a word boundary.
    expect(parseJson<{ id: string }>(await mk(['knowledge', 'show', 'adr-0002', '--json'])).id).toBe('adr-0002-use-kafka')
  })

  it('refuses an ambiguous prefix, listing the candidates', async () => {
    const run = await mk(['knowledge', 'show', 'adr-00', '--json'])
    expect(run.exitCode).toBe(2)
    const error = parseJson<{ errorCode: string; message: string; details: { candidates: string[] } }>(run)
    expect(error.errorCode).toBe('INVALID_INPUT')
    expect(error.details.candidates).toEqual(['adr-0001-use-postgresql', 'adr-0002-use-kafka', 'adr-00021-kafka-topics', 'adr-0030-queues'])
    expect(expectCleanError(await mk(['knowledge', 'show', 'adr-00']))).toContain('adr-0030-queues')
  })
})

describe('memory add checks what it can', () => {
  it('refuses --expires in the past, naming the field', async () => {
    const run = await mk(['memory', 'add', 'short-lived', '--expires', '2020-01-01', '--json'])
    expect(run.exitCode).toBe(2)
    const error = parseJson<{ errorCode: string; message: string }>(run)
    expect(error.errorCode).toBe('INVALID_INPUT')
    expect(error.message).toMatch(/expires.*future/)
    expect((await mk(['memory', 'add', 'long-lived', '--expires', '2999-01-01'])).exitCode).toBe(0)
  })

  it('stores a memory whose --ref names nothing yet, with a warning for each such ref', async () => {
    await ws.write('src/db.ts', 'export {}\n')
    const run = await mk([
      'memory',
      'add',
      'Kafka topics are per team',
      '--ref',
      'adr-0002-use-kafka',
      '--ref',
      'src/db.ts',
      '--ref',
      'adr-0099-nothing',
      '--ref',
      'src/gone.ts',
    ])
    expect(run.exitCode, run.stderr).toBe(0)
    expect(run.stderr).toContain('ref adr-0099-nothing names no knowledge item')
    expect(run.stderr).toContain('ref src/gone.ts names no file in the workspace')
    expect(run.stderr).not.toContain('adr-0002-use-kafka')
    expect(run.stderr).not.toContain('src/db.ts')
  })
})

describe('a launcher or hook that cannot find mk', () => {
  it('bin/run.js before a build says to run the build, exit 2, no stack', async () => {
    const unbuilt = join(ws.root, 'unbuilt')
    await mkdir(join(unbuilt, 'bin'), { recursive: true })
    await copyFile(mkBin, join(unbuilt, 'bin', 'run.js'))
    await copyFile(join(dirname(mkBin), 'package.json'), join(unbuilt, 'bin', 'package.json'))
    await writeFile(join(unbuilt, 'package.json'), JSON.stringify({ name: 'mk', type: 'module' }))
    const run = (args: string[]) =>
      new Promise<MkRun>((resolve) => {
        const child = spawn(process.execPath, [join(unbuilt, 'bin', 'run.js'), ...args], { cwd: ws.root })
        let stdout = ''
        let stderr = ''
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
        child.on('close', (code) => resolve({ stdout, stderr, exitCode: code ?? -1 }))
      })
    const text = await run(['knowledge', 'list'])
    expect(expectCleanError(text)).toContain('npm run build')
    const json = await run(['knowledge', 'list', '--json'])
    expect(json.exitCode).toBe(2)
    expect(parseJson(json)).toMatchObject({ success: false, errorCode: 'INTERNAL_ERROR' })
  })

  it('a hook whose mk moved says how to reinstall it instead of exit 127', async () => {
    const git = (args: string[]) =>
      spawnSync('git', args, {
        cwd: ws.root,
        encoding: 'utf8',
        // Only system folders on PATH: no mk there, as on a machine where mk was moved or uninstalled.
        env: {
          PATH: '/usr/bin:/bin',
          HOME: ws.mkHome,
          GIT_CONFIG_GLOBAL: '/dev/null',
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_AUTHOR_NAME: 'T',
          GIT_AUTHOR_EMAIL: 't@example.com',
          GIT_COMMITTER_NAME: 'T',
          GIT_COMMITTER_EMAIL: 't@example.com',
        },
      })
    expect(git(['init', '-q', '-b', 'main']).status).toBe(0)
    expect((await mk(['hook', 'install'])).exitCode).toBe(0)
    const hook = join(ws.root, '.git', 'hooks', 'pre-commit')
    const script = await readFile(hook, 'utf8')
    // Moving the mk that installed the hook leaves the hook pointing at a launcher that is gone.
    await writeFile(hook, script.replace(/^mk_launcher=.*$/m, "mk_launcher='/nowhere/mk/bin/run.js'"))
    await ws.write('notes.txt', 'hello\n')
    expect(git(['add', 'notes.txt']).status).toBe(0)
    const direct = spawnSync('sh', [hook], { cwd: ws.root, encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } })
    expect(direct.status).toBe(2)
    expect(direct.stderr).not.toMatch(/mk: not found/)
    const commit = git(['commit', '-m', 'add notes'])
    expect(commit.status).not.toBe(0)
    expect(commit.stderr).toContain('reinstall the hook with mk hook install')
  })
})
