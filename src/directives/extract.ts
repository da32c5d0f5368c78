import type { ListItem, Paragraph, PhrasingContent, Root, RootContent } from 'mdast'
import { remark } from 'remark'
import type { KnowledgeItem } from '../knowledge/model.js'
import { activationOf, headingsBelowTitle, severityRank, type Directive, type DirectiveSeverity } from './model.js'
import { descriptiveHeading, insistingLabel, normativeHeading, plainWordsAreStrict, statementKind, statesRequirement } from './statement-kind.js'

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

export interface NormativeKeyword {
  keyword: string
  severity: DirectiveSeverity
}

/** A keyword in quotes or code is named, not used: the RFC 2119 boilerplate lists them all and requires nothing. */
const namedKeyword = new RegExp(`["“'\`]\\s*(?:${keywords})\\s*["”'\`]`, 'g')

/**
 * `[MUST] ` before a rule: how `mk rules export` writes a rule's severity, so an exported file read
 * back gives the rule its severity and its text as they were.
 */
const severityMarker = /^\[(MUST|SHOULD|MAY)\]\s+/

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

/**
 * The text of a node as a reader sees it; inline code keeps its backticks, because `service` in a
 * rule names a thing, and a link keeps its target, because "see [the convention](./commit.md)" is
 * no use without it.
 */
