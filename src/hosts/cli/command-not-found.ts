import type { Hook } from '@oclif/core/hooks'
import { MkError, toErrorObject } from '../../errors.js'
import { nearestIds } from '../../knowledge/suggest.js'
import { processTerminal, renderError } from './render.js'

/** An unknown command is an error like any other: one line, the nearest commands, exit 2. */
const hook: Hook.CommandNotFound = async function (options) {
  const typed = options.id.replaceAll(':', ' ')
  const known = options.config.commands.filter((command) => !command.hidden).map((command) => command.id.replaceAll(':', ' '))
  const suggestions = nearestIds(typed, known)
  const json = options.argv?.includes('--json') ?? false
  const error = new MkError(
    'NOT_FOUND',
    `no command "mk ${typed}"${suggestions.length > 0 ? `; did you mean ${suggestions.map((id) => `mk ${id}`).join(', ')}?` : ''}`,
    {
      details: { command: typed, suggestions, hint: 'mk --help lists every command' },
    },
  )
  renderError(toErrorObject(error), json, processTerminal())
  process.exit(2)
}

export default hook
