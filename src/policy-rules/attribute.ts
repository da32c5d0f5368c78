import type { Ranked } from './rank.js'

function namesAny(entry: Ranked, tools: ReadonlySet<string>): boolean {
  const lists = entry.rule.patch?.tool
  return [...(lists?.allow ?? []), ...(lists?.deny ?? []), ...(lists?.prefer ?? [])].some((tool) => tools.has(tool))
}

/**
 * The rules an outcome is credited to: the matched rules whose tool lists name the selected tool
 * (target `tool`), or any of the candidates (target `all`) — the rules that decided the selection.
 * A rule that only sets the output format had no say in which tool ran.
 */
export function attributeOutcome(matched: readonly Ranked[], target: 'tool' | 'all', selectedTool: string, candidates: readonly string[]): Ranked[] {
  const tools = new Set(target === 'tool' ? [selectedTool] : candidates)
  return matched.filter((entry) => namesAny(entry, tools))
}
