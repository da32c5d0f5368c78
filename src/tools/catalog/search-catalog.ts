import { MkError } from '../../errors.js'
import type { ToolSession } from '../context.js'
import type { Tier } from '../define.js'
import { rankTools } from './rank-tools.js'
import { registeredToolList } from './tool-list.js'

export interface CatalogRequest {
  query?: string | undefined
  load?: readonly string[] | undefined
  limit: number
}

export interface FoundTool {
  name: string
  title: string
  description: string
  tier: Tier
  /** Whether the session offers it now (every registered tool, outside a session that offers some). */
  offered: boolean
}

/**
 * The registered tools that match the words, best first, after loading the named ones into the
 * session: unknown names are refused before anything is loaded.
 */
export function searchToolCatalog(request: CatalogRequest, session: ToolSession | undefined): { tools: FoundTool[]; loaded: string[] } {
  if (request.query === undefined && request.load === undefined) {
    throw new MkError('INVALID_INPUT', 'tools_search needs query (words to search for) or load (tool names), or both', {
      details: { field: 'query', hint: 'e.g. {"query":"sync knowledge sources"}, then {"load":["sync_now"]}' },
    })
  }
  const registered = registeredToolList()
  const unknown = (request.load ?? []).filter((name) => !registered.some((tool) => tool.name === name))
  if (unknown.length > 0) {
    throw new MkError('NOT_FOUND', `no mk tool named ${unknown.join(', ')}`, {
      details: { field: 'load', names: unknown, hint: 'search with query first and load the names it finds' },
    })
  }
  const loaded = session?.offer(request.load ?? []) ?? []
  const offered = new Set(session?.offered() ?? registered.map((tool) => tool.name))
  const found = request.query === undefined ? [] : rankTools(registered, request.query).slice(0, request.limit)
  const tools = found.map(({ tool }) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    tier: tool.tier,
    offered: offered.has(tool.name),
  }))
  return { tools, loaded }
}
