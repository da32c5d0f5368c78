import { z } from 'zod'
import type { ProvenCaller } from '../../config/credential.js'
import type { RecallReceipt } from '../../memory/receipts.js'
import { defineTool } from '../define.js'
import { hasAdminRole } from '../roles.js'

/**
 * Which receipts a caller reads: those of the agent it asks for, else all. On a
 * team server each agent reads only its own (the server has already refused an
 * agent_id that is not the credential's) and a credential without an agent none;
 * an admin reads anyone's.
 */
function receiptsOf(agentId: string | undefined, credential: ProvenCaller | undefined): (receipt: RecallReceipt) => boolean {
  if (credential !== undefined && !hasAdminRole(credential)) {
    const own = credential.agentId
    return (receipt) => own !== undefined && receipt.agent_id === own
  }
  return (receipt) => agentId === undefined || receipt.agent_id === agentId
}

export const memoryReceipts = defineTool({
  name: 'memory_receipts',
  title: 'What recalls returned',
  description:
    'The recall receipts (kept when .mkrc memory.receipts is true): for each memory_recall, when, by which agent, the salted hash of its query and the ids it returned with their scores, to answer "what was the agent told when it made this change?". On a team server an agent reads only its own.',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({
    since: z
      .string()
      .refine((value) => !Number.isNaN(Date.parse(value)), 'an ISO date or date-time such as 2026-11-20')
      .optional()
      .describe('Only receipts from this time on'),
    agent_id: z.string().min(1).optional().describe('Only recalls by this agent'),
  }),
  output: z.strictObject({
    receipts: z.array(
      z.strictObject({ at: z.string(), agent_id: z.string().optional(), query_sha256: z.string(), ids: z.array(z.string()), scores: z.array(z.number()) }),
    ),
    enabled: z.boolean().describe('Whether .mkrc memory.receipts is on, so new recalls are being recorded'),
  }),
  examples: [
    {
      title: 'Recalls since yesterday',
      input: { since: '2026-11-24' },
      output: {
        receipts: [
          { at: '2026-11-24T10:00:00.000Z', agent_id: 'a1', query_sha256: '9f2c'.padEnd(64, '0'), ids: ['mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3'], scores: [0.81] },
        ],
        enabled: true,
      },
    },
  ],
  async run(input, ctx) {
    const since = input.since === undefined ? undefined : new Date(input.since).toISOString()
    const receipts = (await ctx.store.receipts.since(since)).filter(receiptsOf(input.agent_id, ctx.runtime.credential))
    return { output: { receipts, enabled: ctx.workspace.config.memory.receipts } }
  },
  render({ receipts, enabled }, style) {
    const lines = receipts.map((receipt) => `${receipt.at} ${receipt.agent_id ?? '(no agent)'} ${receipt.query_sha256.slice(0, 12)} ${receipt.ids.join(', ')}`)
    if (!enabled) lines.push(style.dim('receipts are off: set memory.receipts: true in .mkrc to record recalls'))
    return lines.join('\n') || 'No receipts.'
  },
})
