import { z } from 'zod'
import { requireApproval } from '../approval.js'
import { defineTool } from '../define.js'
import { consumerFields, consumerOf, identityFields, identityOf, memoryIdSchema } from './schemas.js'
import { oneLine } from '../../text.js'

export const memoryDelete = defineTool({
  name: 'memory_delete',
  title: 'Delete a memory',
  description:
    'Delete one memory by id. The deletion is recorded in the MK_HOME git history, so memory_restore can bring it back. Deleting from a shared layer (project, team, org, company) is elevated: a person must approve it (MCP elicitation, a terminal prompt or --yes), otherwise it is refused with FORBIDDEN.',
  tier: 'workspace',
  // A deleted memory can be restored, but an agent's client should still ask first.
  destructive: true,
  idempotent: false,
  input: z.strictObject({ memoryId: memoryIdSchema, ...identityFields, ...consumerFields }),
  output: z.strictObject({
    success: z.literal(true),
    message: z.string(),
    commit: z.string().describe('The $MK_HOME history commit that records the deletion (and archives the text restore brings back)'),
  }),
  examples: [
    {
      title: 'Delete a memory',
      input: { memoryId: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3' },
      output: {
        success: true,
        message: 'Deleted mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3 from the user layer (restore with mk memory restore mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3)',
        commit: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
      },
    },
  ],
  async run(input, ctx) {
    const stored = await ctx.store.memories.findVisible(identityOf(input, ctx), consumerOf(input, ctx), input.memoryId)
    // Others read a shared layer: removing from it is a person's decision, not an agent's.
    if (!stored.folder.private) {
      const what = `deleting ${input.memoryId} from the shared ${stored.folder.layer} layer`
      await requireApproval(
        ctx,
        'memory_delete',
        `Delete memory ${input.memoryId} from the shared ${stored.folder.layer} layer? "${oneLine(stored.record.content, 80)}"`,
        what,
      )
    }
    const commit = await ctx.store.memories.delete(stored, { author: ctx.runtime.author, warn: ctx.warn })
    const message = `Deleted ${input.memoryId} from the ${stored.folder.layer} layer (restore with mk memory restore ${input.memoryId})`
    return { output: { success: true as const, message, commit } }
  },
  render: (output) => output.message,
})
