import type { Heading, Root, RootContent } from 'mdast'
import { remark } from 'remark'
import type { Section } from './model.js'

export interface MarkdownOutline {
  /** First heading: depth and plain text. */
  firstHeading: { depth: number; text: string; line: number } | undefined
  sections: Section[]
}

function plainText(node: RootContent | Root): string {
  if ('value' in node && typeof node.value === 'string') return node.value
  if ('children' in node) return (node.children as RootContent[]).map(plainText).join(node.type === 'list' || node.type === 'root' ? '\n' : '')
  return ''
}

/** Headings and the text under each, with their heading path and file line. */
export function outlineMarkdown(body: string, bodyStartLine: number): MarkdownOutline {
  const tree = remark().parse(body)
  const sections: Section[] = []
  const stack: Heading[] = []
  let firstHeading: MarkdownOutline['firstHeading']
  let current: { headingPath: string[]; line: number; parts: string[] } = { headingPath: [], line: bodyStartLine, parts: [] }
  const flush = (): void => {
    const text = current.parts.join('\n').trim()
    if (text !== '' || current.headingPath.length > 0) sections.push({ headingPath: current.headingPath, line: current.line, text })
  }
  for (const node of tree.children) {
    const line = (node.position?.start.line ?? 1) + bodyStartLine - 1
    if (node.type === 'heading') {
      const text = plainText(node).trim()
      if (firstHeading === undefined) firstHeading = { depth: node.depth, text, line }
      flush()
      while (stack.length > 0 && (stack.at(-1)?.depth ?? 0) >= node.depth) stack.pop()
      stack.push(node)
      current = { headingPath: stack.map((heading) => plainText(heading).trim()), line, parts: [] }
    } else {
      current.parts.push(plainText(node))
    }
  }
  flush()
  return { firstHeading, sections }
}
