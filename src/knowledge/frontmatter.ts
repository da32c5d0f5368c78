import matter from 'gray-matter'
import { isMap, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml'

export interface Frontmatter {
  data: Record<string, unknown>
  /** File line (1-based) where a top-level key, or a path inside it, is written. */
  lineOf(path: readonly (string | number)[]): number
  /** File line where the body starts. */
  bodyStartLine: number
  body: string
  present: boolean
}

export class FrontmatterSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message)
  }
}

/** gray-matter hands the engine the text after the opening `---`, so its line 1 is the file's line 1. */
const frontmatterLineOffset = 0

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text
}

/**
 * Split and parse frontmatter with gray-matter, reading the YAML with `yaml` so
 * that every key keeps its position for error messages.
 */
export function parseFrontmatter(text: string): Frontmatter {
  let document: Document.Parsed | undefined
  const lineCounter = new LineCounter()
  const parsed = matter(text, {
    engines: {
      yaml: (source: string): object => {
        document = parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: true })
        const error = document.errors[0]
        if (error !== undefined) {
          const line = lineCounter.linePos(error.pos[0]).line + frontmatterLineOffset
          throw new FrontmatterSyntaxError(`malformed YAML frontmatter: ${firstLine(error.message)}`, line)
        }
        const value: unknown = document.toJS()
        if (value !== null && value !== undefined && (typeof value !== 'object' || Array.isArray(value))) {
          throw new FrontmatterSyntaxError('frontmatter must be a YAML mapping of keys to values', 2)
        }
        return (value ?? {}) as object
      },
    },
  })
  const body = parsed.content
  const bodyStartLine = text.slice(0, text.length - body.length).split('\n').length
  const parsedDocument = document
  return {
    data: parsed.data as Record<string, unknown>,
    body,
    bodyStartLine,
    present: parsedDocument !== undefined,
    lineOf(path) {
      if (parsedDocument === undefined) return 1
      let node: unknown = parsedDocument.contents
      let offset: number | undefined
      for (const key of path) {
        if (isMap(node)) {
          const pair = node.items.find((item) => (item.key as { value?: unknown } | null)?.value === key)
          if (pair === undefined) break
          offset = (pair.key as Node).range?.[0]
          node = pair.value
        } else if (isSeq(node) && typeof key === 'number') {
          const item = node.items[key] as Node | undefined
          if (item === undefined) break
          offset = item.range?.[0]
          node = item
        } else {
          break
        }
      }
      return offset === undefined ? 2 : lineCounter.linePos(offset).line + frontmatterLineOffset
    },
  }
}
