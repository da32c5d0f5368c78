import { describe, expect, it } from 'vitest'
import { invocationOf } from '../../../src/hosts/cli/argv.js'

describe('invocationOf: the command line as people type it', () => {
  it.each([
    [
      ['--cwd', 'dir', 'knowledge', 'list'],
      ['knowledge', 'list', '--cwd', 'dir'],
    ],
    [
      ['--json', '--cwd=dir', 'memory', 'add', 'text'],
      ['memory', 'add', 'text', '--json', '--cwd=dir'],
    ],
    // Never between a flag and its value, never after `--`.
    [
      ['--json', 'memory', 'add', '--tag', 'db', '--', '-v'],
      ['memory', 'add', '--json', '--tag', 'db', '--', '-v'],
    ],
    [
      ['--json', 'knowledge', 'check', '--files', 'a', 'b'],
      ['knowledge', 'check', '--json', '--files', 'a', 'b'],
    ],
    [['help'], ['--help']],
    [
      ['help', 'memory', 'add'],
      ['memory', 'add', '--help'],
    ],
    [
      ['--json', '--version'],
      ['--version', '--json'],
    ],
    [
      ['memory', 'list', '--json'],
      ['memory', 'list', '--json'],
    ],
    // A --cwd without its value is left for oclif to report.
    [['--cwd'], ['--cwd']],
    [
      ['--json', '--cwd'],
      ['--cwd', '--json'],
    ],
    // Global flags without a command: the help, as for `mk` alone.
    [['--cwd', 'dir'], []],
  ])('%j runs as %j', (argv, expected) => {
    expect(invocationOf(argv)).toEqual({ kind: 'command', argv: expected })
  })

  it('asks for the overview when --json (and maybe --cwd) is all there is', () => {
    expect(invocationOf(['--json'])).toEqual({ kind: 'overview' })
    expect(invocationOf(['--cwd', 'dir', '--json'])).toEqual({ kind: 'overview' })
  })
})
