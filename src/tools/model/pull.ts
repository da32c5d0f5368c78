import { z } from 'zod'
import { defineTool } from '../define.js'

const hubId = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/

export const modelPull = defineTool({
  name: 'model_pull',
  title: 'Download an embedding model',
  description:
    'Download a sentence-transformer exported for transformers.js (config.json, tokenizer.json, onnx/model.onnx) from a Hugging Face-compatible hub into $MK_HOME/models/<id>, ' +
    'resuming an interrupted download and checking the SHA-256 the hub publishes. Then select it with search.embedding.provider: transformers and search.embedding.model: <id>. Never needed: the bundled model works offline.',
  tier: 'system',
  idempotent: true,
  timeoutMs: 60 * 60 * 1000,
  input: z.strictObject({
    id: z.string().regex(hubId, 'a hub id such as Xenova/all-MiniLM-L6-v2').describe('The model on the hub, owner/name'),
    revision: z.string().min(1).max(200).default('main').describe('Branch, tag or commit on the hub'),
    hubUrl: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe(
        'The hub to download from; default search.embedding.hubUrl. Where the operator lists hubs (MK_MODEL_HUB_URLS, and always through mk serve), only one of those',
      ),
  }),
  output: z.strictObject({
    id: z.string(),
    folder: z.string().describe('Where the model now is'),
    files: z.array(
      z.strictObject({
        path: z.string(),
        bytes: z.number().int(),
        sha256: z.string(),
        verified: z.boolean().describe('The hub published a checksum and the file matched it'),
        resumedBytes: z.number().int().describe('Bytes an interrupted pull had already fetched'),
      }),
    ),
    dimensions: z.number().int(),
    selected: z.boolean().describe('search.embedding.model already names this model'),
  }),
  examples: [
    {
      title: 'Pull a stronger model',
      input: { id: 'Xenova/bge-small-en-v1.5' },
      output: {
        id: 'Xenova/bge-small-en-v1.5',
        folder: '/home/dev/.mk/models/Xenova/bge-small-en-v1.5',
        files: [{ path: 'onnx/model.onnx', bytes: 133093490, sha256: '9a7c…', verified: true, resumedBytes: 0 }],
        dimensions: 384,
        selected: false,
      },
    },
  ],
  async run(input, ctx) {
    const { pullModelIntoWorkspace } = await import('../../models/pull-into-workspace.js')
    const output = await pullModelIntoWorkspace(
      { id: input.id, revision: input.revision, hubUrl: input.hubUrl },
      { workspace: ctx.workspace, env: ctx.env, served: ctx.runtime.served, progress: ctx.progress, signal: ctx.signal },
    )
    return { output }
  },
  render(output) {
    const how = output.selected
      ? 'It is the configured model: the next search re-embeds with it.'
      : `Use it: set search.embedding.provider: transformers and search.embedding.model: ${output.id} in .mkrc (the next search re-embeds).`
    const bytes = output.files.reduce((sum, file) => sum + file.bytes, 0)
    return `${output.id} is in ${output.folder} (${(bytes / 1e6).toFixed(1)} MB, ${output.dimensions} dimensions, ${output.files.filter((file) => file.verified).length} of ${output.files.length} files checked against the hub's checksums).\n${how}`
  },
})
