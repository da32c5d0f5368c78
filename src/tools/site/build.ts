import { join, resolve } from 'node:path'
import { z } from 'zod'
import { requireResolvesWithin, writableFolders } from '../../fs/path-guard.js'
import { defineTool } from '../define.js'
import { MkError } from '../../errors.js'
import type { SiteMemoryFolder } from '../../site/memories.js'
import type { SiteAdherence } from '../../site/model.js'
import type { ToolContext } from '../context.js'
import { readPackageInfo } from '../generate/project.js'
import { consumerOf, identityOf } from '../memory/schemas.js'

/** The memory folders the caller may read, as the memory tools judge it: its own identity, its own private lanes. */
async function readableMemories(ctx: ToolContext): Promise<SiteMemoryFolder[]> {
  const { collectMemories } = await import('../../site/memories.js')
  return collectMemories(ctx.workspace, ctx.store, { identity: identityOf({}, ctx), consumer: consumerOf({}, ctx), warn: ctx.warn })
}

/**
 * Agent adherence from this project's Claude Code transcripts (mk rules adherence), for a caller at the
 * terminal only: over mk serve the folder would be the server user's, and no remote caller may make the
 * server read files outside the tenant. Undefined when there is no transcript or no tool call in them.
 */
async function localAdherence(ctx: ToolContext): Promise<SiteAdherence | undefined> {
  if (ctx.runtime.served || ctx.runtime.credential !== undefined) return undefined
  const { rulesAdherence } = await import('../hook/adherence.js')
  try {
    const { output } = await rulesAdherence.run({}, ctx)
    return output.toolCalls === 0 ? undefined : output
  } catch (error) {
    if (error instanceof MkError && error.code === 'NOT_FOUND') return undefined
    throw error
  }
}

export const siteBuild = defineTool({
  name: 'site_build',
  title: 'Build the knowledge site',
  description:
    'Write a static, offline website of the workspace knowledge: the decision log (type, status, layer, date, filters and a search box), a page per item ' +
    '(its text, relations both ways, its constraints with the current violations from a check run now, its git history), a graph of the items and ' +
    'their relations drawn as SVG, the violations by constraint and by folder, with memories the memory graph of the layers the caller may read, and, ' +
    "for a caller at the terminal, agent adherence from this project's Claude Code transcripts when there are any. Nothing on it loads from the network; open index.html from " +
    'disk or serve the folder from any static host. The folder must be new, empty, or an earlier site build (it is replaced).',
  tier: 'workspace',
  idempotent: true,
  // The build runs a whole-tree check, which on a large monorepo takes as long as `knowledge check`.
  timeoutMs: 10 * 60 * 1000,
  input: z.strictObject({
    out: z.string().min(1).optional().describe('Folder to write the site into, inside the workspace or MK_HOME (default: .mk/site of the workspace)'),
    memories: z
      .boolean()
      .default(false)
      .describe(
        'Add the memory graph (entities, relations and memories) of every layer the caller may read; never the private memories of another agent or person',
      ),
    reuse: z
      .boolean()
      .default(false)
      .describe(
        'Keep the site already in the folder when the knowledge it was built from has not changed since (violations and git history are not read again)',
      ),
  }),
  output: z.strictObject({
    out: z.string().describe('Absolute path of the site folder; open index.html'),
    items: z.number().int().describe('Knowledge items on the site'),
    pages: z.number().int().describe('HTML pages written'),
    violations: z.number().int().describe('Current constraint violations shown'),
    indexWeight: z.number().int().describe('Bytes of the decision log page with its stylesheet, scripts and search index'),
    totalBytes: z.number().int().describe('Bytes of every file written'),
    rebuilt: z.boolean().describe('False when reuse kept the site already in the folder'),
  }),
  examples: [
    {
      title: 'Build the site into the default folder',
      input: {},
      output: { out: '/home/dev/project/.mk/site', items: 27, pages: 30, violations: 2, indexWeight: 61234, totalBytes: 402113, rebuilt: true },
    },
  ],
  async run(input, ctx) {
    const out = input.out === undefined ? join(ctx.workspace.stateDir, 'site') : resolve(ctx.cwd, input.out)
    requireResolvesWithin(writableFolders(ctx.workspace.root, ctx.workspace.mkHome), out, 'out')
    const [{ buildWorkspaceSite }, { version }] = await Promise.all([import('../../site/build-workspace-site.js'), readPackageInfo()])
    const memories = input.memories ? await readableMemories(ctx) : undefined
    const adherence = await localAdherence(ctx)
    const output = await buildWorkspaceSite(ctx.workspace, { out, reuse: input.reuse, version, memories, adherence }, ctx.warn)
    return { output }
  },
  render(site) {
    if (!site.rebuilt) return `The site in ${site.out} is up to date (${site.items} knowledge items); kept it`
    return `Wrote ${site.pages} pages for ${site.items} knowledge items (${site.violations} current violations) to ${site.out}\nOpen ${join(site.out, 'index.html')}`
  },
})
