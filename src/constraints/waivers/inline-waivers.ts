import type { WaiverRef } from '../model.js'
import type { SourceText } from '../scan/source-text.js'

/** An exception to a constraint: inline in a comment, or an entry of the waivers file. */
export interface Waiver extends WaiverRef {
  constraintIds: string[]
  /** Globs of the files it covers (file waivers); empty means every file. */
  paths: string[]
  /** The one line an inline waiver covers: its own when code shares it, else the next (inline-waivers.ts). */
  coversLine: number | undefined
}

const commentMarkers = ['//', '#', '/*', '*', '<!--', '--', ';', '%']
const constraintIdShape = /^[\w.#/@:-]+$/
const directive = 'mk-ignore'
const nextLineSuffix = '-next-line'

/**
 * `mk-ignore <constraint-id>[,<id>...] -- <reason>` written in a comment. Like
 * ESLint's eslint-disable-line and eslint-disable-next-line, a waiver covers one
 * line: a comment that shares its line with code covers that line; a comment
 * alone on its line covers the next one; `mk-ignore-next-line` always covers the
 * next one. Parsed by hand, not by a regular expression, because it runs over
 * every line that mentions the directive.
 */
export function findInlineWaivers(source: SourceText): Waiver[] {
  if (!source.text.includes(directive)) return []
  const waivers: Waiver[] = []
  const { text } = source
  // Only the lines that mention the directive are cut out of the text; the file is not split.
  for (let found = text.indexOf(directive); found !== -1;) {
    const { line } = source.position(found)
    const waiver = inlineWaiver(source, source.line(line), line)
    if (waiver !== undefined) waivers.push(waiver)
    const newline = text.indexOf('\n', found)
    found = newline === -1 ? -1 : text.indexOf(directive, newline)
  }
  return waivers
}

/** Whether the waiver's comment shares its line with code: text before the comment's marker, or after its closer other than another comment. */
function sharesLineWithCode(before: string, after: string): boolean {
  const marker = Math.min(...commentMarkers.map((candidate) => before.indexOf(candidate)).filter((index) => index !== -1))
  const trailing = after.trim()
  return before.slice(0, marker).trim() !== '' || (trailing !== '' && !commentMarkers.some((candidate) => trailing.startsWith(candidate)))
}

/** The waiver written on one line, if the line holds a well-formed directive in a comment. */
function inlineWaiver(source: SourceText, lineText: string, lineNumber: number): Waiver | undefined {
  const at = lineText.indexOf(directive)
  if (at === -1) return undefined
  const before = lineText.slice(0, at)
  if (!commentMarkers.some((marker) => before.includes(marker))) return undefined
  let rest = lineText.slice(at + directive.length)
  const nextLine = rest.startsWith(nextLineSuffix)
  if (nextLine) rest = rest.slice(nextLineSuffix.length)
  if (!/^[ \t]/.test(rest)) return undefined
  let after = ''
  for (const closer of ['*/', '-->']) {
    const end = rest.indexOf(closer)
    if (end !== -1) {
      after = rest.slice(end + closer.length)
      rest = rest.slice(0, end)
    }
  }
  const separator = rest.search(/[ \t]--(?:[ \t]|$)/)
  const idsText = separator === -1 ? rest : rest.slice(0, separator)
  const reason = separator === -1 ? '' : rest.slice(separator + 3).trim()
  const constraintIds = idsText.split(/[\s,]+/).filter((id) => id !== '')
  // Text that talks about the syntax (`mk-ignore <id> -- <reason>`) is not a waiver.
  if (constraintIds.length === 0 || !constraintIds.every((id) => constraintIdShape.test(id))) return undefined
  return {
    source: 'inline',
    file: source.path,
    line: lineNumber,
    constraintIds,
    paths: [],
    coversLine: !nextLine && sharesLineWithCode(before, after) ? lineNumber : lineNumber + 1,
    reason,
    owner: undefined,
    expires: undefined,
  }
}
