import { spawnSync } from 'node:child_process'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { expectCleanError, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

// Issue 26.8: shell completion. The script holds every command and flag, so bash completes
// without starting mk; these tests load it into a real bash and ask it as the shell would.

let ws: TempWorkspace
beforeEach(async () => {
  ws = await makeWorkspace()
})
afterEach(() => ws.cleanup())

/** What bash offers for the words typed (the last one being completed). */
function complete(script: string, ...words: string[]): string[] {
  const program = [
    script,
    'COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()',
    // A stand-in for mk that fails, so a completion that started mk would be seen.
    'mk() { echo "mk was started" >&2; return 1; }',
    '_mk_complete',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n')
  const result = spawnSync('bash', ['-c', program, 'bash', 'mk', ...words], { encoding: 'utf8' })
  expect(result.status, result.stderr).toBe(0)
  expect(result.stderr).toBe('')
  return result.stdout.split('\n').filter((line) => line !== '')
}

describe('mk completion bash', () => {
  let script = ''
  beforeEach(async () => {
    const printed = await runMk(['completion', 'bash'], { cwd: ws.root, env: { MK_HOME: ws.mkHome } })
    expect(printed.exitCode, printed.stderr).toBe(0)
    script = printed.stdout
  })

  it('completes the first word, each topic and a command flag', () => {
    expect(complete(script, '')).toEqual(expect.arrayContaining(['knowledge', 'memory', 'init', 'completion']))
    expect(complete(script, 'know')).toEqual(['knowledge'])
    expect(complete(script, 'knowledge', '')).toEqual(['check', 'lint', 'list', 'new', 'query', 'show'])
    expect(complete(script, 'knowledge', 'check', '--fa')).toEqual(['--fail-on'])
    expect(complete(script, 'sync', '')).toEqual(['status'])
  })

  it('skips global flags and their values before the command', () => {
    expect(complete(script, '--cwd', '/tmp', 'mem')).toEqual(['memory'])
    expect(complete(script, '--json', 'memory', 'se')).toEqual(['search'])
  })

  it('offers every flag the command has, as its --help lists them', () => {
    const offered = complete(script, 'memory', 'search', '--')
    for (const flag of ['--json', '--cwd', '--layer', '--tag', '--limit', '--threshold', '--help']) expect(offered).toContain(flag)
  })

  it('refuses a shell it has no script for', async () => {
    const refused = await runMk(['completion', 'fish'], { cwd: ws.root, env: { MK_HOME: ws.mkHome } })
    expect(expectCleanError(refused)).toContain('fish')
  })
})
