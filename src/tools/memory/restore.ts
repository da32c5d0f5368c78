import { z } from 'zod'
import { defineTool } from '../define.js'
import { identityFields, identityOf, memoryIdSchema, memoryLayerSchema } from './schemas.js'

export const memoryRestore = defineTool({
  name: 'memory_restore',
  title: 'Restore a deleted memory',
  description: 'Bring back a memory deleted with memory_delete, from the MK_HOME git history, into the layer it was deleted from.',
  tier: 'workspace',
  idempotent: false,
  input: z.strictObject({ memoryId: memoryIdSchema, ...identityFields }),
  output: z.strictObject({
    success: z.literal(true),
    memoryId: z.string(),
    layer: memoryLayerSchema,
    message: z.string(),
    commit: z.string().optional().describe('The $MK_HOME history commit of a private memory; a shared one is left for you to commit in the project'),
  }),
  examples: [
    {
      title: 'Undo a deletion',
      input: { memoryId: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3' },
      output: {
        success: true,
        memoryId: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3',
        layer: 'user',
        message: 'Restored mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3 to the user layer',
      },
    },
  ],
  async run(input, ctx) {
    const stored = await ctx.store.memories.restore(identityOf(input, ctx), input.memoryId, { author: ctx.runtime.author, warn: ctx.warn })
    const message = `Restored ${input.memoryId} to the ${stored.folder.layer} layer`
    return {
      output: {
        success: true as const,
        memoryId: input.memoryId,
        layer: stored.folder.layer,
        message,
        ...(stored.commit === undefined ? {} : { commit: stored.commit }),
      },
    }
  },
  render: (output) => output.message,
})
