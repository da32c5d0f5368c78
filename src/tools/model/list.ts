import { z } from 'zod'
import { defineTool } from '../define.js'

const publishedSchema = z
  .strictObject({ mtebRetrieval: z.number(), scifact: z.number().optional(), note: z.string() })
  .describe('Retrieval quality as its authors published it: MTEB retrieval average (nDCG@10 over 15 BEIR sets), SciFact nDCG@10 where reported')

export const modelList = defineTool({
  name: 'model_list',
  title: 'List embedding models',
  description:
    'The embedding models downloaded with model_pull (in $MK_HOME/models), with size, dimensions and published retrieval quality, which one the config selects, and well-known models that can be pulled.',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({}),
  output: z.strictObject({
    configured: z.string().describe('The model search uses now: bundled, none, or the transformers model'),
    installed: z.array(
      z.strictObject({
        id: z.string(),
        folder: z.string(),
        bytes: z.number().int(),
        dimensions: z.number().int(),
        selected: z.boolean(),
        published: publishedSchema.optional(),
      }),
    ),
    available: z
      .array(z.strictObject({ id: z.string(), dimensions: z.number().int(), published: publishedSchema }))
      .describe('Well-known models not installed yet'),
  }),
  examples: [
    {
      title: 'After pulling one model',
      input: {},
      output: {
        configured: 'bundled',
        installed: [
          {
            id: 'Xenova/bge-small-en-v1.5',
            folder: '/home/dev/.mk/models/Xenova/bge-small-en-v1.5',
            bytes: 133_700_000,
            dimensions: 384,
            selected: false,
            published: { mtebRetrieval: 51.68, scifact: 0.713, note: 'strong for its size, English' },
          },
        ],
        available: [{ id: 'Xenova/all-MiniLM-L6-v2', dimensions: 384, published: { mtebRetrieval: 41.95, scifact: 0.645, note: 'small and fast, English' } }],
      },
    },
  ],
  async run(_input, ctx) {
    const { modelCatalog } = await import('../../models/catalog.js')
    return { output: await modelCatalog(ctx.workspace, ctx.runtime.served) }
  },
  render(output) {
    const line = (id: string, detail: string, published: { mtebRetrieval: number; scifact?: number } | undefined) =>
      `  ${id}  ${detail}${published === undefined ? '' : `  MTEB retrieval ${published.mtebRetrieval}${published.scifact === undefined ? '' : `, SciFact ${published.scifact}`}`}`
    return [
      `Search uses: ${output.configured}`,
      output.installed.length === 0 ? 'No models pulled yet.' : 'Installed:',
      ...output.installed.map((model) =>
        line(`${model.selected ? '* ' : ''}${model.id}`, `${(model.bytes / 1e6).toFixed(0)} MB, ${model.dimensions}-d`, model.published),
      ),
      ...(output.available.length === 0
        ? []
        : ['Can be pulled (mk model pull ID):', ...output.available.map((model) => line(model.id, `${model.dimensions}-d`, model.published))]),
    ].join('\n')
  },
})
