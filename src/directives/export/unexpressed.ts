import { folderOf, type ExportedItem } from './collect.js'
import type { ExportFormat } from './formats.js'

/** Something of an item the format has no way to say: its rules are written without it. */
export interface Unexpressed {
  itemId: string
  what: string
}

const fileNames: Readonly<Record<ExportFormat, string>> = {
  'agents-md': 'AGENTS.md',
  claude: 'CLAUDE.md',
  cursor: 'a Cursor rule',
  copilot: 'Copilot instructions',
}

/**
 * What each item has that the format cannot say, so its rules read back without it. AGENTS.md and
 * CLAUDE.md scope rules only by the folder they sit in: file globs (`**\/*.tsx`) are written as
 * prose. Only Cursor has rules an agent asks for by their description, or that serve only when
 * named; elsewhere they read back as rules for every task in their scope.
 */
export function unexpressedBy(format: ExportFormat, items: readonly ExportedItem[]): Unexpressed[] {
  const name = fileNames[format]
  const found: Unexpressed[] = []
  for (const item of items) {
    const nested = format === 'agents-md' || format === 'claude'
    if (nested && item.globs.length > 0 && folderOf(item) === '')
      found.push({
        itemId: item.id,
        what: `its scope ${item.globs.map((glob) => `\`${glob}\``).join(', ')}: ${name} scopes rules only by the folder it is in, so the scope is written as prose and its rules read back as rules for every file`,
      })
    if (format !== 'cursor' && item.activation === 'requested')
      found.push({
        itemId: item.id,
        what: `served on request when its description fits the task: ${name} has no such rule, so its rules read back as rules for every task`,
      })
    // A Cursor rule always applied with globs beside ("alwaysApply: true", "globs: web/**") is served for a task naming no path; where the
    // format keeps the scope (a folder's AGENTS.md, a Copilot applyTo) it reads back served only there. A scope written as prose is reported above.
    const scopeKept = !(nested && folderOf(item) === '')
    if (format !== 'cursor' && item.activation === 'always' && item.globs.length > 0 && scopeKept)
      found.push({
        itemId: item.id,
        what: `always applied, with its scope beside: ${name} has no such rule, so its rules read back as rules served only where their scope applies`,
      })
    if (format !== 'cursor' && item.activation === 'manual')
      found.push({
        itemId: item.id,
        what: `served only when named: ${name} has no such rule, so its rules read back as rules for every task`,
      })
  }
  return found
}
