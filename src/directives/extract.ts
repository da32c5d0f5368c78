import type { ListItem, Root, RootContent } from 'mdast'
import { remark } from 'remark'
import type { KnowledgeItem } from '../knowledge/model.js'
import { severityRank, type Directive, type DirectiveSeverity } from './model.js'

/** BCP 14 keywords, longest first so "MUST NOT" wins over "MUST". Only capitals carry the meaning (RFC 8174). */
const keywords = 'MUST NOT|SHALL NOT|SHOULD NOT|NOT RECOMMENDED|MUST|REQUIRED|SHALL|SHOULD|RECOMMENDED|MAY|OPTIONAL'
const keywordPattern = new RegExp(`\\b(${keywords})\\b`, 'g')

const severityOfKeyword: Readonly<Record<string, DirectiveSeverity>> = {
  'MUST NOT': 'MUST',
  'SHALL NOT': 'MUST',
  MUST: 'MUST',
  REQUIRED: 'MUST',
  SHALL: 'MUST',
  'SHOULD NOT': 'SHOULD',
  'NOT RECOMMENDED': 'SHOULD',
  SHOULD: 'SHOULD',
  RECOMMENDED: 'SHOULD',
  MAY: 'MAY',
  OPTIONAL: 'MAY',
}

/** Rule lists are written in plain words ("Never commit secrets"); these make a list item a MUST, anything else is a SHOULD. */
const plainMustWords = /\b(must|shall|never|required|do not|don't|forbidden|prohibited)\b/i

/** Headings whose list items are rules in policy and rule items. */
const normativeHeading = /\b(rules?|decisions?|polic(y|ies)|guidelines?|requirements?|conventions?|standards?|constraints?|do'?s|don'?ts)\b/i

export interface NormativeKeyword {
  keyword: string
  severity: DirectiveSeverity
}

/** A keyword in quotes or code is named, not used: the RFC 2119 boilerplate lists them all and requires nothing. */
const namedKeyword = new RegExp(`["“'\`]\\s*(?:${keywords})\\s*["”'\`]`, 'g')

/** The strongest BCP 14 keyword in a text, or undefined when it has none. */
export function strongestKeyword(text: string): NormativeKeyword | undefined {
  let best: NormativeKeyword | undefined
  for (const match of text.replace(namedKeyword, ' ').matchAll(keywordPattern)) {
    const keyword = match[1] ?? ''
    const severity = severityOfKeyword[keyword] ?? 'MAY'
    if (best === undefined || severityRank(severity) > severityRank(best.severity)) best = { keyword, severity }
  }
  return best
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(text: string): string {
  const anchor = text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s+/g, '-')
  return anchor === '' ? 'section' : anchor
}

/** The text of a node as a reader sees it; inline code keeps its backticks, because `service` in a rule names a thing. */
function plainText(node: RootContent | Root): string {
  if (node.type === 'code' || node.type === 'html') return ''
  if (node.type === 'inlineCode') return `\`${node.value}\``
  if ('value' in node && typeof node.value === 'string') return node.value
  if ('children' in node) return (node.children as RootContent[]).map(plainText).join(node.type === 'root' ? '\n' : '')
  return ''
}

function squeeze(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** Abbreviations a sentence does not end at, even before a capital or code ("e.g. `npm ci`", "vs. Redis"). */
const abbreviation = /\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|no|fig)\.$/i

/** Sentences of a paragraph: a stop followed by a capital, a digit, a quote, code or a bracket ends one, unless it ends an abbreviation. */
export function sentences(text: string): string[] {
  const pieces = squeeze(text).split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'`([])/u)
  const joined: string[] = []
  for (const piece of pieces) {
    const previous = joined.at(-1)
    if (previous !== undefined && abbreviation.test(previous)) joined[joined.length - 1] = `${previous} ${piece}`
    else joined.push(piece)
  }
  return joined.map((sentence) => sentence.trim()).filter((sentence) => sentence !== '')
}

interface Statement {
  text: string
  line: number
  inList: boolean
}

/** Paragraph sentences and list items in document order, each under its heading path. Code, HTML and tables say nothing normative. */
function statementsBySection(body: string, bodyStartLine: number): { headingPath: string[]; statements: Statement[] }[] {
  const tree = remark().parse(body)
  const sections: { headingPath: string[]; statements: Statement[] }[] = [{ headingPath: [], statements: [] }]
  const headings: { depth: number; text: string }[] = []
  const lineOf = (node: RootContent): number => (node.position?.start.line ?? 1) + bodyStartLine - 1
  const current = (): Statement[] => sections.at(-1)?.statements ?? []

  const visitListItem = (item: ListItem): void => {
    const own = item.children.filter((child) => child.type !== 'list')
    const text = squeeze(own.map(plainText).join(' '))
    if (text !== '') current().push({ text, line: lineOf(item), inList: true })
    for (const child of item.children) if (child.type === 'list') for (const nested of child.children) visitListItem(nested)
  }
  const visit = (node: RootContent): void => {
    if (node.type === 'heading') {
      while (headings.length > 0 && (headings.at(-1)?.depth ?? 0) >= node.depth) headings.pop()
      headings.push({ depth: node.depth, text: squeeze(plainText(node)) })
      sections.push({ headingPath: headings.map((heading) => heading.text), statements: [] })
    } else if (node.type === 'paragraph') {
      for (const sentence of sentences(plainText(node))) current().push({ text: sentence, line: lineOf(node), inList: false })
    } else if (node.type === 'list') {
      for (const item of node.children) visitListItem(item)
    } else if (node.type === 'blockquote') {
      for (const child of node.children) visit(child)
    }
  }
  for (const node of tree.children) visit(node)
  return sections.filter((section) => section.statements.length > 0)
}

/** Anchors for each section, numbered like GitHub's when two headings read the same (`setup`, `setup-1`). */
function uniqueAnchors(headingPaths: readonly string[][]): string[] {
  const seen = new Map<string, number>()
  return headingPaths.map((path) => {
    const last = path.at(-1)
    const base = last === undefined ? 'top' : headingAnchor(last)
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    return count === 0 ? base : `${base}-${count}`
  })
}

/**
 * The normative statements of one item: every sentence or list item with a BCP 14 keyword, and in
 * rule items every list item (in policies, those under a heading such as "Rules" or "Decision"),
 * which count as SHOULD unless written with a plain "must"/"never".
 */
export function extractDirectives(item: KnowledgeItem): Directive[] {
  const sections = statementsBySection(item.body, item.bodyStartLine)
  const anchors = uniqueAnchors(sections.map((section) => section.headingPath))
  const directives: Directive[] = []
  sections.forEach((section, position) => {
    const anchor = anchors[position] ?? 'top'
    const listsAreRules = item.type === 'rule' || (item.type === 'policy' && section.headingPath.some((heading) => normativeHeading.test(heading)))
    let index = 0
    for (const statement of section.statements) {
      const found = strongestKeyword(statement.text)
      if (found === undefined && !(statement.inList && listsAreRules)) continue
      index++
      directives.push({
        id: `${item.id}#${anchor}-${index}`,
        itemId: item.id,
        itemType: item.type,
        itemTitle: item.title,
        layer: item.layer,
        status: item.status,
        source: item.source,
        path: item.path,
        section: anchor,
        breadcrumb: section.headingPath,
        text: statement.text,
        severity: found?.severity ?? (plainMustWords.test(statement.text) ? 'MUST' : 'SHOULD'),
        keyword: found?.keyword,
        line: statement.line,
        tags: item.tags,
        topics: item.topics,
        appliesTo: item.appliesTo,
        authoritativeFor: item.authoritativeFor,
      })
    }
  })
  return directives
}
