/** A body line with what the status and title readers need to know about it. */
export interface BodyLine {
  text: string
  /** File line (1-based). */
  line: number
  /** Inside a fenced code block or an HTML comment: never read for a status or title. */
  hidden: boolean
  heading: { depth: number; text: string } | undefined
}

const fence = /^ {0,3}(`{3,}|~{3,})/
const atxHeading = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/

/** Split a markdown body into lines, marking code blocks, HTML comments and ATX headings, without a markdown parser. */
export function scanBody(body: string, bodyStartLine: number): BodyLine[] {
  let openFence: string | undefined
  let inComment = false
  return body.split('\n').map((text, index) => {
    const line = bodyStartLine + index
    const fenceMatch = fence.exec(text)
    if (openFence !== undefined) {
      if (fenceMatch?.[1]?.startsWith(openFence)) openFence = undefined
      return { text, line, hidden: true, heading: undefined }
    }
    if (fenceMatch?.[1] !== undefined) {
      openFence = fenceMatch[1]
      return { text, line, hidden: true, heading: undefined }
    }
    if (inComment || text.trimStart().startsWith('<!--')) {
      inComment = !text.includes('-->')
      return { text, line, hidden: true, heading: undefined }
    }
    const heading = atxHeading.exec(text)
    return { text, line, hidden: false, heading: heading?.[1] === undefined ? undefined : { depth: heading[1].length, text: heading[2] ?? '' } }
  })
}
