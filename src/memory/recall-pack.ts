import type { TokenCounter } from '../token-count.js'
import type { RecallNode } from './recall-graph.js'
import { oneLine } from '../text.js'

export interface PackCitation {
  n: number
  id: string
  type: 'memory' | 'knowledge'
  /** The memory's layer, or the knowledge item's file. */
  source: string
}

const lineCharacters = 300

/**
 * The context an agent reads: the most relevant memories (stale ones marked), then the knowledge
 * items they rest on, superseded items replaced by what superseded them, every line cited, added
 * in order while the text stays within the budget; the first line that does not fit ends it.
 */
export function composeRecallPack(
  query: string,
  nodes: readonly RecallNode[],
  scores: ReadonlyMap<string, number>,
  options: { tokenBudget: number; countTokens: TokenCounter },
): { text: string; items: string[]; citations: PackCitation[] } {
  const byId = new Map(nodes.map((node) => [node.id, node]))
  const byScore = (a: RecallNode, b: RecallNode): number => (scores.get(b.id) ?? 0) - (scores.get(a.id) ?? 0) || a.id.localeCompare(b.id)
  const memories = nodes.filter((node): node is Extract<RecallNode, { type: 'memory' }> => node.type === 'memory' && node.aliasOf === undefined).sort(byScore)
  // A superseded item is shown as the item that superseded it, when the graph holds that one.
  const current = (node: Extract<RecallNode, { type: 'knowledge' }>): Extract<RecallNode, { type: 'knowledge' }> => {
    const newer = node.supersededBy.map((id) => byId.get(id)).find((candidate) => candidate?.type === 'knowledge')
    return newer?.type === 'knowledge' ? newer : node
  }
  // The first (best-scored) reason an item is shown wins: reached through the item it superseded, it says so.
  const shownById = new Map<string, { shown: Extract<RecallNode, { type: 'knowledge' }>; replaces: string | undefined }>()
  for (const node of nodes.filter((candidate): candidate is Extract<RecallNode, { type: 'knowledge' }> => candidate.type === 'knowledge').sort(byScore)) {
    const shown = current(node)
    if (!shownById.has(shown.id)) shownById.set(shown.id, { shown, replaces: shown === node ? undefined : node.id })
  }
  const knowledge = [...shownById.values()]
  const candidates: { section: 'memories' | 'knowledge'; id: string; type: 'memory' | 'knowledge'; source: string; body: (n: number) => string }[] = [
    ...memories.map((memory) => ({
      section: 'memories' as const,
      id: memory.id,
      type: 'memory' as const,
      source: memory.layer,
      body: (n: number) =>
        `- ${oneLine(memory.content, lineCharacters)}${memory.stale === undefined ? '' : ` (stale: ${memory.stale})`} [${n}: memory ${memory.id}, ${memory.layer}]`,
    })),
    ...knowledge.map(({ shown, replaces }) => ({
      section: 'knowledge' as const,
      id: shown.id,
      type: 'knowledge' as const,
      source: shown.path,
      body: (n: number) =>
        `- ${oneLine(shown.title, lineCharacters)} (${shown.status}${replaces === undefined ? '' : `; replaces ${replaces}, which it superseded`})${shown.summary === undefined ? '' : `: ${oneLine(shown.summary, lineCharacters)}`} [${n}: ${shown.path}]`,
    })),
  ]
  const lines = [`# Recalled for: ${oneLine(query, lineCharacters)}`]
  const citations: PackCitation[] = []
  let section: string | undefined
  for (const candidate of candidates) {
    const heading = candidate.section === section ? [] : ['', candidate.section === 'memories' ? '## Memories' : '## Knowledge they rest on']
    const next = [...lines, ...heading, candidate.body(citations.length + 1)]
    if (options.countTokens(`${next.join('\n')}\n`) > options.tokenBudget) break
    lines.splice(0, lines.length, ...next)
    section = candidate.section
    citations.push({ n: citations.length + 1, id: candidate.id, type: candidate.type, source: candidate.source })
  }
  return { text: `${lines.join('\n')}\n`, items: citations.map((citation) => citation.id), citations }
}
