import { z } from 'zod'
import { defineTool } from '../define.js'
import { registeredManifest } from './tool-list.js'

export const toolsSkill = defineTool({
  name: 'tools_skill',
  title: 'Generate the skill document',
  description:
    'Render SKILL.md from the tool manifest: what mk does, when to use it and when not, every tool with its risk, inputs, outputs and a copy-paste example (JSON, CLI, MCP), error codes and what to do, safety and operational notes.',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({}),
  output: z.strictObject({
    content: z.string().describe('The markdown text of SKILL.md'),
    toolCount: z.number().int(),
  }),
  examples: [{ title: 'The skill document', input: {}, output: { content: '---\nname: mk\n...', toolCount: 1 } }],
  async run() {
    const { renderSkill } = await import('../generate/skill.js')
    const manifest = await registeredManifest()
    const content = renderSkill(manifest)
    return { output: { content, toolCount: manifest.tools.length } }
  },
  render: (output) => output.content,
})
