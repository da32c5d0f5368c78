import { createHash } from 'node:crypto'
import { basename, posix } from 'node:path'
import { stringify } from 'yaml'
import { outlineMarkdown } from '../../knowledge/markdown.js'
import { plainHeading } from '../../knowledge/parse/title.js'
import type { RuleActivation } from '../../knowledge/model.js'
import type { RuleFormat } from './formats.js'
import { readSourceFrontmatter, type SourceFrontmatter } from './source-frontmatter.js'

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

/**
 * The folder a rules file governs: an AGENTS.md or CLAUDE.md its own folder, a `.cursor/rules`,
 * `.github` or `.clinerules` folder the folder that holds it. '' is the whole repository.
 */
export function governedFolder(sourcePath: string): string {
  const folder = posix.dirname(sourcePath)
  const holder = /^(.*?)\/?(?:\.cursor|\.github|\.clinerules|\.kilocode)(?:\/.*)?$/.exec(folder)
  const governed = holder === null ? folder : (holder[1] ?? '')
  return governed === '.' ? '' : governed
}

/** Cursor and Copilot globs are relative to the folder the rules live in, and a glob without a slash matches at any depth. */
function scopedGlobs(globs: readonly string[], folder: string): string[] {
  return globs.map((glob) => {
    const folderGlob = glob.endsWith('/') ? `${glob}**` : glob
    const anyDepth = folderGlob.includes('/') || folderGlob.startsWith('**') ? folderGlob : `**/${folderGlob}`
    return folder === '' ? anyDepth : `${folder}/${anyDepth.replace(/^\.?\//, '')}`
  })
}

/**
 * Cursor's rule types by its frontmatter: alwaysApply → always; globs → auto (attached when a
 * file matches); a description alone → requested (the agent asks for it when the task is about
 * that); none of them → manual. A Copilot instructions file with applyTo is attached by its globs.
 */
function activationOfSource(format: RuleFormat, sourcePath: string, source: SourceFrontmatter): RuleActivation | undefined {
  if (format === 'copilot') return source.globs.length > 0 ? 'auto' : undefined
  if (format !== 'cursor' || posix.basename(sourcePath) === '.cursorrules') return undefined
  if (source.alwaysApply === true) return 'always'
  if (source.globs.length > 0) return 'auto'
  return source.description === undefined ? 'manual' : 'requested'
}

/**
 * The mk knowledge file for one agent rule file: the body as written, its scope and origin in
 * frontmatter. A file in a subfolder (`web/AGENTS.md`) applies to that folder (`web/**`), and a
 * file read because a CLAUDE.md imports it applies where that CLAUDE.md does.
 */
export function renderIngestedRule(sourcePath: string, format: RuleFormat, text: string, importedBy?: string): IngestedRule {
  const source = readSourceFrontmatter(text)
  const body = trimBody(source.body)
  const outline = outlineMarkdown(body, 1)
  const heading = outline.firstHeading === undefined ? '' : plainHeading(outline.firstHeading.text)
  const title = heading !== '' ? heading : (source.description ?? `Agent rules from ${basename(sourcePath)}`)
  const id = ruleIdOf(sourcePath)
  const folder = governedFolder(importedBy ?? sourcePath)
  const globs = scopedGlobs(source.globs, folder)
  const appliesTo = [...new Set(globs.length === 0 && folder !== '' ? [`${folder}/**`] : globs)]
  const activation = activationOfSource(format, sourcePath, source)
  const frontmatter = stringify(
    {
      id,
      type: 'rule',
      title,
      status: 'accepted',
      ...(source.description === undefined ? {} : { summary: source.description }),
      tags: ['ingested', format],
      ...(appliesTo.length === 0 ? {} : { applies_to: appliesTo }),
      ...(activation === undefined ? {} : { activation }),
      source_path: sourcePath,
      ...(importedBy === undefined ? {} : { imported_by: importedBy }),
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
