import type { KnowledgeLayer } from '../config/layers.js'
import { knowledgeLayers } from '../config/layers.js'
import { FrontmatterSyntaxError, parseFrontmatter, type Frontmatter } from './frontmatter.js'
import {
  knowledgeStatuses,
  knowledgeTypes,
  ruleActivations,
  severities,
  type KnowledgeFormat,
  type KnowledgeItem,
  type KnowledgeProblem,
  type KnowledgeType,
  type Severity,
} from './model.js'
import { scanBody } from './parse/body-lines.js'
import { parseConstraints } from './parse/constraints.js'
import { asStringList, inferType, isOneOf, stemOf } from './parse/fields.js'
import { isPolicyRule, parsePolicyRule } from './parse/policy-rule.js'
import { ProblemList } from './parse/problems.js'
import { relationsInStatus } from './parse/relations.js'
import { findWrittenStatus } from './parse/status-location.js'
import { readStatus, type StatusMap } from './parse/status-words.js'
import { headingTitle } from './parse/title.js'

export interface KnowledgeFile {
  /** Workspace-relative posix path. */
  path: string
  absolutePath: string
  source: string
  layer: KnowledgeLayer
  text: string
  /** `.mkrc` knowledge.statusMap: the organisation's own status words. */
  statusMap?: StatusMap
}

export interface ParsedKnowledge {
  item: KnowledgeItem | undefined
  problems: KnowledgeProblem[]
}

/** The status of a file that writes none. */
export const defaultStatus = 'accepted'

const dateLine = /^[ \t]*(?:[-*][ \t]+)?(?:\*\*)?date(?:\*\*)?:[ \t]*(?:\*\*[ \t]*)?(\d{4}-\d{2}-\d{2})/im
const frontmatterConstraints = /^constraints\s*:/m

function frontmatterOf(file: KnowledgeFile, problems: ProblemList): Frontmatter | undefined {
  try {
    return parseFrontmatter(file.text)
  } catch (error) {
    if (!(error instanceof FrontmatterSyntaxError)) throw error
    problems.add('error', error.line, 'malformed-frontmatter', error.message, { hidesConstraints: frontmatterConstraints.test(file.text) })
    return undefined
  }
}

function enumField<T extends string>(frontmatter: Frontmatter, key: string, values: readonly T[], problems: ProblemList): T | undefined {
  const value = frontmatter.data[key]
  if (value === undefined) return undefined
  if (isOneOf(values, value)) return value
  problems.error(frontmatter.lineOf([key]), `unknown-${key}`, `unknown ${key} ${JSON.stringify(value)}; expected one of ${values.join(', ')}`)
  return undefined
}

/** Parse one knowledge file in any supported dialect (mk frontmatter, MADR, adr-tools, Nygard, status tables) into an item and its problems. */
export function parseKnowledgeFile(file: KnowledgeFile): Promise<ParsedKnowledge> {
  return Promise.resolve(parseKnowledgeText(file))
}

function parseKnowledgeText(file: KnowledgeFile): ParsedKnowledge {
  const problems = new ProblemList(file.path)
  const frontmatter = frontmatterOf(file, problems)
  if (frontmatter === undefined) return { item: undefined, problems: problems.problems }
  const data = frontmatter.data
  const lines = scanBody(frontmatter.body, frontmatter.bodyStartLine)

  const id = typeof data.id === 'string' && data.id !== '' ? data.id : stemOf(file.path)
  if (data.id !== undefined && typeof data.id !== 'string') problems.error(frontmatter.lineOf(['id']), 'invalid-id', 'id must be a string')

  const heading = headingTitle(lines)
  const title = typeof data.title === 'string' && data.title.trim() !== '' ? data.title.trim() : (heading?.title ?? stemOf(file.path))
  if (typeof data.title !== 'string' && heading === undefined) {
    problems.warning(1, 'missing-title', 'no title in frontmatter and no heading; using the file name')
  }

  const written =
    data.status !== undefined && data.status !== null
      ? { text: String(data.status), line: undefined, inBody: false }
      : { ...findWrittenStatus(lines), inBody: true }
  const reading = written.text === undefined ? undefined : readStatus(written.text, file.statusMap)
  // Finding a frontmatter key's line loads a YAML parser (tens of ms): only a reported problem pays for it.
  const statusLine = (): number => (written.inBody ? (written.line ?? 1) : frontmatter.lineOf(['status']))
  if (reading === undefined) {
    problems.add(
      'info',
      1,
      'no-status',
      `no status written; the item counts as ${defaultStatus} (add a Status section, a "Status:" line or status in frontmatter)`,
    )
  } else if (!reading.known) {
    problems.warning(
      statusLine(),
      'unmapped-status',
      `status "${reading.raw}" maps to none of ${knowledgeStatuses.join(', ')}; it loads as written and its constraints are not enforced (map it with knowledge.statusMap in .mkrc)`,
    )
  }
  const format: KnowledgeFormat = !written.inBody || written.text === undefined ? 'mk' : heading?.numbered === true ? 'adr-tools' : 'madr'

  let type: KnowledgeType = inferType(file.path, frontmatter.present && data.type !== undefined ? 'mk' : format)
  type = enumField(frontmatter, 'type', knowledgeTypes, problems) ?? type
  const layer = enumField(frontmatter, 'layer', knowledgeLayers, problems) ?? file.layer
  const severity: Severity | undefined = enumField(frontmatter, 'severity', severities, problems)
  if (type !== 'rule' && isPolicyRule(data)) {
    problems.warning(
      frontmatter.lineOf([data.if !== undefined ? 'if' : 'then']),
      'policy-fields-outside-rule',
      `if/then make a policy rule only in a type: rule item; this one is type ${type}, so they are ignored (add type: rule)`,
    )
  }

  const listField = (key: string): string[] => {
    const list = asStringList(data[key])
    if (list !== undefined) return list
    problems.error(frontmatter.lineOf([key]), 'invalid-list', `${key} must be a string or a list of strings`)
    return []
  }
  const tags = listField('tags')
  const supersedes = listField('supersedes')
  const supersededBy = listField('superseded_by')
  if (written.inBody && written.text !== undefined) {
    const relations = relationsInStatus(written.text)
    supersedes.push(...relations.supersedes)
    supersededBy.push(...relations.supersededBy)
  }
  const relationLines = {
    get supersedes() {
      return data.supersedes !== undefined ? frontmatter.lineOf(['supersedes']) : statusLine()
    },
    get supersededBy() {
      return data.superseded_by !== undefined ? frontmatter.lineOf(['superseded_by']) : statusLine()
    },
  }

  const dateValue =
    data.date instanceof Date ? data.date.toISOString().slice(0, 10) : typeof data.date === 'string' ? data.date : dateLine.exec(frontmatter.body)?.[1]
  const item: KnowledgeItem = {
    id,
    type,
    title,
    status: reading?.status ?? defaultStatus,
    statusRaw: reading?.raw,
    layer,
    severity,
    tags,
    topics: listField('topics'),
    appliesTo: listField('applies_to'),
    authoritativeFor: listField('authoritative_for'),
    activation: enumField(frontmatter, 'activation', ruleActivations, problems),
    summary: typeof data.summary === 'string' ? data.summary : undefined,
    supersedes: [...new Set(supersedes)],
    supersededBy: [...new Set(supersededBy)],
    constraints: parseConstraints(data.constraints, id, severity, frontmatter, problems),
    ...(type === 'rule' && isPolicyRule(data) ? { policy: parsePolicyRule(frontmatter, problems) } : {}),
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
