import { sha256Hex } from '../hash.js'
import type { KnowledgeItem } from '../knowledge/model.js'

/**
 * What a site is built from, as one digest: mk's version, every knowledge item (its file, text and fields)
 * and whatever else the site shows (memories, adherence). Equal digests mean the same pages but for the
 * violations and git history, which the build reads again only when something here changed.
 */
export function siteFingerprint(version: string, items: readonly KnowledgeItem[], extra: unknown): string {
  return sha256Hex(JSON.stringify({ version, items, extra }))
}
