import { z } from 'zod'
import { defineTool } from '../define.js'
import { exportFormats } from '../../directives/export/formats.js'

export const exportFormatSchema = z.enum(exportFormats).describe('agents-md (AGENTS.md), claude (CLAUDE.md), cursor (.cursor/rules/*.mdc), copilot (.github/)')

export const unexpressedSchema = z
  .array(z.strictObject({ itemId: z.string(), what: z.string().describe('What the format cannot say, and how the rules read back without it') }))
  .describe(
    'What of each item the format cannot express (a file-glob scope in AGENTS.md, a rule served on request outside Cursor); its rules are written without it',
  )

export const rulesExport = defineTool({
  name: 'rules_export',
  title: 'Export directives as agent rules files',
  description:
    "Render the accepted knowledge items' directives as the rules files one agent reads: AGENTS.md or CLAUDE.md (a folder's rules in that folder's file), Cursor rules (.cursor/rules/<item>.mdc, of the item's rule type: always, by globs, requested by description, manual) or Copilot instructions (.github/copilot-instructions.md, plus .github/instructions/<item>.instructions.md for scoped items). Each rule reads `- [MUST] text`, with its code block and links, under the headings it was written under and a heading per item that names its id; ingesting the files gives the same directives back. Reports what a format cannot express. Byte-stable: the same knowledge gives the same bytes. Returns the files; rules_export_write writes them.",
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({ format: exportFormatSchema }),
  output: z.strictObject({
    format: z.enum(exportFormats),
    files: z.array(z.strictObject({ path: z.string().describe('Path relative to the folder the files go to'), content: z.string() })),
    items: z.number().int().describe('Accepted items with at least one directive'),
    directives: z.number().int(),
    unexpressed: unexpressedSchema,
  }),
  examples: [
    {
      title: 'AGENTS.md from the knowledge',
      input: { format: 'agents-md' },
      output: {
        format: 'agents-md',
        files: [
          {
            path: 'AGENTS.md',
            content: '# Rules for coding agents\n\n...\n\n## Security baseline\n\nFrom `security-baseline`.\n\n- [MUST] Never log access tokens\n',
          },
        ],
        items: 1,
        directives: 1,
        unexpressed: [],
      },
    },
  ],
  async run(input, ctx) {
    const { loadKnowledge } = await import('../../knowledge/load.js')
    const { collectAccepted } = await import('../../directives/export/collect.js')
    const { renderExport } = await import('../../directives/export/render.js')
    const items = collectAccepted(await loadKnowledge(ctx.workspace))
    const { files, unexpressed } = renderExport(input.format, items)
    const directives = items.reduce((sum, item) => sum + item.directives.length, 0)
    for (const entry of unexpressed) ctx.warn(`${entry.itemId}: ${entry.what}`)
    return { output: { format: input.format, files, items: items.length, directives, unexpressed } }
  },
  // One file prints as it is, so `mk rules export --format claude > CLAUDE.md` writes it; several are headed like `head` does.
  render: ({ files }) => (files.length === 1 ? (files[0]?.content ?? '') : files.map((file) => `==> ${file.path} <==\n${file.content}`).join('\n')),
})
