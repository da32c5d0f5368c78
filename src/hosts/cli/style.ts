import { randomBytes } from 'node:crypto'
import { plainStyle, type Style } from '../../style.js'

// mk's own colours travel through display text as markers that carry a secret drawn
// for this process, so data can never forge one. The writer (render.ts) strips every
// control sequence from the text first and only then turns the markers into colour
// codes, or drops them: whatever data holds, only mk's styling reaches the terminal.
const secret = randomBytes(8).toString('hex')
const marker = (code: number): string => `\ue000${secret}${code}\ue001`
const markers = new RegExp(`\ue000${secret}(\\d+)\ue001`, 'g')

/** Like chalk: an inner style that closes the same attribute reopens the outer one, and each line is closed and reopened. */
function sgr(open: number, close: number): (text: string) => string {
  const opening = marker(open)
  const closing = marker(close)
  return (text) => `${opening}${text.replaceAll(closing, `${closing}${opening}`).replaceAll('\n', `${closing}\n${opening}`)}${closing}`
}

/** The style of every display mk prints for people; the writer decides per stream whether it becomes colour. */
export const terminalStyle: Style = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  red: sgr(31, 39),
  yellow: sgr(33, 39),
  green: sgr(32, 39),
  cyan: sgr(36, 39),
}

/**
 * Colour only for a person at a terminal that can show it, decided as Node decides for its own
 * output: FORCE_COLOR first (any value but 0 or false forces colour, in a pipe too; 0 or false
 * forbids it), then NO_COLOR (any non-empty value) and TERM=dumb forbid it.
 */
export function colourAllowed(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): boolean {
  const force = env.FORCE_COLOR
  if (force !== undefined) return force !== '0' && force !== 'false'
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== ''
  return !noColor && env.TERM !== 'dumb' && stream.isTTY === true
}

/**
 * The style a display for this stream is rendered with: plain when the stream
 * shows no colour, so that no markers are written into it only to be removed
 * (a large check's text is twice as large with them, and read three times).
 */
export function displayStyle(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): Style {
  return colourAllowed(stream, env) ? terminalStyle : plainStyle
}

/** Replace mk's style markers with ANSI colour codes, or remove them. */
export function resolveStyle(text: string, colour: boolean): string {
  return colour ? text.replace(markers, (_marker, code: string) => `\u001b[${code}m`) : text.replace(markers, '')
}
