import { z } from 'zod'
import { memoryTiers } from '../../memory/model.js'
import { defineTool } from '../define.js'
import { consumerFields, consumerOf, identityFields, identityOf, memoryIdSchema, memoryLayerSchema } from './schemas.js'

export const memoryShow = defineTool({
  name: 'memory_show',
  title: 'Show a memory',
  description: 'Show one memory with all its fields: content, layer, tags, dates, refs, expiry, and the file it lives in.',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({ memoryId: memoryIdSchema, ...identityFields, ...consumerFields }),
  output: z.strictObject({
    memoryId: z.string(),
    layer: memoryLayerSchema,
    content: z.string(),
    tags: z.array(z.string()),
    created: z.string(),
    updated: z.string(),
    source: z.string().optional(),
    refs: z.array(z.string()),
    supersedes: z.array(z.string()),
    expires: z.string().optional(),
    lane: z
      .enum(['private', 'shared'])
      .describe(
        'private: only its owners see it (on this machine in the agent, session and user layers; its owner agent or team in shared layers); shared: everyone who reads the layer',
      ),
    owner: z.string().optional(),
    producer_agent_id: z.string().optional().describe('The agent that wrote it'),
    owner_agent_id: z.string().optional().describe('The agent a private memory of a shared layer belongs to'),
    owner_team_id: z.string().optional().describe('The team a private memory of a shared layer belongs to'),
    tier: z.enum(memoryTiers).describe('hot and warm are recalled by default; cold and archive only with --tier'),
    activations: z.number().int().describe('Uses recorded with memory_activate'),
    feedback_positive: z.number().int(),
    feedback_negative: z.number().int(),
    last_activated: z.string().optional(),
    metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    file: z.string().describe('The file, relative to the workspace or to $MK_HOME'),
  }),
  examples: [
    {
      title: 'Show a memory',
      input: { memoryId: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3' },
      output: {
        memoryId: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3',
        layer: 'project',
        content: 'We store everything in Postgres',
        tags: ['database'],
        created: '2026-11-20T10:00:00.000Z',
        updated: '2026-11-20T10:00:00.000Z',
        source: 'cli',
        refs: [],
        supersedes: [],
        lane: 'shared',
        tier: 'hot',
        activations: 2,
        feedback_positive: 1,
        feedback_negative: 0,
        last_activated: '2026-11-24T09:00:00.000Z',
        metadata: {},
        file: 'knowledge/memory/mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3.md',
      },
    },
  ],
  async run(input, ctx) {
    const { showMemory } = await import('../../recall/show-memory.js')
    return { output: await showMemory(input.memoryId, { identity: identityOf(input, ctx), consumer: consumerOf(input, ctx) }, ctx.store) }
  },
  render(output, style) {
    const fields: [string, string | undefined][] = [
      ['layer', output.layer],
      ['tier', output.tier === 'hot' ? undefined : output.tier],
      [
        'used',
        output.activations === 0
          ? undefined
          : `${output.activations} times (${output.feedback_positive} helped, ${output.feedback_negative} did not), last ${output.last_activated ?? ''}`,
      ],
      ['tags', output.tags.join(', ') || undefined],
      ['created', output.created],
      ['updated', output.updated === output.created ? undefined : output.updated],
      ['expires', output.expires],
      ['refs', output.refs.join(', ') || undefined],
      ['source', output.source],
      ['file', output.file],
    ]
    return [
      style.bold(style.cyan(output.memoryId)),
      ...fields.flatMap(([name, value]) => (value === undefined ? [] : [`${style.dim(`${name}:`.padEnd(9))}${value}`])),
      '',
      output.content,
    ].join('\n')
  },
})
