import { z } from 'zod'
import { defineTool } from '../define.js'

export const knowledgeUpdateBaseline = defineTool({
  name: 'knowledge_update_baseline',
  title: 'Update the constraint baseline',
  description:
    'Record every current constraint violation of the working tree in the baseline file (check.baseline, default .mk-baseline.json), so that later checks fail only on new violations. ' +
    'Entries are keyed by constraint id, file and a hash of the offending line text; violations fixed since the last update are pruned. Use when adopting mk in an existing repository.',
  tier: 'workspace',
  idempotent: true,
  timeoutMs: 10 * 60 * 1000,
  input: z.strictObject({}),
  output: z.strictObject({
    file: z.string().describe('Workspace-relative path of the baseline file'),
    violations: z.number().int().describe('Violations recorded'),
    added: z.number().int().describe('Recorded now, not in the previous baseline'),
    pruned: z.number().int().describe('In the previous baseline, no longer found'),
  }),
  examples: [
    { title: 'Adopt mk in a repository with existing violations', input: {}, output: { file: '.mk-baseline.json', violations: 12, added: 12, pruned: 0 } },
  ],
  async run(_input, ctx) {
    const { updateBaseline } = await import('../../constraints/waivers/update-baseline.js')
    const update = await updateBaseline(ctx.workspace)
    return { output: update }
  },
  render: (update) =>
    `Wrote ${update.file}: ${update.violations} violation${update.violations === 1 ? '' : 's'} baselined (${update.added} added, ${update.pruned} pruned). Commit it; later checks fail only on new violations.`,
})
