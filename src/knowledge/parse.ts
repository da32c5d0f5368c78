import { basename, extname } from 'node:path'
import type { KnowledgeLayer } from '../config/layers.js'
import { knowledgeLayers } from '../config/layers.js'
import { FrontmatterSyntaxError, parseFrontmatter, type Frontmatter } from './frontmatter.js'
import type { MarkdownOutline } from './markdown.js'
import {
  constraintOperators,
  constraintTargets,
  knowledgeStatuses,
  knowledgeTypes,
  operatorsByTarget,
  severities,
  type Constraint,
  type KnowledgeFormat,
  type KnowledgeItem,
  type KnowledgeProblem,
  type KnowledgeStatus,
  type KnowledgeType,
  type Severity,
} from './model.js'
import { patternError } from './pattern.js'

export interface KnowledgeFile {
  /** Workspace-relative posix path. */
  path: string
  absolutePath: string
  source: string
  layer: KnowledgeLayer
  text: string
}

export interface ParsedKnowledge {
  item: KnowledgeItem | undefined
  problems: KnowledgeProblem[]
}

const adrToolsHeading = /^(\d+)\.\s+(.+)$/
const statusLine = /^[ \t]*(?:[-*][ \t]+)?status:[ \t]*(.+)$/im
const dateLine = /^[ \t]*(?:[-*][ \t]+)?date:[ \t]*(\d{4}-\d{2}-\d{2})/im
const relationLink = /(superseded by|supersedes)\s*:?\s*\[[^\]]*\]\(([^)\s]+)\)/gi

const typeByFolder: Readonly<Record<string, KnowledgeType>> = {
  adr: 'adr', adrs: 'adr', decisions: 'adr', decision: 'adr',
  policy: 'policy', policies: 'policy',
  pattern: 'pattern', patterns: 'pattern',
  spec: 'spec', specs: 'spec',
  rule: 'rule', rules: 'rule',
}

function stemOf(path: string): string {
  return basename(path, extname(path))
}

function asStringList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return []
  if (typeof value === 'string') return value.split(',').map((part) => part.trim()).filter((part) => part !== '')
  if (Array.isArray(value) && value.every((entry) => typeof entry === 'string' || typeof entry === 'number')) return value.map(String)
  return undefined
}

function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (values as readonly string[]).includes(value)
}

function linkTargetId(target: string): string {
  const file = target.split('#')[0] ?? target
  return stemOf(file)
}

class ProblemList {
  readonly problems: KnowledgeProblem[] = []
  constructor(private readonly file: string) {}
  error(line: number, code: string, message: string): void {
    this.problems.push({ file: this.file, line, code, message, severity: 'error' })
  }
  warning(line: number, code: string, message: string): void {
    this.problems.push({ file: this.file, line, code, message, severity: 'warning' })
  }
}

function inferType(path: string, format: KnowledgeFormat): KnowledgeType {
  if (format !== 'mk') return 'adr'
  const folders = path.split('/').slice(0, -1).reverse()
  for (const folder of folders) {
    const type = typeByFolder[folder.toLowerCase()]
    if (type !== undefined) return type
  }
  return /^\d+[-_]/.test(stemOf(path)) ? 'adr' : 'policy'
}

interface StatusText {
  word: string
  raw: string
  /** Where the status is written; a function because locating frontmatter keys is only worth it for messages. */
  line: () => number
}

/** MADR 2 writes `* Status: accepted`; adr-tools writes a `## Status` section whose first word is the status. */
function statusFromBody(body: string, bodyStartLine: number, outline: MarkdownOutline): { status: StatusText | undefined; format: KnowledgeFormat } {
  const index = outline.sections.findIndex((candidate) => candidate.headingPath.at(-1)?.toLowerCase() === 'status')
  const section = outline.sections[index]
  if (section !== undefined && section.text !== '') {
    const format = adrToolsHeading.test(outline.firstHeading?.text ?? '') ? 'adr-tools' : 'madr'
    // The raw markdown, not the plain text: links to the superseding ADR live in it.
    const end = outline.sections[index + 1]?.line ?? Number.MAX_SAFE_INTEGER
    const raw = body.split('\n').slice(section.line - bodyStartLine + 1, end - bodyStartLine).join('\n')
    return { status: { word: section.text.split(/\s+/)[0] ?? '', raw, line: () => section.line + 2 }, format }
  }
  const match = statusLine.exec(body)
  if (match?.[1] !== undefined) {
    const line = body.slice(0, match.index).split('\n').length + bodyStartLine - 1
    return { status: { word: match[1].trim().split(/\s+/)[0] ?? '', raw: match[1], line: () => line }, format: 'madr' }
  }
  return { status: undefined, format: 'mk' }
}

