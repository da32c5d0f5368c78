import type { ErrorObject } from '../errors.js'
import type { DispatchOutcome } from '../tools/dispatcher.js'
import type { Style } from '../style.js'

export interface Streams {
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
}

function writeLine(stream: NodeJS.WritableStream, text: string): void {
  stream.write(text.endsWith('\n') ? text : `${text}\n`)
}

export function renderError(error: ErrorObject, json: boolean, streams: Streams, style: Style): void {
  if (json) {
    writeLine(streams.stdout, JSON.stringify(error, null, 2))
    return
  }
  // One line for people: messages quoted from elsewhere (a JSON parser, git) may carry line breaks.
  const message = error.message.replace(/\s*\n\s*/g, ' ')
  writeLine(streams.stderr, `${style.red('Error')} ${style.dim(`[${error.errorCode}]`)} ${message}`)
  const hint = error.details?.hint
  if (typeof hint === 'string') writeLine(streams.stderr, `${style.dim('hint:')} ${hint}`)
}

/** Print a tool's outcome and return the process exit code (0 ok, 1 blocking findings, 2 error). */
export function renderOutcome(outcome: DispatchOutcome, json: boolean, streams: Streams, style: Style): 0 | 1 | 2 {
  if (!outcome.ok) {
    renderError(outcome.error, json, streams, style)
    return 2
  }
  if (json) {
    writeLine(streams.stdout, JSON.stringify(outcome.output, null, 2))
  } else {
    if (outcome.display !== '') writeLine(streams.stdout, outcome.display)
  }
  return outcome.exitCode
}
