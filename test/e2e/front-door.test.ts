import { spawnSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mkBin, mkEnv, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

// Issue 26.8, the front door as users meet it: the short flags every CLI has, and colour as the
// environment asks for it (FORCE_COLOR, NO_COLOR, TERM=dumb).

let ws: TempWorkspace
const mk = (args: string[], env: Record<string, string | undefined> = {}) => runMk(args, { cwd: ws.root, env: { MK_HOME: ws.mkHome, ...env } })
const escape = '\u001b['

beforeEach(async () => {
  ws = await makeWorkspace({ '.mkrc': 'search:\n  embedding:\n    provider: none\n' })
})
afterEach(() => ws.cleanup())

describe('mk -h and mk -v', () => {
  it('mk -v prints the version as mk --version does', async () => {
    const { version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    const short = await mk(['-v'])
    expect(short.exitCode, short.stderr).toBe(0)
    expect(short.stdout).toContain(`mk-knowledge/${version}`)
    expect(short.stdout).toBe((await mk(['--version'])).stdout)
  })

  it('mk -h prints the help, as mk --help does, for mk and for a command', async () => {
    const short = await mk(['-h'])
    expect(short.exitCode, short.stderr).toBe(0)
    expect(short.stdout).toContain('COMMANDS')
    expect(short.stdout).toBe((await mk(['--help'])).stdout)
    const command = await mk(['knowledge', 'check', '-h'])
    expect(command.exitCode, command.stderr).toBe(0)
    expect(command.stdout).toContain('$ mk knowledge check')
    expect(command.stdout).toBe((await mk(['knowledge', 'check', '--help'])).stdout)
  })

  it('keeps -v and -h as text after --', async () => {
    const added = await mk(['memory', 'add', '--', '-h and -v are the short flags'])
    expect(added.exitCode, added.stderr).toBe(0)
    expect(added.stdout).toContain('Added mem_')
  })
})

describe('colour', () => {
  it('FORCE_COLOR colours output that goes to a pipe; FORCE_COLOR=0 and NO_COLOR keep it plain', async () => {
    const forced = await mk(['knowledge', 'show', 'nope'], { NO_COLOR: undefined, FORCE_COLOR: '1' })
    expect(forced.exitCode).toBe(2)
    expect(forced.stderr).toContain(`${escape}31mError`)
    for (const env of [{ FORCE_COLOR: '0' }, { NO_COLOR: '1' }, {}]) {
      const plain = await mk(['knowledge', 'show', 'nope'], { NO_COLOR: undefined, ...env })
      expect(plain.stderr, JSON.stringify(env)).toMatch(/^Error \[NOT_FOUND\]/)
      expect(plain.stderr).not.toContain(escape)
    }
  })

  // A terminal needs a pseudo-terminal: util-linux `script` gives one.
  const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0
  it.skipIf(!hasScript)('on a terminal, colours unless TERM=dumb', () => {
    const onTerminal = (term: string): string => {
      const env = mkEnv({ NO_COLOR: undefined, FORCE_COLOR: undefined, TERM: term, MK_HOME: ws.mkHome })
      const result = spawnSync('script', ['-qec', `"${process.execPath}" "${mkBin}" knowledge show nope`, '/dev/null'], { cwd: ws.root, env, encoding: 'utf8' })
      return result.stdout
    }
    expect(onTerminal('xterm-256color')).toContain(`${escape}31mError`)
    const dumb = onTerminal('dumb')
    expect(dumb).toContain('Error [NOT_FOUND]')
    expect(dumb).not.toContain(escape)
  })
})
