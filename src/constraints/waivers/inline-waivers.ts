import type { WaiverRef } from '../model.js'
import type { SourceText } from '../scan/source-text.js'

/** An exception to a constraint: inline in a comment, or an entry of the waivers file. */
export interface Waiver extends WaiverRef {
  constraintIds: string[]
  /** Globs of the files it covers (file waivers); empty means every file. */
  paths: string[]
  /** Inline waivers cover their own line and the next one. */
  coversLine: number | undefined
}

const commentMarkers = ['//', '#', '/*', '*', '<!--', '--', ';', '%']
const constraintIdShape = /^[\w.#/@:-]+$/
const directive = 'mk-ignore'

/**
 * `mk-ignore <constraint-id>[,<id>...] -- <reason>` written in a comment; it
 * covers its own line and the line below. Parsed by hand, not by a regular
 * expression, because it runs over every line that mentions the directive.
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

/** The waiver written on one line, if the line holds a well-formed directive in a comment. */
function inlineWaiver(source: SourceText, lineText: string, lineNumber: number): Waiver | undefined {
  const at = lineText.indexOf(directive)
  if (at === -1) return undefined
  const before = lineText.slice(0, at)
  if (!commentMarkers.some((marker) => before.includes(marker))) return undefined
  let rest = lineText.slice(at + directive.length)
  if (!/^[ \t]/.test(rest)) return undefined
  for (const closer of ['*/', '-->']) {
    const end = rest.indexOf(closer)
    if (end !== -1) rest = rest.slice(0, end)
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
    coversLine: lineNumber,
    reason,
    owner: undefined,
    expires: undefined,
  }
}