function normaliseStatus(word: string): string {
  return word.toLowerCase().replace(/[^a-z]/g, '')
}

function parseConstraints(
  raw: unknown,
  itemId: string,
  itemSeverity: Severity | undefined,
  frontmatter: Frontmatter,
  problems: ProblemList,
): Constraint[] {
  if (raw === undefined || raw === null) return []
  if (!Array.isArray(raw)) {
    problems.error(frontmatter.lineOf(['constraints']), 'constraints-not-list', 'constraints must be a list of constraint objects')
    return []
  }
  const constraints: Constraint[] = []
  raw.forEach((entry: unknown, index: number) => {
    const lineOfEntry = (): number => frontmatter.lineOf(['constraints', index])
    const at = (key: string): number => frontmatter.lineOf(['constraints', index, key])
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      problems.error(lineOfEntry(), 'constraint-not-object', `constraint ${index + 1} must be an object with operator, target and pattern`)
      return
    }
    const fields = entry as Record<string, unknown>
    const id = typeof fields.id === 'string' && fields.id !== '' ? fields.id : `${itemId}#${index + 1}`
    const { operator, target, pattern } = fields
    let valid = true
    if (!isOneOf(constraintOperators, operator)) {
      problems.error(at('operator'), 'unknown-operator', `constraint ${id}: unknown operator ${JSON.stringify(operator)}; expected one of ${constraintOperators.join(', ')}`)
      valid = false
    }
    if (!isOneOf(constraintTargets, target)) {
      problems.error(at('target'), 'unknown-target', `constraint ${id}: unknown target ${JSON.stringify(target)}; expected one of ${constraintTargets.join(', ')}`)
      valid = false
    }
    if (isOneOf(constraintOperators, operator) && isOneOf(constraintTargets, target) && !operatorsByTarget[target].includes(operator)) {
      problems.error(at('operator'), 'operator-target-mismatch', `constraint ${id}: operator ${operator} does not apply to target ${target}; use ${operatorsByTarget[target].join(' or ')}`)
      valid = false
    }
    if (typeof pattern !== 'string') {
      problems.error(at('pattern'), 'missing-pattern', `constraint ${id}: pattern must be a string`)
      valid = false
    } else if (isOneOf(constraintTargets, target)) {
      const problem = patternError(pattern, target)
      if (problem !== undefined) {
        problems.error(at('pattern'), 'invalid-pattern', `constraint ${id}: ${problem}`)
        valid = false
      }
    }
    const paths = asStringList(fields.paths)
    const exclude = asStringList(fields.exclude)
    if (paths === undefined) problems.error(at('paths'), 'invalid-paths', `constraint ${id}: paths must be a glob or a list of globs`)
    if (exclude === undefined) problems.error(at('exclude'), 'invalid-paths', `constraint ${id}: exclude must be a glob or a list of globs`)
    const severity = fields.severity ?? itemSeverity ?? 'warn'
    if (!isOneOf(severities, severity)) {
      problems.error(at('severity'), 'unknown-severity', `constraint ${id}: unknown severity ${JSON.stringify(severity)}; expected one of ${severities.join(', ')}`)
      valid = false
    }
    if (fields.waivable !== undefined && typeof fields.waivable !== 'boolean') {
      problems.error(at('waivable'), 'invalid-waivable', `constraint ${id}: waivable must be true or false`)
    }
    if (fields.message !== undefined && typeof fields.message !== 'string') {
      problems.error(at('message'), 'invalid-message', `constraint ${id}: message must be a string`)
    }
    if (!valid || paths === undefined || exclude === undefined) return
    constraints.push({
      id,
      operator: operator as Constraint['operator'],
      target: target as Constraint['target'],
      pattern: pattern as string,
      paths,
      exclude,
      severity: severity as Severity,
      message: typeof fields.message === 'string' ? fields.message : undefined,
      waivable: fields.waivable !== false,
      get line() {
        return lineOfEntry()
      },
    })
  })
  return constraints
}

