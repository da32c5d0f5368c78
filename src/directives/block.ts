import type { TokenCounter } from '../token-count.js'
import { directiveHeadings, type DirectiveSeverity } from './model.js'
import type { RankedDirective } from './rank.js'
import { oneLine } from '../text.js'

export const blockTitle = 'Contextual rules for this task'

export interface RememberedFact {
  memoryId: string
  content: string
  layer: string
}

export interface Citation {
  sourcePath: string
  section: string
  severity: DirectiveSeverity
  itemId: string
  directiveId: string
}

export interface ComposedBlock {
  contextBlock: string
  citations: Citation[]
  tokens: number
  /** Directives and memories that ranked but did not fit, or passed maxItems. */
  cut: { directives: string[]; memories: string[]; reason: string[] }
  memoriesIncluded: number
}

const memoryCharacters = 240
/** A rule longer than this is cut at a clause in the block (its citation leads to the whole text), so one long paragraph does not take a whole budget. */
const ruleCharacters = 320
/** A code example longer than this stays in the source: the block names where. */
const codeLines = 14

function shortRule(text: string): string {
  if (text.length <= ruleCharacters) return text
  const head = text.slice(0, ruleCharacters)
  const stop = Math.max(head.lastIndexOf('. '), head.lastIndexOf('; '), head.lastIndexOf(' — '))
  return `${(stop > ruleCharacters / 2 ? head.slice(0, stop + 1) : head.replace(/\s+\S*$/, '')).trimEnd()} …`
}

function codeUnder(code: string): string {
  if (code.split('\n').length > codeLines + 2) return '\n  (a longer example follows it in the source)'
  return `\n\n${code.replace(/^/gm, '  ')}\n`
}

function directiveLine(entry: RankedDirective, includeBreadcrumbs: boolean, citationNumber: number): string {
  const { directive } = entry
  const headings = directiveHeadings(directive)
  const where = includeBreadcrumbs && headings.length > 0 ? ` — ${headings.join(' > ')}` : ''
  const why = entry.rationale === '' ? '' : ` (${entry.rationale})`
  const line = `- [${directive.severity}] ${shortRule(directive.text)}${where}${why} [${citationNumber}: ${directive.path}#${directive.section}]`
  // The example written with the rule goes with it, indented under its bullet.
  return directive.code === undefined ? line : `${line}${codeUnder(directive.code)}`
}

function memoryLine(fact: RememberedFact): string {
  return `- ${oneLine(fact.content, memoryCharacters)} (memory ${fact.memoryId}, ${fact.layer})`
}

/**
 * The markdown an agent reads at task start: directives in rank order, then remembered facts,
 * each line added only while the whole block stays within the budget as the counter counts it.
 * The first line that does not fit ends the block: a shorter, lower-ranked rule never takes the
 * place of a higher one, so the block at any budget is a prefix of the ranking.
 */
export function composeBlock(
  ranked: readonly RankedDirective[],
  memories: readonly RememberedFact[],
  options: { tokenBudget: number; maxItems: number; includeBreadcrumbs: boolean; countTokens: TokenCounter; heading?: string; preface?: string },
): ComposedBlock {
  // A block that holds no rule matched to the task says so, rather than being silently empty.
  const lines = [`# ${options.heading ?? blockTitle}`, '', ...(options.preface === undefined ? [] : [`_${oneLine(options.preface, 400)}._`, ''])]
  const citations: Citation[] = []
  const cut: ComposedBlock['cut'] = { directives: [], memories: [], reason: [] }
  const fits = (candidate: readonly string[]): boolean => options.countTokens(`${candidate.join('\n')}\n`) <= options.tokenBudget
  let full = false
  for (const entry of ranked) {
    const line = full || citations.length >= options.maxItems ? undefined : directiveLine(entry, options.includeBreadcrumbs, citations.length + 1)
    if (line === undefined || !fits([...lines, line])) {
      if (line !== undefined) full = true
      cut.directives.push(entry.directive.id)
      continue
    }
    lines.push(line)
    const { directive } = entry
    citations.push({
      sourcePath: directive.path,
      section: directive.section,
      severity: directive.severity,
      itemId: directive.itemId,
      directiveId: directive.id,
    })
  }
  if (cut.directives.length > 0) cut.reason.push(`${cut.directives.length} ranked directives left out by maxItems ${options.maxItems} or the token budget`)
  let memoriesIncluded = 0
  const rememberedHeading = ['', '## Remembered', '']
  for (const fact of memories) {
    const heading = memoriesIncluded === 0 ? rememberedHeading : []
    const candidate = [...lines, ...heading, memoryLine(fact)]
    if (full || !fits(candidate)) {
      full = true
      cut.memories.push(fact.memoryId)
      continue
    }
    lines.splice(0, lines.length, ...candidate)
    memoriesIncluded++
  }
  if (cut.memories.length > 0) cut.reason.push(`${cut.memories.length} memories left out by the token budget`)
  const contextBlock = `${lines.join('\n')}\n`
  return { contextBlock, citations, tokens: options.countTokens(contextBlock), cut, memoriesIncluded }
}
