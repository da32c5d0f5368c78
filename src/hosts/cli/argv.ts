/** What the command line asks for, once rewritten into the form oclif parses. */
export type Invocation = { kind: 'command'; argv: string[] } | { kind: 'overview' }

/** The flags every command takes (MkCommand.baseFlags), with whether each takes a value. */
const globalFlags: Record<string, boolean> = { '--json': false, '--cwd': true }

/** How many arguments at the start of argv are global flags and their values. */
function leadingGlobals(argv: readonly string[]): number {
  let index = 0
  while (index < argv.length) {
    const argument = argv[index] ?? ''
    const name = argument.split('=')[0] ?? ''
    const takesValue = globalFlags[name]
    if (takesValue === undefined) break
    if (takesValue && !argument.includes('=')) {
      if (index + 1 >= argv.length) break
      index += 1
    }
    index += 1
  }
  return index
}

/**
 * Rewrite the command line people type into what oclif parses: oclif finds the
 * command only at the start of argv, so global flags typed before it
 * (`mk --cwd DIR knowledge list`) move after its words, and `mk help [COMMAND]`
 * becomes `mk [COMMAND] --help`. `mk --json` alone asks for the overview; other
 * global flags without a command show the help, as `mk` alone does.
 */
export function invocationOf(argv: readonly string[]): Invocation {
  const split = leadingGlobals(argv)
  const globals = argv.slice(0, split)
  let rest = argv.slice(split)
  if (rest[0] === 'help') rest = [...rest.slice(1), '--help']
  if (rest.length === 0) return globals.includes('--json') ? { kind: 'overview' } : { kind: 'command', argv: [] }
  // After the command's words and before its first flag (or `--`), so a global never lands between
  // a flag and its value; after `--version` or `--help` when no command is named, which oclif reads first.
  const firstFlag = rest.findIndex((argument) => argument.startsWith('-'))
  const at = firstFlag <= 0 ? rest.length : firstFlag
  return { kind: 'command', argv: [...rest.slice(0, at), ...globals, ...rest.slice(at)] }
}
