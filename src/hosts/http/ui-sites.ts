import type { RuntimeEnv } from '../../config/workspace.js'
import { MkError } from '../../errors.js'
import type { CallScheduler } from './call-scheduler.js'
import { defaultScope } from './tenants.js'

/** Where the server keeps each tenant's site, relative to the tenant's workspace (its state folder, never served elsewhere). */
export const uiSiteFolder = '.mk/ui-site'

export interface UiSiteSettings {
  /** A page request within this long of the last check serves the site as it is, without asking whether knowledge changed. */
  recheckMs: number
  /** A site older than this is built again even if the knowledge did not change: violations follow the code, not the knowledge. */
  maxAgeMs: number
}

interface TenantSite {
  folder: string | undefined
  checkedAt: number
  builtAt: number
  /** The build (or up-to-date check) running now: every request of the tenant waits for this one, none starts another. */
  pending: Promise<string> | undefined
}

/**
 * Each tenant's site, built on demand by the site_build tool on a tool thread in the tenant's turn and kept
 * until the tenant's knowledge changes: at most one build per tenant at a time, and a check (which reads the
 * knowledge, not the code) at most every `recheckMs`.
 */
export class TenantSites {
  private readonly sites = new Map<string, TenantSite>()

  constructor(
    private readonly calls: CallScheduler,
    private readonly runtime: RuntimeEnv,
    private readonly settings: UiSiteSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** The folder of the tenant's current site, built or checked first when due. */
  folder(tenantId: string): Promise<string> {
    const site = this.sites.get(tenantId) ?? { folder: undefined, checkedAt: 0, builtAt: 0, pending: undefined }
    this.sites.set(tenantId, site)
    if (site.pending !== undefined) return site.pending
    if (site.folder !== undefined && this.now() - site.checkedAt < this.settings.recheckMs) return Promise.resolve(site.folder)
    const reuse = site.folder !== undefined && this.now() - site.builtAt < this.settings.maxAgeMs
    const pending = this.build(tenantId, reuse)
      .then(({ out, rebuilt }) => {
        site.folder = out
        site.checkedAt = this.now()
        if (rebuilt) site.builtAt = site.checkedAt
        return out
      })
      .finally(() => {
        site.pending = undefined
      })
    site.pending = pending
    return pending
  }

  private async build(tenantId: string, reuse: boolean): Promise<{ out: string; rebuilt: boolean }> {
    // The server builds on its own account, as a writer with no agent or team: the site shows what every member
    // of the tenant may read (no agent, user or session layer, no private lane) and a reader's login can see it.
    // Read-only mode keeps callers from changing the store; the site folder is the server's cache, not the store.
    const runtime: RuntimeEnv = {
      ...this.runtime,
      readOnly: false,
      agentId: undefined,
      teamId: undefined,
      sessionId: undefined,
      credential: { role: 'writer', agentId: undefined, teamId: undefined },
      served: true,
    }
    const outcome = await this.calls.run(
      { tool: 'site_build', tenantId, scope: defaultScope, input: { out: uiSiteFolder, reuse, memories: true }, runtime },
      { write: false, heavy: true },
    )
    if (!outcome.ok)
      throw new MkError(outcome.error.errorCode, `the site could not be built: ${outcome.error.message}`, { details: outcome.error.details ?? {} })
    const output = outcome.output as { out: string; rebuilt: boolean }
    return { out: output.out, rebuilt: output.rebuilt }
  }
}
