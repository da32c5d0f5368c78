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
    const { countersOf } = await import('../../memory/counters.js')
    const stored = await ctx.store.memories.findVisible(identityOf(input, ctx), consumerOf(input, ctx), input.memoryId)
    const { record, folder } = stored
    const counted = countersOf(await ctx.store.activations.counters(folder), record.id)
    const output = {
      memoryId: record.id,
      layer: record.layer,
      content: record.content,
      tags: record.tags,
      created: record.created,
      updated: record.updated,
      ...(record.source === undefined ? {} : { source: record.source }),
      refs: record.refs,
      supersedes: record.supersedes,
      ...(record.expires === undefined ? {} : { expires: record.expires }),
      lane: record.lane,
      ...(record.owner === undefined ? {} : { owner: record.owner }),
      ...(record.producerAgentId === undefined ? {} : { producer_agent_id: record.producerAgentId }),
      ...(record.ownerAgentId === undefined ? {} : { owner_agent_id: record.ownerAgentId }),
      ...(record.ownerTeamId === undefined ? {} : { owner_team_id: record.ownerTeamId }),
      tier: record.tier ?? 'hot',
      activations: counted.activations,
      feedback_positive: counted.feedbackPositive,
      feedback_negative: counted.feedbackNegative,
      ...(counted.lastActivated === undefined ? {} : { last_activated: counted.lastActivated }),
      metadata: record.metadata,
      file: await ctx.store.memories.placeOf(stored),
    }
    const { style } = ctx
    const fields: [string, string | undefined][] = [
      ['layer', record.layer],
      ['tier', record.tier === undefined || record.tier === 'hot' ? undefined : record.tier],
      [
        'used',
        counted.activations === 0
          ? undefined
          : `${counted.activations} times (${counted.feedbackPositive} helped, ${counted.feedbackNegative} did not), last ${counted.lastActivated ?? ''}`,
      ],
      ['tags', record.tags.join(', ') || undefined],
      ['created', record.created],
      ['updated', record.updated === record.created ? undefined : record.updated],
      ['expires', record.expires],
      ['refs', record.refs.join(', ') || undefined],
      ['source', record.source],
      ['file', output.file],
    ]
    const display = [
      style.bold(style.cyan(record.id)),
      ...fields.flatMap(([name, value]) => (value === undefined ? [] : [`${style.dim(`${name}:`.padEnd(9))}${value}`])),
      '',
      record.content,
    ].join('\n')
    return { output, display }
  },
})
