import type { BodyLine } from './body-lines.js'

/** `1. Title` (adr-tools), `ADR 001: Title`, `ADR-0042 - Title`, `Architecture Decision Record: Title`. */
const numberPrefix = /^(?:\d+\.\s+|adr[-_ ]?\d+\s*(?:[:.–—-]\s*|\s+)|adr\s*:\s*|(?:architecture\s+)?decision\s+record\s*:\s*)/i

/** Headings of the sections of an ADR, never its title (a file without an H1 starts with one of these). */
const sectionNames =
  /^(status|context|context and problem statement|decision|decision outcome|decision drivers|consequences|considered options|pros and cons of the options|links|more information|summary|background|problem|discussion|date)$/i

export interface HeadingTitle {
  title: string
  /** True for the adr-tools numbered form `# 12. Title`. */
  numbered: boolean
  line: number
}

/** Heading text as a person reads it: links become their text, emphasis marks go, inline code keeps its text. */
export function plainHeading(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/__([^_]+)__/g, '$1')
    .replace(/\*([^*]+)\*/g, '$1')
    .trim()
}

/** The title from the first H1 (else the first heading that is not a section name) outside code blocks, without its ADR number. */
export function headingTitle(lines: readonly BodyLine[]): HeadingTitle | undefined {
  const first =
    lines.find((line) => line.heading?.depth === 1) ??
    lines.find((line) => line.heading !== undefined && !sectionNames.test(plainHeading(line.heading.text).replace(/[\s:]+$/, '')))
  if (first?.heading === undefined) return undefined
  const text = plainHeading(first.heading.text)
  const title = text.replace(numberPrefix, '').trim()
  return { title: title === '' ? text : title, numbered: /^\d+\.\s/.test(text), line: first.line }
}
