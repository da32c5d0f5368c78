import type { ErrorObject } from '../../errors.js'
import type { DispatchOutcome } from '../../tools/dispatcher.js'
import { colourAllowed, resolveStyle, terminalStyle } from './style.js'
import { escapeTerminalControlsInJson, stripTerminalControls } from './terminal-controls.js'

/** Where the CLI writes, and the environment that decides whether it may colour. */
export interface Terminal {
  stdout: NodeJS.WriteStream
  stderr: NodeJS.WriteStream
  env: NodeJS.ProcessEnv
}

export function processTerminal(): Terminal {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env }
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`
}

/**
 * The one way text for people is written: control sequences in the text are
 * stripped (they can come from data), then mk's own styling (terminalStyle)
 * becomes colour where the stream allows it.
 */
export function writeText(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv, text: string): void {
  stream.write(withNewline(resolveStyle(stripTerminalControls(text), colourAllowed(stream, env))))
}

/** The one way JSON is written: lossless, with nothing in it a terminal would act on. */
export function writeJson(stream: NodeJS.WriteStream, value: unknown): void {
  stream.write(withNewline(escapeTerminalControlsInJson(JSON.stringify(value, null, 2))))
}

export function renderError(error: ErrorObject, json: boolean, terminal: Terminal): void {
  if (json) {
    writeJson(terminal.stdout, error)
    return
  }
  const style = terminalStyle
  // One line for people: messages quoted from elsewhere (a JSON parser, git) may carry line breaks.
  const message = error.message.replace(/\s*\n\s*/g, ' ')
  const hint = error.details?.hint
  writeText(
    terminal.stderr,
    terminal.env,
    `${style.red('Error')} ${style.dim(`[${error.errorCode}]`)} ${message}${typeof hint === 'string' ? `\n${style.dim('hint:')} ${hint}` : ''}`,
  )
}

/** A warning on stderr, as every command and fast path prints one. */
export function writeWarning(terminal: Terminal, message: string): void {
  writeText(terminal.stderr, terminal.env, `${terminalStyle.yellow('warning')} ${message}`)
}

/** Print a tool's outcome and return the process exit code (0 ok, 1 blocking findings, 2 error). */
export function renderOutcome(outcome: DispatchOutcome, json: boolean, terminal: Terminal): 0 | 1 | 2 {
  if (!outcome.ok) {
    renderError(outcome.error, json, terminal)
    return 2
  }
  if (json) writeJson(terminal.stdout, outcome.output)
  else if (outcome.display !== '') writeText(terminal.stdout, terminal.env, outcome.display)
  return outcome.exitCode
}
