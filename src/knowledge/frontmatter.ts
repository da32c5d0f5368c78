import { createRequire } from 'node:module'
import matter from 'gray-matter'
import type { Document, LineCounter, Node } from 'yaml'

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

// `yaml` keeps source positions but costs ~60 ms to load and parse 50 files; it is
// only needed to point at a line, so it is required lazily, synchronously, on first use.
const require = createRequire(import.meta.url)
type YamlModule = typeof import('yaml')
let yamlModule: YamlModule | undefined
const loadYaml = (): YamlModule => (yamlModule ??= require('yaml') as YamlModule)

interface YamlException {
  name: string
  reason?: string
  mark?: { line: number }
}

function isYamlException(error: unknown): error is YamlException {
  return error instanceof Error && error.name === 'YAMLException'
}

/** gray-matter hands the YAML engine the text after the opening `---`, so its line 0 is the file's line 1. */
function locator(source: string): (path: readonly (string | number)[]) => number {
  let parsed: { document: Document.Parsed; lineCounter: LineCounter } | undefined
  return (path) => {
    if (parsed === undefined) {
      const yaml = loadYaml()
      const lineCounter = new yaml.LineCounter()
      parsed = { document: yaml.parseDocument(source, { lineCounter }), lineCounter }
    }
    const { isMap, isSeq } = loadYaml()
    let node: unknown = parsed.document.contents
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
    return offset === undefined ? 2 : parsed.lineCounter.linePos(offset).line
  }
}

/** More values than any real frontmatter holds; YAML aliases can make a few lines stand for billions. */
const maxExpandedValues = 100_000

/** Whether walking `data` as later code does (aliases expanded) visits more than `budget` values; stops at the budget. */
function expandsPast(data: unknown, budget: number): boolean {
  const pending: unknown[] = [data]
  let visited = 0
  while (pending.length > 0) {
    const value = pending.pop()
    if (++visited > budget) return true
    if (value === null || typeof value !== 'object') continue
    for (const child of Array.isArray(value) ? (value as unknown[]) : Object.values(value)) pending.push(child)
  }
  return false
}

/** Split and parse frontmatter with gray-matter; positions of keys are worked out only when asked for. */
export function parseFrontmatter(text: string): Frontmatter {
  let parsed: matter.GrayMatterFile<string>
  try {
    // Passing options bypasses gray-matter's content cache, which would share data objects between files.
    parsed = matter(text, {})
  } catch (error) {
    if (isYamlException(error)) {
      throw new FrontmatterSyntaxError(`malformed YAML frontmatter: ${error.reason ?? 'cannot parse'}`, (error.mark?.line ?? 0) + 1)
    }
    throw error
  }
  const data: unknown = parsed.data
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new FrontmatterSyntaxError('frontmatter must be a YAML mapping of keys to values', 2)
  }
  // Aliases need an anchor (&): only then can the parsed data share, and so multiply, its nodes.
  if ((parsed.matter ?? '').includes('&') && expandsPast(data, maxExpandedValues)) {
    throw new FrontmatterSyntaxError(`frontmatter expands to more than ${maxExpandedValues} values through YAML aliases (*name)`, 2)
  }
  const body = parsed.content
  const bodyStartLine = text.slice(0, text.length - body.length).split('\n').length
  const present = parsed.matter !== undefined && parsed.matter !== ''
  return { data: data as Record<string, unknown>, body, bodyStartLine, present, lineOf: present ? locator(parsed.matter) : () => 1 }
}
