import type { KnowledgeBase } from '../../knowledge/load.js'
import type { RuleActivation } from '../../knowledge/model.js'
import { extractDirectives } from '../extract.js'
import type { Directive } from '../model.js'

/** An accepted item with what an agent rules file says about it. */
export interface ExportedItem {
  id: string
  title: string
  summary: string | undefined
  /** The path globs of its applies_to; architecture layers (`persistence`) are not paths and stay out. */
  globs: string[]
  /** How an ingested Cursor or Copilot rule is served (always, by globs, on request, by name); undefined for other items. */
  activation: RuleActivation | undefined
  /** In the order they are written in the item. */
  directives: Directive[]
}

/** `src/api/**`, `*.ts`, `Dockerfile.dev` are paths; `persistence` is an architecture layer. */
export function isPathGlob(entry: string): boolean {
  return /[/*?.{[]/.test(entry)
}

/** `web/**` alone is a folder's rules: they go back to that folder's AGENTS.md, as a nested file reads them. */
export function folderOf(item: ExportedItem): string {
  const only = item.globs.length === 1 ? /^([^*?[{]+)\/\*\*$/.exec(item.globs[0] ?? '') : null
  return only === null ? '' : `${only[1] ?? ''}/`
}

/** The accepted items that state at least one directive, sorted by id so the files come out the same every time. */
export function collectAccepted(base: KnowledgeBase): ExportedItem[] {
  return base.items
    .filter((item) => item.status === 'accepted')
    .map((item) => ({
      id: item.id,
      title: item.title,
      summary: item.summary === undefined || item.summary.trim() === '' ? undefined : item.summary.trim(),
      globs: item.appliesTo.filter(isPathGlob),
      activation: item.activation,
      directives: extractDirectives(item),
    }))
    .filter((item) => item.directives.length > 0)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}
