import type { ExportedItem } from '../directives/export/collect.js'
import { escapeMarkdown } from '../directives/export/render.js'
import type { TokenCounter } from '../token-count.js'

export interface SessionRules {
  /** Markdown for the start of a session; '' when no rule always applies. */
  block: string
  tokens: number
  /** Directive ids in the block, in order. */
  served: string[]
  /** Left out by the budget. */
  cut: number
}

/**
 * The MUST rules that apply to every task of the workspace (items scoped to no path or layer), each
 * cited to its file and section, within a token budget: what a session starts with before any task
 * is known. Rules scoped to paths or topics arrive with the prompt that needs them.
 */
export function sessionRulesBlock(
  items: readonly ExportedItem[],
  appliesTo: ReadonlyMap<string, readonly string[]>,
  countTokens: TokenCounter,
  budget: number,
): SessionRules {
  const directives = items
    .filter((item) => (appliesTo.get(item.id) ?? []).length === 0)
    .flatMap((item) => item.directives.filter((directive) => directive.severity === 'MUST'))
  if (directives.length === 0) return { block: '', tokens: 0, served: [], cut: 0 }
  const heading = '# Rules that always apply in this workspace (mk)\n'
  const lines: string[] = []
  const served: string[] = []
  let tokens = countTokens(heading)
  for (const directive of directives) {
    const line = `- [MUST] ${escapeMarkdown(directive.text)} [${directive.path}#${directive.section}]`
    const cost = countTokens(`${line}\n`)
    if (tokens + cost > budget) break
    lines.push(line)
    served.push(directive.id)
    tokens += cost
  }
  const cut = directives.length - served.length
  const tail = cut === 0 ? '' : `\n(${cut} more not shown: call rules_query_directives with the task for the rules that apply to it)\n`
  const block = lines.length === 0 ? '' : `${heading}\n${lines.join('\n')}\n${tail}`
  return { block, tokens: block === '' ? 0 : countTokens(block), served, cut }
}
