import type { Workspace } from '../config/workspace.js'
import { loadKnowledge } from '../knowledge/load.js'
import { builtSite, writeSite } from './build.js'
import { collectSite } from './collect.js'
import { siteFingerprint } from './fingerprint.js'
import type { SiteMemoryFolder } from './memories.js'
import type { SiteAdherence } from './model.js'

export interface SiteRequest {
  out: string
  /** Keep the site in `out` when it was built from the same knowledge. */
  reuse: boolean
  version: string
  memories: SiteMemoryFolder[] | undefined
  adherence: SiteAdherence | undefined
}

export interface BuiltWorkspaceSite {
  out: string
  items: number
  pages: number
  violations: number
  indexWeight: number
  totalBytes: number
  rebuilt: boolean
}

/** The workspace's knowledge site in `out`: kept when `reuse` finds it built from the same knowledge, written anew otherwise. */
export async function buildWorkspaceSite(workspace: Workspace, request: SiteRequest, warn: (message: string) => void): Promise<BuiltWorkspaceSite> {
  const { out, version, memories, adherence } = request
  const knowledge = await loadKnowledge(workspace)
  const fingerprint = siteFingerprint(version, knowledge.items, { memories, adherence })
  const earlier = request.reuse ? await builtSite(out) : undefined
  if (earlier?.fingerprint === fingerprint) return { out, ...earlier.built, rebuilt: false }
  const data = { ...(await collectSite(workspace, { version, now: new Date(), knowledge })), memories, adherence }
  if (data.checkProblem !== undefined) warn(`the site shows no violations: ${data.checkProblem}`)
  const built = await writeSite(data, out, fingerprint)
  return {
    out,
    items: data.items.length,
    pages: built.pages,
    violations: data.totalViolations,
    indexWeight: built.indexWeight,
    totalBytes: built.totalBytes,
    rebuilt: true,
  }
}
