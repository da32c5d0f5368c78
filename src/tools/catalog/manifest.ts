import { z } from 'zod'
import { defineTool } from '../define.js'
import { registeredManifest } from './tool-list.js'
import { manifestSchema } from '../generate/manifest-schema.js'
import { exampleManifest } from './examples.js'

export const toolsManifest = defineTool({
  name: 'tools_manifest',
  title: 'Generate the tool manifest',
  description:
    'Describe every mk tool (name, risk, idempotency, timeout, input/output/error JSON Schemas draft 2020-12, examples, constraints) as tool.manifest.json, the interface-neutral source of SKILL.md and the exported function schemas.',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({}),
  output: manifestSchema,
  examples: [{ title: 'The manifest of every registered tool', input: {}, output: exampleManifest }],
  async run() {
    const { renderManifest } = await import('../generate/manifest.js')
    const manifest = await registeredManifest()
    return { output: manifest, display: renderManifest(manifest) }
  },
})
