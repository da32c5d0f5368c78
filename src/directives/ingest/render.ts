import { createHash } from 'node:crypto'
import { basename } from 'node:path'
import { stringify } from 'yaml'
import { outlineMarkdown } from '../../knowledge/markdown.js'
import { plainHeading } from '../../knowledge/parse/title.js'
import type { RuleFormat } from './formats.js'
import { readSourceFrontmatter } from './source-frontmatter.js'

/** One agent rule file as the mk rule item it becomes. */
export interface IngestedRule {
  id: string
  /** Workspace-relative posix path of the rule file it came from. */
  sourcePath: string
  format: RuleFormat
  title: string
  /** Path globs the file is scoped to (Cursor `globs`, Copilot `applyTo`); empty means everywhere. */
  appliesTo: string[]
  /** Headings in the body. */
  sections: number
  /** The text of the knowledge file. */
  content: string
}

const longestId = 80

/** The item id from the source path alone, so the same file always lands in the same item: `.cursor/rules/testing.mdc` -> `cursor-rules-testing`. */
export function ruleIdOf(sourcePath: string): string {
  const slug = sourcePath
    .replace(/\.(mdc|md)$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  const id = slug === '' ? 'rules' : slug
  if (id.length <= longestId) return id
  // Cut long paths but keep them apart: two paths sharing their first 70 characters get different ids.
  const digest = createHash('sha1').update(sourcePath).digest('hex').slice(0, 8)
  return `${id.slice(0, longestId - 9).replace(/-+$/, '')}-${digest}`
}

function trimBody(body: string): string {
  const trimmed = body
    .replace(/\r\n?/g, '\n')
    .replace(/^\s*\n/, '')
    .trimEnd()
  return trimmed === '' ? '' : `${trimmed}\n`
}

/** The mk knowledge file for one agent rule file: the body as written, its scope and origin in frontmatter. */
export function renderIngestedRule(sourcePath: string, format: RuleFormat, text: string): IngestedRule {
  const source = readSourceFrontmatter(text)
  const body = trimBody(source.body)
  const outline = outlineMarkdown(body, 1)
  const heading = outline.firstHeading === undefined ? '' : plainHeading(outline.firstHeading.text)
  const title = heading !== '' ? heading : (source.description ?? `Agent rules from ${basename(sourcePath)}`)
  const id = ruleIdOf(sourcePath)
  const appliesTo = [...new Set(source.globs)]
  const frontmatter = stringify(
    {
      id,
      type: 'rule',
      title,
      status: 'accepted',
      ...(source.description === undefined ? {} : { summary: source.description }),
      tags: ['ingested', format],
      ...(appliesTo.length === 0 ? {} : { applies_to: appliesTo }),
      ...(source.alwaysApply === undefined ? {} : { always_apply: source.alwaysApply }),
      source_path: sourcePath,
      ingested_from: format,
    },
    { lineWidth: 0 },
  )
  const notice = `# Written by mk rules ingest from ${sourcePath.replace(/[\r\n]/g, ' ')}: edit that file and ingest it again.`
  return {
    id,
    sourcePath,
    format,
    title,
    appliesTo,
    sections: outline.sections.filter((section) => section.headingPath.length > 0).length,
    content: `---\n${notice}\n${frontmatter}---\n${body}`,
  }
}
