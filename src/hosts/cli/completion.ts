/** What completion needs to know of one command. */
export interface CompletableCommand {
  /** The words after `mk`: `knowledge check`. */
  words: string
  /** Its flags, `--json` and `--cwd` included, each with whether it takes a value. */
  flags: { name: string; takesValue: boolean }[]
}

export const completionShells = ['bash'] as const
export type CompletionShell = (typeof completionShells)[number]

/** A single-quoted shell word. */
function quoted(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`
}

/** For every run of command words typed so far (`''`, `knowledge`), the words that may come next. */
function nextWordCases(commands: readonly CompletableCommand[]): string[] {
  const next = new Map<string, Set<string>>()
  for (const command of commands) {
    const words = command.words.split(' ')
    words.forEach((word, index) => {
      const typed = words.slice(0, index).join(' ')
      next.set(typed, (next.get(typed) ?? new Set()).add(word))
    })
  }
  return [...next].map(([typed, words]) => `    ${quoted(typed)}) next=${quoted([...words].join(' '))} ;;`)
}

/**
 * A bash completion script with every command and flag written
 * into it: completing a word never starts mk, so it costs no Node start-up however often the
 * shell asks. Words typed after a flag that takes a value are that value, not a command word.
 */
export function completionScript(commands: readonly CompletableCommand[]): string {
  const sorted = [...commands].sort((a, b) => a.words.localeCompare(b.words))
  const valueFlags = [...new Set(sorted.flatMap((command) => command.flags.filter((flag) => flag.takesValue).map((flag) => `--${flag.name}`)))].sort()
  const cases = sorted.map(
    (command) => `    ${quoted(command.words)}) flags=${quoted([...command.flags.map((flag) => `--${flag.name}`), '--help'].join(' '))} ;;`,
  )
  const bash = [
    '_mk_complete() {',
    '  local cur=${COMP_WORDS[COMP_CWORD]} typed="" word i',
    `  local value_flags=${quoted(` ${valueFlags.join(' ')} `)}`,
    '  for ((i = 1; i < COMP_CWORD; i++)); do',
    '    word=${COMP_WORDS[i]}',
    '    if [[ $word == -* ]]; then',
    '      [[ $word != *=* && $value_flags == *" $word "* ]] && ((i++))',
    '      continue',
    '    fi',
    '    typed+="${typed:+ }$word"',
    '  done',
    '  local flags=""',
    '  case "$typed" in',
    ...cases,
    '  esac',
    '  if [[ $cur == -* ]]; then',
    '    COMPREPLY=($(compgen -W "${flags:---help --version --json --cwd}" -- "$cur"))',
    '    return',
    '  fi',
    '  local next=""',
    '  case "$typed" in',
    ...nextWordCases(sorted),
    '  esac',
    '  if [[ -n $next ]]; then COMPREPLY=($(compgen -W "$next" -- "$cur")); fi',
    '}',
    'complete -o default -F _mk_complete mk',
  ]
  const header = ['# mk completion for bash. Load it from ~/.bashrc:', '#   eval "$(mk completion bash)"']
  return `${[...header, ...bash].join('\n')}\n`
}