function plainText(node: RootContent | Root): string {
  if (node.type === 'code' || node.type === 'html') return ''
  if (node.type === 'inlineCode') return `\`${node.value}\``
  if (node.type === 'link') {
    const label = node.children.map(plainText).join('')
    return label === node.url || label === '' ? node.url : `[${label}](${node.url})`
  }
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

/** Longest list a sentence ending in a colon takes in as its own ("Never emit either of the following: ..."). */
const completingItems = 6
const completedLength = 600

/**
 * A sentence that ends in a colon and the short list after it say one thing ("Never emit either
 * of the following: a `Co-Authored-By:` trailer; a "Generated with" footer"): the items read
 * alone would lose the "never". Undefined when the list is too long to be one statement, or when
 * its items are rules of their own.
 */
function completedBy(intro: string, items: readonly ListItem[]): string | undefined {
  if (items.length === 0 || items.length > completingItems) return undefined
  const texts = items.map((item) => squeeze(item.children.map(plainText).join(' ')).replace(/[.;]$/, ''))
  // Items that are rules on their own ("Use X as a wrapper") stay rules of their own.
  if (texts.filter((text) => statementKind(text) === 'rule').length * 2 >= texts.length) return undefined
  const text = `${intro} ${texts.join('; ')}.`
  return text.length > completedLength ? undefined : text
}

/**
 * A rules file writes a rule and its reasons as one paragraph ("Bundle size is critical. Be mindful
 * of imports."): in rule items a paragraph up to this long is one statement, so no sentence loses
 * what the one before it said.
 */
const longestParagraph = 700

interface Statement {
  text: string
  line: number
  inList: boolean
  /** Written in bold by its author, or under a bold "CRITICAL"/"IMPORTANT" label: what the author wants read first. */
  emphasis?: boolean
  /** The code block that goes with it: inside its list item, or right after the paragraph that introduces it. */
  code?: string
  /** An item of a numbered list: a step of a procedure rather than a rule that stands alone. */
  step?: boolean
  /** A bold label paragraph: a statement only when a list completes it. */
  label?: boolean
  /**
   * For an item of a list a rule introduces ("New api routes should follow these guidelines:"), that rule: the item is a
   * rule as a rules heading would make it, and it is about what the introduction names.
   */
  introducedBy?: string
  /** For an item of a list under a bold label ("**Response Schemas** (API responses):"), that label: it names what the items are about, as a heading would. */
  caption?: string
  /** A short paragraph or list item that opens in bold and ends in a colon: the caption of the list right after it. */
  captions?: string
}

/** A statement that ends in a colon and reads as a rule introduces the list after it, which holds what it asks for: its text, else undefined. */
const introducedRules = (statement: Statement | undefined): string | undefined =>
  statement !== undefined && statement.text.endsWith(':') && statementKind(statement.text) === 'rule' ? statement.text : undefined

/** A code block as written, fenced, so it reads back as the same block. */
function fenced(node: { lang?: string | null; value: string }): string {
  const longest = Math.max(2, ...[...node.value.matchAll(/`+/g)].map((run) => run[0].length))
  const fence = '`'.repeat(longest + 1)
  return `${fence}${node.lang ?? ''}\n${node.value}\n${fence}`
}

/** Whether a paragraph or list item opens in bold: "**All PRs target `develop`** (NOT `master`)", "**MANDATORY**: Only ever ...". */
function opensInBold(children: readonly PhrasingContent[]): boolean {
  const first = children.find((child) => !(child.type === 'text' && child.value.trim() === ''))
  return first?.type === 'strong'
}

/**
 * A paragraph that is nothing but a short bold phrase ("**Key rules:**", "**IMPORTANT - Runtime-Specific
 * Placement:**") labels what follows it, as a small heading would: it is not a statement itself.
 */
function boldLabel(paragraph: Paragraph): string | undefined {
  const parts = paragraph.children.filter((child) => !(child.type === 'text' && child.value.trim() === ''))
  if (parts.length !== 1 || parts[0]?.type !== 'strong') return undefined
  const text = squeeze(plainText(paragraph))
  return text.length <= 80 ? text : undefined
}

/** Longest bold label read as the caption of the list after it. */
const longestCaption = 80

/**
 * A short text that opens in bold and ends in a colon ("**Provider Options Schemas** (user-facing):",
 * "**Key packages**:") names what the list after it is about, as a small heading would: its text
 * without the colon, else undefined.
 */
function captionOf(text: string, children: readonly PhrasingContent[]): string | undefined {
  return opensInBold(children) && text.length <= longestCaption && text.endsWith(':') ? text.slice(0, -1).trim() : undefined
}

/** Paragraph sentences and list items in document order, each under its heading path. Code, HTML and tables say nothing normative. */
function statementsBySection(body: string, bodyStartLine: number, wholeParagraphs: boolean): { headingPath: string[]; statements: Statement[] }[] {
  const tree = remark().parse(body)
  const sections: { headingPath: string[]; statements: Statement[] }[] = [{ headingPath: [], statements: [] }]
  const headings: { depth: number; text: string }[] = []
  const lineOf = (node: RootContent): number => (node.position?.start.line ?? 1) + bodyStartLine - 1
  const current = (): Statement[] => sections.at(-1)?.statements ?? []

  // The statement the previous block node ended with, while a code block right after it may belong to it.
  let lastStatement: Statement | undefined
  // Whether the block being visited follows a bold label that insists ("**CRITICAL - Attribute Usage:**").
  let insisting = false
  const visitListItem = (item: ListItem, ordered: boolean, introducedBy: string | undefined, labelled: boolean, caption: string | undefined): void => {
    const own = item.children.filter((child) => child.type !== 'list' && child.type !== 'code')
    const text = squeeze(own.map(plainText).join(' '))
    const lead = own[0]
    const emphasis = labelled || (lead?.type === 'paragraph' && opensInBold(lead.children))
    const code = item.children.filter((child) => child.type === 'code').map(fenced)
    const nested = item.children.flatMap((child) => (child.type === 'list' ? child.children : []))
    const completed = text.endsWith(':') ? completedBy(text, nested) : undefined
    const statement: Statement = {
      text: completed ?? text,
      line: lineOf(item),
      inList: true,
      ...(introducedBy === undefined ? {} : { introducedBy }),
      ...(caption === undefined ? {} : { caption }),
      ...(emphasis ? { emphasis } : {}),
      ...(code.length === 0 ? {} : { code: code.join('\n') }),
      ...(ordered ? { step: true } : {}),
    }
    if (text !== '') current().push(statement)
    const introducing = introducedRules(statement)
    // A label item ("**Response Schemas**:") captions its own items; under a rule that introduces them they read with the rule instead.
    const itemCaption = introducing === undefined && lead?.type === 'paragraph' ? (captionOf(text, lead.children) ?? caption) : caption
    if (completed === undefined)
      for (const child of item.children)
        if (child.type === 'list') for (const entry of child.children) visitListItem(entry, child.ordered === true, introducing, labelled, itemCaption)
  }
  const visit = (node: RootContent): void => {
    const previous = lastStatement
    lastStatement = undefined
    // A bold label covers the block right after it, as a caption does.
    const labelled = insisting
    insisting = false
    if (node.type === 'code') {
      if (previous !== undefined && previous.code === undefined) previous.code = fenced(node)
    } else if (node.type === 'heading') {
      while (headings.length > 0 && (headings.at(-1)?.depth ?? 0) >= node.depth) headings.pop()
      headings.push({ depth: node.depth, text: squeeze(plainText(node)) })
      sections.push({ headingPath: headings.map((heading) => heading.text), statements: [] })
    } else if (node.type === 'paragraph' && boldLabel(node) !== undefined) {
      const label = boldLabel(node) ?? ''
      insisting = insistingLabel.test(label)
      // Not a statement, unless a short list completes it ("**Forbidden versions:**" and the versions).
      lastStatement = { text: label, line: lineOf(node), inList: false, label: true, captions: label.replace(/:$/, '').trim() }
    } else if (node.type === 'paragraph') {
      const text = squeeze(plainText(node))
      const found = wholeParagraphs && text.length <= longestParagraph ? (text === '' ? [] : [text]) : sentences(text)
      const bold = labelled || opensInBold(node.children)
      found.forEach((sentence, position) =>
        current().push({ text: sentence, line: lineOf(node), inList: false, ...(bold && (labelled || position === 0) ? { emphasis: true } : {}) }),
      )
      lastStatement = found.length > 0 ? current().at(-1) : undefined
      const captions = captionOf(text, node.children)
      if (lastStatement !== undefined && captions !== undefined) lastStatement.captions = captions
    } else if (node.type === 'list') {
      const completed = previous !== undefined && previous.text.endsWith(':') ? completedBy(previous.text, node.children) : undefined
      if (previous !== undefined && completed !== undefined) {
        previous.text = completed
        if (previous.label === true) current().push({ text: completed, line: previous.line, inList: false, ...(labelled ? { emphasis: true } : {}) })
      } else {
        const introducedBy = introducedRules(previous)
        // A list a rule introduces reads with that rule; one under a bold label, with the label.
        const caption = introducedBy === undefined ? previous?.captions : undefined
        for (const item of node.children) visitListItem(item, node.ordered === true, introducedBy, labelled, caption)
      }
      lastStatement = current().at(-1)
    } else if (node.type === 'blockquote') {
      for (const child of node.children) visit(child)
    }
  }
  for (const node of tree.children) visit(node)
  return sections.filter((section) => section.statements.length > 0)
}

/** Longest section context a directive carries: a sentence or two. */
const longestContext = 300

/**
 * The descriptions of a rules file's section that name a path ("This repo uses snapshot tests, especially
 * in `codex-rs/tui`"): they say where the section's rules apply, though no rule repeats the path.
 */
function pathContext(statements: readonly Statement[], isRuleItem: boolean): string | undefined {
  if (!isRuleItem) return undefined
  const naming = statements
    .filter((statement) => !statement.inList && statement.label !== true && statementKind(statement.text) === 'description' && /\S\/\S/.test(statement.text))
    .map((statement) => statement.text)
  const text = naming.join(' ')
  return text === '' ? undefined : text.slice(0, longestContext)
}

/** What a rule reads with: the rule introducing its list and its section's descriptions naming paths. */
function contextOf(introducedBy: string | undefined, sectionContext: string | undefined): { context?: string } {
  const parts = [introducedBy, sectionContext].filter((part): part is string => part !== undefined)
  return parts.length === 0 ? {} : { context: parts.join(' ') }
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
 * The normative statements of one item: every sentence or list item with a BCP 14 keyword; in rule
 * items every sentence or list item that reads as a rule (an instruction or a requirement, not a
 * description, a file map or a link: statement-kind.ts); in policies every list item under a
 * heading such as "Rules" or "Decision". Without a keyword they count as SHOULD unless written with
 * a plain "must"/"never".
 */
export function extractDirectives(item: KnowledgeItem): Directive[] {
  const sections = statementsBySection(item.body, item.bodyStartLine, item.type === 'rule')
  const anchors = uniqueAnchors(sections.map((section) => section.headingPath))
  const directives: Directive[] = []
  sections.forEach((section, position) => {
    const anchor = anchors[position] ?? 'top'
    const underRulesHeading = section.headingPath.some((heading) => normativeHeading.test(heading))
    const listsAreRules = item.type === 'policy' && underRulesHeading
    // In a rules file the title ("Codex Guidelines for `worker`") names the whole file: the headings under it tell its rules from its descriptions.
    const belowTitle = section.headingPath.length > 1 ? headingsBelowTitle(section.headingPath, item.title) : section.headingPath
    const underRulesSection = belowTitle.some((heading) => normativeHeading.test(heading))
    // Under "Overview" or "Project Structure" a statement is a rule only when its words require something: "Entry point is `src/cli.ts` (NOT `src/index.ts`)" describes.
    const describing = section.headingPath.length > 1 && descriptiveHeading.test(section.headingPath.at(-1) ?? '')
    const sectionContext = pathContext(section.statements, item.type === 'rule')
    let index = 0
    for (const statement of section.statements) {
      const marked = severityMarker.exec(statement.text)
      const text = marked === null ? statement.text : statement.text.slice(marked[0].length)
      const found =
        marked === null ? strongestKeyword(text) : { keyword: strongestKeyword(text)?.keyword, severity: severityOfKeyword[marked[1] ?? ''] ?? 'SHOULD' }
      const isRule =
        found !== undefined ||
        (item.type === 'rule'
          ? statementKind(text, statement.inList && (underRulesSection || statement.introducedBy !== undefined)) === 'rule' &&
            (!describing || statesRequirement(text))
          : statement.inList && listsAreRules)
      if (!isRule) continue
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
        text,
        severity: found?.severity ?? (plainWordsAreStrict(text) ? 'MUST' : 'SHOULD'),
        keyword: found?.keyword,
        line: statement.line,
        code: statement.code,
        ...(statement.emphasis === true ? { emphasis: true } : {}),
        activation: activationOf(item),
        ...(statement.step === true ? { step: true } : {}),
        ...(item.activation === 'requested' && item.summary !== undefined ? { requestedWhen: item.summary } : {}),
        ...contextOf(statement.introducedBy, sectionContext),
        ...(statement.caption === undefined ? {} : { caption: statement.caption }),
        tags: item.tags,
        topics: item.topics,
        appliesTo: item.appliesTo,
        authoritativeFor: item.authoritativeFor,
      })
    }
  })
  return directives
}