/** Parse one knowledge file in any supported dialect (mk, MADR, adr-tools) into an item and its problems. */
export async function parseKnowledgeFile(file: KnowledgeFile): Promise<ParsedKnowledge> {
  const problems = new ProblemList(file.path)
  let frontmatter: Frontmatter
  try {
    frontmatter = parseFrontmatter(file.text)
  } catch (error) {
    if (error instanceof FrontmatterSyntaxError) {
      problems.error(error.line, 'malformed-frontmatter', error.message)
      return { item: undefined, problems: problems.problems }
    }
    throw error
  }
  const data = frontmatter.data
  // remark is the slowest part of loading; files whose frontmatter names title and status never load it.
  const needsBody = typeof data.title !== 'string' || data.status === undefined
  const outline = needsBody ? (await import('./markdown.js')).outlineMarkdown(frontmatter.body, frontmatter.bodyStartLine) : undefined
  const { status: bodyStatus, format } = outline === undefined ? { status: undefined, format: 'mk' as const } : statusFromBody(frontmatter.body, frontmatter.bodyStartLine, outline)

  const id = typeof data.id === 'string' && data.id !== '' ? data.id : stemOf(file.path)
  if (data.id !== undefined && typeof data.id !== 'string') problems.error(frontmatter.lineOf(['id']), 'invalid-id', 'id must be a string')

  const headingText = outline?.firstHeading?.text
  const numbered = headingText === undefined ? undefined : adrToolsHeading.exec(headingText)
  const headingTitle = numbered?.[2] ?? headingText
  const title = typeof data.title === 'string' && data.title.trim() !== '' ? data.title.trim() : (headingTitle ?? stemOf(file.path))
  if (typeof data.title !== 'string' && headingTitle === undefined) {
    problems.warning(1, 'missing-title', 'no title in frontmatter and no heading; using the file name')
  }

  let type: KnowledgeType = inferType(file.path, frontmatter.present && data.type !== undefined ? 'mk' : format)
  if (data.type !== undefined) {
    if (isOneOf(knowledgeTypes, data.type)) type = data.type
    else problems.error(frontmatter.lineOf(['type']), 'unknown-type', `unknown type ${JSON.stringify(data.type)}; expected one of ${knowledgeTypes.join(', ')}`)
  }

  let status: KnowledgeStatus = 'accepted'
  const statusSource = data.status !== undefined ? { word: String(data.status), raw: String(data.status), line: () => frontmatter.lineOf(['status']) } : bodyStatus
  if (statusSource !== undefined) {
    const word = normaliseStatus(statusSource.word)
    if (isOneOf(knowledgeStatuses, word)) status = word
    else problems.error(statusSource.line(), 'unknown-status', `unknown status ${JSON.stringify(statusSource.word)}; expected one of ${knowledgeStatuses.join(', ')}`)
  }

  let layer = file.layer
  if (data.layer !== undefined) {
    if (isOneOf(knowledgeLayers, data.layer)) layer = data.layer
    else problems.error(frontmatter.lineOf(['layer']), 'unknown-layer', `unknown layer ${JSON.stringify(data.layer)}; expected one of ${knowledgeLayers.join(', ')}`)
  }

  let severity: Severity | undefined
  if (data.severity !== undefined) {
    if (isOneOf(severities, data.severity)) severity = data.severity
    else problems.error(frontmatter.lineOf(['severity']), 'unknown-severity', `unknown severity ${JSON.stringify(data.severity)}; expected one of ${severities.join(', ')}`)
  }

  const listField = (key: string): string[] => {
    const list = asStringList(data[key])
    if (list === undefined) {
      problems.error(frontmatter.lineOf([key]), 'invalid-list', `${key} must be a string or a list of strings`)
      return []
    }
    return list
  }
  const relationLines = {
    get supersedes() {
      return data.supersedes !== undefined ? frontmatter.lineOf(['supersedes']) : (statusSource?.line() ?? 1)
    },
    get supersededBy() {
      return data.superseded_by !== undefined ? frontmatter.lineOf(['superseded_by']) : (statusSource?.line() ?? 1)
    },
  }
  const tags = listField('tags')
  const supersedes = listField('supersedes')
  const supersededBy = listField('superseded_by')
  if (statusSource !== undefined && data.status === undefined) {
    for (const match of statusSource.raw.matchAll(relationLink)) {
      const relation = match[1]?.toLowerCase()
      const target = linkTargetId(match[2] ?? '')
      if (relation === 'superseded by') supersededBy.push(target)
      else supersedes.push(target)
    }
  }

  const summary = typeof data.summary === 'string' ? data.summary : undefined
  const dateValue = data.date instanceof Date ? data.date.toISOString().slice(0, 10) : typeof data.date === 'string' ? data.date : dateLine.exec(frontmatter.body)?.[1]
  const constraints = parseConstraints(data.constraints, id, severity, frontmatter, problems)

  const item: KnowledgeItem = {
    id,
    type,
    title,
    status,
    layer,
    severity,
    tags,
    summary,
    supersedes: [...new Set(supersedes)],
    supersededBy: [...new Set(supersededBy)],
    constraints,
    date: dateValue,
    format: frontmatter.present && (data.type !== undefined || data.constraints !== undefined || data.title !== undefined) ? 'mk' : format,
    source: file.source,
    path: file.path,
    absolutePath: file.absolutePath,
    body: frontmatter.body,
    bodyStartLine: frontmatter.bodyStartLine,
    relationLines,
  }
  return { item, problems: problems.problems }
}
